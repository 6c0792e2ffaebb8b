// `/checkpoint [label]` in the app: its notice names the checkpoint as its row in the picker
// reads (rows show no checkpoint ids), and says when nothing changed since the previous one.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rowsNow } from '../../src/runtime/restore/stepNames.js';
import { checkpointTitle } from '../../src/app/picker/pickerRows.js';
import { watchedSessions } from '../helpers/watchedSession.js';

const session = watchedSessions('rewind-manual-');

describe('a checkpoint taken with /checkpoint', () => {
  it('is named in its notice as its row reads, with no id', async () => {
    const { root, triggers, engine, notices } = await session();
    fs.writeFileSync(path.join(root, 'src/lib/a.ts'), 'export const two = 2;\n');
    await triggers.checkpoint({ trigger: 'manual', label: 'before the refactor' });
    const row = rowsNow(engine).at(-1);
    expect(row && checkpointTitle(row)).toBe('before the refactor');
    expect(notices.said.at(-1)?.text).toBe('checkpoint taken: “before the refactor”');

    await triggers.checkpoint({ trigger: 'manual', label: 'manual checkpoint' });
    expect(notices.said.at(-1)?.text).toBe('checkpoint taken: “manual checkpoint” (no change since the previous one)');
    expect(notices.said.map((notice) => notice.text).join('\n')).not.toMatch(/#\d/);
  });
});
