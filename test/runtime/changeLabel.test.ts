// Issue 11 item 22: a burst's label never hides the biggest part of its change.
import { describe, expect, it } from 'vitest';
import { changeLabel } from '../../src/runtime/checkpointing/changeLabel.js';

describe('the label of a burst of file changes', () => {
  it('counts by kind, biggest first, then names the biggest kinds first', () => {
    const deleted = Array.from({ length: 5 }, (_, i) => `tests/t${i}.test.ts`);
    const label = changeLabel(
      { summary: { added: 2, modified: 0, deleted: 300 }, paths: ['empty.txt', 'run.sh', ...deleted], examples: { added: ['empty.txt', 'run.sh'], modified: [], deleted, folders: { deleted: 'tests/' } } },
      ['empty.txt', 'run.sh'],
    );
    expect(label).toBe('files changed: 300 deleted, 2 added: tests/, empty.txt, run.sh');
    // Deletions in several folders are not passed off as one.
    const spread = changeLabel({ summary: { added: 0, modified: 0, deleted: 300 }, paths: deleted, examples: { added: [], modified: [], deleted, folders: {} } }, []);
    expect(spread).toBe('files changed: 300 deleted: tests/t0.test.ts, tests/t1.test.ts, tests/t2.test.ts, …');
  });

  it('names the files of a small change', () => {
    expect(changeLabel({ summary: { added: 0, modified: 1, deleted: 0 }, paths: ['src/a.ts'], examples: { added: [], modified: ['src/a.ts'], deleted: [], folders: { modified: 'src/' } } }, ['src/a.ts'])).toBe(
      'files changed: 1 edited: src/a.ts',
    );
    expect(
      changeLabel({ summary: { added: 1, modified: 2, deleted: 0 }, paths: ['a', 'b', 'c'], examples: { added: ['c'], modified: ['a', 'b'], deleted: [], folders: {} } }, []),
    ).toBe('files changed: 2 edited, 1 added: a, b, c');
  });

  it('falls back to the paths seen when the step is unknown', () => {
    expect(changeLabel({ paths: [] }, ['a.txt', 'b.txt', 'c.txt', 'd.txt'])).toBe('files changed: a.txt, b.txt, c.txt, …');
  });
});
