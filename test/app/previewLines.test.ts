import { describe, expect, it } from 'vitest';
import { previewLines, UNSAVED_NOTE } from '../../src/app/picker/previewLines.js';
import { formatBytes } from '../../src/shared/format.js';
import type { PickerPreview } from '../../src/app/picker/types.js';

const texts = (preview: PickerPreview, max: number) => previewLines(preview, max).map((line) => line.text);

describe('previewLines', () => {
  const preview: PickerPreview = {
    files: [
      { path: 'src/db.ts', status: 'M', added: 12, removed: 3 },
      { path: 'logo.png', status: 'A', added: null, removed: null },
      { path: 'notes.md', status: 'M', added: 1, removed: 0 },
    ],
    skipped: [{ path: 'model.gguf', bytes: 3 * 1024 ** 3, reason: 'over 20 MB' }],
    unsaved: ['notes.md'],
  };

  it('lists the files with status and +/-, flags unsaved ones, and the skipped files it leaves alone', () => {
    expect(texts(preview, 10)).toEqual([
      'undoing this and every later step now changes 3 file(s)',
      '  M src/db.ts  +12 -3',
      '  A logo.png  binary',
      '! M notes.md  +1 -0',
      UNSAVED_NOTE,
      'left alone (skipped): model.gguf  3.0 GB, over 20 MB',
    ]);
  });

  it("says in its header what a restore changes now, in the rows' terms: this and every later step, or for the newest row this step", () => {
    const files = Array.from({ length: 13 }, (_, i) => ({ path: `f${i}.ts`, status: 'M' as const, added: 1, removed: 0 }));
    expect(texts({ files, skipped: [], unsaved: [] }, 20)[0]).toBe('undoing this and every later step now changes 13 file(s)');
    expect(previewLines({ files: files.slice(0, 1), skipped: [], unsaved: [] }, 20, true)[0]?.text).toBe('undoing this step now changes 1 file(s)');
  });

  it('says … N more when the files do not fit, keeping the note and the skipped files', () => {
    const many: PickerPreview = { ...preview, files: Array.from({ length: 30 }, (_, i) => ({ path: `f${i}.ts`, status: 'M' as const, added: 1, removed: 1 })) };
    const lines = texts(many, 6);
    expect(lines).toHaveLength(6);
    expect(lines[0]).toBe('undoing this and every later step now changes 30 file(s)');
    expect(lines).toContain('! edited after the newest checkpoint — kept in the redo point');
    expect(lines.some((l) => l.startsWith('left alone (skipped): model.gguf'))).toBe(true);
    expect(lines.some((l) => /^… \d+ more file\(s\)$/.test(l))).toBe(true);
  });

  it('shows an error alone, and says when nothing would change', () => {
    expect(texts({ files: [], skipped: [], unsaved: [], error: 'checkpoint #3 is no longer restorable' }, 5)).toEqual(['this step cannot be previewed: checkpoint #3 is no longer restorable']);
    expect(texts({ files: [], skipped: [], unsaved: [] }, 5)).toEqual(['nothing to change: the files already match it']);
  });

  it('formats sizes as the status line and /checkpoints do', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(21 * 1024 * 1024)).toBe('21 MB');
  });
});
