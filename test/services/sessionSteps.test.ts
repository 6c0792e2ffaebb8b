// The session's steps from checkpoint records shaped like real sessions: a hooked agent (the
// demo's two tasks, as `rewind list --json` recorded them), the user's edits between turns,
// an agent without hooks.
import { describe, expect, it } from 'vitest';
import { isRewindTitle, partsOf, sessionSteps, type SessionStep, type StepRecord } from '../../src/services/steps/sessionSteps.js';
import { likelyUndo } from '../../src/shared/likelyUndo.js';

type Change = { added?: number; modified?: number; deleted?: number };

/** A record: `changed` is what changed since the one before it (its paths and kinds). */
function record(id: number, trigger: string, label: string, changed: readonly string[] = [], kinds: Change = { modified: changed.length }, session = 's1'): StepRecord {
  return {
    id,
    time: new Date(Date.UTC(2026, 11, 2, 21, 0, id)).toISOString(),
    session,
    trigger,
    label,
    changedSincePrevious: changed.length,
    changedPaths: [...changed],
    changes: { added: kinds.added ?? 0, modified: kinds.modified ?? 0, deleted: kinds.deleted ?? 0 },
  };
}

const quietNow = { changedSinceNewest: 0, changedPathsSinceNewest: [] };

/** The steps as [id, kind, title, files, turn, folded]. */
const shape = (steps: readonly SessionStep[]) => steps.map((step) => [step.id, step.kind, step.title, step.files, step.turn ?? null, step.folded]);

/** The demo's tasks 1 and 2 as the demo agent's hooks and the watcher checkpointed them. */
const demo: StepRecord[] = [
  record(1, 'start', 'session start'),
  record(2, 'UserPromptSubmit', '1'),
  record(3, 'PreToolUse:Edit', 'Edit server.js'),
  record(4, 'PreToolUse:Write', 'Write server.config.json', ['server.js']),
  record(5, 'watch', 'files changed: 1 added: server.config.json', ['server.config.json'], { added: 1 }),
  record(6, 'UserPromptSubmit', '2'),
  record(7, 'PreToolUse:Bash', 'Bash rm -rf tests'),
  record(8, 'PreToolUse:Edit', 'Edit package.json', ['tests/config.test.js', 'tests/server.test.js'], { deleted: 2 }),
  record(9, 'watch', 'files changed: 1 edited: package.json', ['package.json']),
];

describe('a hooked agent (the demo, as Claude Code)', () => {
  it('each row is a step with its own count; prompts are turns counting their whole turn; the watcher rows after tool steps fold into them', () => {
    const steps = sessionSteps(demo, quietNow);
    expect(shape(steps)).toEqual([
      [1, 'start', 'session start', 0, null, []],
      [2, 'turn', '1', 2, null, []],
      [3, 'tool', 'Edit server.js', 1, 2, []],
      [4, 'tool', 'Write server.config.json', 1, 2, [5]],
      [6, 'turn', '2', 3, null, []],
      [7, 'tool', 'Bash rm -rf tests', 2, 6, []],
      [8, 'tool', 'Edit package.json', 1, 6, [9]],
    ]);
    expect(steps.find((step) => step.id === 6)).toMatchObject({ steps: [7, 8], to: null, paths: ['tests/config.test.js', 'tests/server.test.js', 'package.json'] });
    expect(steps.find((step) => step.id === 2)).toMatchObject({ steps: [3, 4], to: 6 });
    expect(steps.find((step) => step.id === 4)).toMatchObject({ to: 6, paths: ['server.config.json'] });
  });

  it('the likely undo is the last step that changed files (task 2: Edit package.json), the step above it Bash rm -rf tests', () => {
    const steps = sessionSteps(demo, quietNow);
    expect(likelyUndo(steps)?.title).toBe('Edit package.json');
    expect(partsOf(steps, 6)).toEqual([
      { id: 6, through: 6 },
      { id: 7, through: 7 },
      { id: 8, through: 9 },
    ]);
    expect(partsOf(steps, 8)).toEqual([{ id: 8, through: 9 }]);
  });

  it('before the files now are known, the newest step counts … and its watch row is folded all the same', () => {
    const steps = sessionSteps(demo);
    expect(steps.at(-1)).toMatchObject({ id: 8, files: 1, folded: [9], to: null });
    expect(steps.find((step) => step.id === 6)?.files).toBe(3);
    const noWatch = sessionSteps(demo.slice(0, 8));
    expect(noWatch.at(-1)).toMatchObject({ id: 8, files: null });
    expect(noWatch.find((step) => step.id === 6)?.files).toBeNull();
  });

  it('files changed after the newest checkpoint unfold its watch row into edits outside any step', () => {
    const steps = sessionSteps(demo, { changedSinceNewest: 1, changedPathsSinceNewest: ['README.md'] });
    expect(shape(steps.slice(-2))).toEqual([
      [8, 'tool', 'Edit package.json', 1, 6, []],
      [9, 'outside', 'edits outside any step: 1 file(s): README.md', 1, null, []],
    ]);
    // Not the turn's: the turn ends where its last tool step does.
    expect(steps.find((step) => step.id === 6)).toMatchObject({ steps: [7, 8], files: 3, to: 9 });
    expect(likelyUndo(steps)?.id).toBe(9);
  });
});

describe("the user's own edits between turns", () => {
  it('edits the watcher saw after the turn are a row of their own, between the turns, saying so', () => {
    const records = [
      record(1, 'start', 'session start'),
      record(2, 'UserPromptSubmit', 'add a.txt'),
      record(3, 'PreToolUse:Write', 'Write a.txt'),
      record(4, 'watch', 'files changed: 1 added: a.txt', ['a.txt'], { added: 1 }),
      record(5, 'watch', 'files changed: 1 edited: README.md', ['README.md']),
      record(6, 'UserPromptSubmit', 'now b'),
      record(7, 'PreToolUse:Write', 'Write b.txt'),
      record(8, 'watch', 'files changed: 1 added: b.txt', ['b.txt'], { added: 1 }),
    ];
    expect(shape(sessionSteps(records, quietNow))).toEqual([
      [1, 'start', 'session start', 0, null, []],
      [2, 'turn', 'add a.txt', 1, null, []],
      [3, 'tool', 'Write a.txt', 1, 2, []],
      [4, 'outside', 'edits outside any step: 1 edited: README.md', 1, null, [5]],
      [6, 'turn', 'now b', 1, null, []],
      [7, 'tool', 'Write b.txt', 1, 6, [8]],
    ]);
  });

  it('an Enter checkpoint right before the prompt hook (edits the watcher had not seen yet) folds into the step before it', () => {
    const records = [
      record(1, 'start', 'session start'),
      record(2, 'UserPromptSubmit', 'add a.txt'),
      record(3, 'PreToolUse:Write', 'Write a.txt'),
      record(4, 'watch', 'files changed: 1 added: a.txt', ['a.txt'], { added: 1 }),
      record(5, 'enter', 'now b', ['README.md']),
      record(6, 'UserPromptSubmit', 'now b'),
    ];
    const steps = sessionSteps(records, quietNow);
    expect(shape(steps)).toEqual([
      [1, 'start', 'session start', 0, null, []],
      [2, 'turn', 'add a.txt', 1, null, []],
      [3, 'tool', 'Write a.txt', 1, 2, []],
      [4, 'outside', 'edits outside any step: 1 edited: README.md', 1, null, [5]],
      [6, 'turn', 'now b', 0, null, []],
    ]);
  });
});

describe('an agent without hooks', () => {
  it('its Enter is a turn; its writes, seen by the watcher, are edits outside any step, each row counting what came after it', () => {
    const records = [
      record(1, 'start', 'session start'),
      record(2, 'watch', 'files changed: 2 added: a.ts, b.ts', ['a.ts', 'b.ts'], { added: 2 }),
      record(3, 'watch', 'files changed: 1 edited: a.ts', ['a.ts']),
      record(4, 'enter', 'now the docs', ['b.ts']),
      record(5, 'watch', 'files changed: 1 added: docs.md', ['docs.md'], { added: 1 }),
    ];
    const steps = sessionSteps(records, quietNow);
    expect(shape(steps)).toEqual([
      [1, 'start', 'session start, then edits outside any step: 2 added: a.ts, b.ts', 2, null, []],
      [2, 'outside', 'edits outside any step: 1 edited: a.ts', 1, null, []],
      [3, 'outside', 'edits outside any step: 1 edited: b.ts', 1, null, []],
      [4, 'turn', 'now the docs', 1, null, [5]],
    ]);
    // A turn with no steps under it is itself the likely undo.
    expect(likelyUndo(steps)?.id).toBe(4);
  });
});

describe('sessions and big changes', () => {
  it("a turn ends where the next session starts, and a change naming only its first paths makes the count a lower bound", () => {
    const many = Array.from({ length: 100 }, (_, i) => `f${i}.txt`);
    const big = { ...record(4, 'watch', 'files changed: 300 deleted', many, { deleted: 300 }), changedSincePrevious: 300 };
    const records = [
      record(1, 'start', 'session start'),
      record(2, 'UserPromptSubmit', 'clean up'),
      record(3, 'PreToolUse:Bash', 'Bash rm -rf old'),
      big,
      { ...record(5, 'start', 'session start'), session: 's2' },
    ];
    const steps = sessionSteps(records, quietNow);
    expect(steps.find((step) => step.id === 3)).toMatchObject({ files: 300, more: true, folded: [4], turn: 2 });
    expect(steps.find((step) => step.id === 2)).toMatchObject({ files: 300, more: true, to: 5 });
    expect(steps.find((step) => step.id === 5)).toMatchObject({ kind: 'start', session: 's2' });
  });

  it('marks (a /checkpoint, a restore) count the step after them; a restore\'s names the step it went back to, as its row reads', () => {
    const records = [record(1, 'start', 'session start'), record(2, 'manual', 'before the refactor'), record(3, 'restore', 'before restoring #1', ['a.txt']), record(4, 'watch', 'files changed', ['a.txt'])];
    expect(shape(sessionSteps(records, quietNow))).toEqual([
      [1, 'start', 'session start', 0, null, []],
      [2, 'mark', 'before the refactor', 1, null, []],
      [3, 'mark', 'rewind to just before session start', 1, null, [4]],
    ]);
  });

  it('the steps a rewind, a revert, an undo and a finished rewind made read as those, never by checkpoint id when the step is listed', () => {
    const records = [
      record(1, 'start', 'session start'),
      record(2, 'UserPromptSubmit', 'fix it'),
      record(3, 'PreToolUse:Edit', 'Edit a.txt', ['a.txt']),
      record(4, 'restore', 'before restoring #2', ['a.txt']),
      record(5, 'redo', 'before redo (back to #4)', ['a.txt']),
      record(6, 'restore', 'before reverting #3', ['a.txt']),
      record(7, 'redo', 'before redo (back to #6)', ['a.txt']),
      record(8, 'restore', 'before finishing the restore of #3', ['a.txt']),
      record(9, 'restore', 'before restoring #99', ['a.txt']),
      record(10, 'redo', 'before redo (back to #3)', ['a.txt']),
      record(11, 'restore', 'before restoring the release', ['a.txt']),
      record(12, 'manual', 'before restoring #2', ['a.txt']),
    ];
    expect(sessionSteps(records, quietNow).map((step) => step.title)).toEqual([
      'session start',
      'fix it',
      'Edit a.txt',
      'rewind to just before prompt "fix it"',
      'undo of the rewind to just before prompt "fix it"',
      'revert of Edit a.txt',
      'undo of the revert of Edit a.txt',
      'finishing the rewind to just before Edit a.txt',
      // Not among the records (another session's, pruned): the id is all there is.
      'rewind to #99',
      'undo of a rewind (back to #3)',
      // Labels of another shape, or of a checkpoint that is no rewind's: as recorded.
      'before restoring the release',
      'before restoring #2',
    ]);
  });

  it('the files as a rewind or a revert left them end its step: your edits after it are a step of their own, never the rewind\'s', () => {
    const base = [record(1, 'UserPromptSubmit', 'fix it'), record(2, 'PreToolUse:Edit', 'Edit a.txt', ['a.txt'])];
    const rewound = [...base, record(3, 'restore', 'before restoring #2', ['a.txt']), record(4, 'rewound', 'after restoring #2: a.txt', ['a.txt'])];
    // Nothing after it: the rewind's row, its count what the rewind changed.
    expect(sessionSteps(rewound, quietNow).map((step) => [step.title, step.files])).toEqual([
      ['fix it', 1],
      ['Edit a.txt', 1],
      ['rewind to just before Edit a.txt', 1],
    ]);
    // An edit of yours after it (b.txt), then the watcher's checkpoint.
    const edited = [...rewound, record(5, 'watch', 'files changed', ['b.txt'])];
    expect(sessionSteps(edited, quietNow).map((step) => [step.title, step.files, step.kind])).toEqual([
      ['fix it', 1, 'turn'],
      ['Edit a.txt', 1, 'tool'],
      ['rewind to just before Edit a.txt', 1, 'mark'],
      ['edits outside any step: 1 edited: b.txt', 1, 'outside'],
    ]);
    // Inside a turn whose end comes later, the writes after it are still not the rewind's.
    const inTurn = [...rewound, record(5, 'watch', 'files changed', ['b.txt']), record(6, 'end', 'turn end')];
    expect(sessionSteps(inTurn, quietNow).find((step) => step.title === 'rewind to just before Edit a.txt')?.paths).toEqual(['a.txt']);
    // The same after a revert (its result is the files as it left them): no row named `after reverting #2`.
    const reverted = [...base, record(3, 'restore', 'before reverting #2', ['a.txt']), record(4, 'revert', 'after reverting #2', ['a.txt']), record(5, 'watch', 'files changed', ['b.txt'])];
    expect(sessionSteps(reverted, quietNow).map((step) => step.title)).toEqual(['fix it', 'Edit a.txt', 'revert of Edit a.txt', 'edits outside any step: 1 edited: b.txt']);
  });

  it('a rewind of chosen files (the picker\'s Tab, --only) says so, and so does its undo', () => {
    const records = [
      record(1, 'UserPromptSubmit', 'fix it'),
      record(2, 'PreToolUse:Edit', 'Edit a.txt', ['a.txt']),
      record(3, 'restore', 'before restoring #2 (chosen files)', ['a.txt']),
      record(4, 'redo', 'before redo (back to #3)', ['a.txt']),
    ];
    expect(sessionSteps(records, quietNow).map((step) => step.title)).toEqual(['fix it', 'Edit a.txt', 'rewind of chosen files to just before Edit a.txt', 'undo of the rewind of chosen files to just before Edit a.txt']);
    expect(isRewindTitle('rewind of chosen files to just before Edit a.txt')).toBe(true);
    // Raced by a write: the redo point moves onto it, and the rewind's row (which starts there) still says so.
    const raced = [...records.slice(0, 3), record(4, 'restore', 'written while restoring #2 (chosen files): b.txt', ['b.txt'])];
    expect(sessionSteps(raced, quietNow).map((step) => step.title).slice(2)).toEqual(['written during the rewind of chosen files to just before Edit a.txt: b.txt', 'rewind of chosen files to just before Edit a.txt']);
  });

  it("writes that raced a rewind or a revert, a finished undo, an imported rewind: each named for what it was", () => {
    const records = [
      record(1, 'UserPromptSubmit', 'fix it'),
      record(2, 'PreToolUse:Edit', 'Edit a.txt', ['a.txt']),
      // A restore of #2 raced by an editor's write: the redo point, then those writes on top of it.
      record(3, 'restore', 'before restoring #2', ['a.txt']),
      record(4, 'restore', 'written while restoring #2: b.txt', ['b.txt']),
      record(5, 'redo', 'before redo (back to #4)', ['a.txt']),
      record(6, 'restore', 'written during the undo (back to #4): c.txt', ['c.txt']),
      // An undo of that rewind cut off, then finished: it restores the redo point (#4, where the raced writes moved it).
      record(7, 'restore', 'before finishing the restore of #4', ['a.txt']),
      { ...record(8, 'restore', 'before restoring #1', ['a.txt']), imported: { from: 'laptop', id: 40, commit: 'c'.repeat(40), at: '2026-12-06T10:00:00.000Z' } },
      // A revert of #2 raced: its redo point, its result (restored), the raced writes (their label names the result).
      record(9, 'restore', 'before reverting #2', ['a.txt']),
      record(10, 'revert', 'after reverting #2', ['a.txt']),
      record(11, 'restore', 'written while restoring #10: d.txt', ['d.txt']),
    ];
    expect(sessionSteps(records, quietNow).map((step) => step.title)).toEqual([
      'fix it',
      'Edit a.txt',
      'written during the rewind to just before Edit a.txt: b.txt',
      'rewind to just before Edit a.txt',
      'written during the undo of the rewind to just before Edit a.txt: c.txt',
      'undo of the rewind to just before Edit a.txt',
      'finishing the undo of the rewind to just before Edit a.txt',
      // Its ids are the other project's.
      'before restoring #1',
      'written during the revert of Edit a.txt: d.txt',
      'revert of Edit a.txt',
    ]);
  });
});

describe('a turn whose own part changed files and whose steps changed none', () => {
  it('is itself the likely undo, not a step before it', () => {
    // The agent wrote a.txt before its first hooked step (3), which then changed nothing.
    const records = [
      record(1, 'start', 'session start'),
      record(2, 'UserPromptSubmit', 'earlier'),
      record(3, 'PreToolUse:Edit', 'Edit old.txt'),
      record(4, 'end', 'end of turn', ['old.txt']),
      record(5, 'UserPromptSubmit', 'fix it'),
      record(6, 'PreToolUse:Bash', 'Bash ls', ['a.txt']),
      record(7, 'end', 'end of turn'),
    ];
    const steps = sessionSteps(records, quietNow);
    expect(steps.find((step) => step.id === 5)).toMatchObject({ kind: 'turn', steps: [6], files: 1 });
    expect(steps.find((step) => step.id === 6)).toMatchObject({ files: 0 });
    expect(likelyUndo(steps)?.id).toBe(5);
  });
});

describe("a turn whose end the agent's hook marked (its Stop: an `end` checkpoint)", () => {
  it("the user's edit right after the turn, before the watcher saw the agent's last writes, is not the turn's: the end checkpoint holds those writes", () => {
    // Without the end mark the watcher's checkpoint (7) would hold the agent's write and the user's edit together.
    const records = [
      record(1, 'start', 'session start'),
      record(2, 'UserPromptSubmit', 'fix it'),
      record(3, 'PreToolUse:Edit', 'Edit a.txt'),
      record(4, 'end', 'end of turn', ['a.txt']),
      record(5, 'watch', 'files changed', ['README.md']),
      record(6, 'UserPromptSubmit', 'again', []),
    ];
    const steps = sessionSteps(records, quietNow);
    expect(shape(steps)).toEqual([
      [1, 'start', 'session start', 0, null, []],
      [2, 'turn', 'fix it', 1, null, []],
      [3, 'tool', 'Edit a.txt', 1, 2, []],
      [4, 'outside', 'edits outside any step: 1 edited: README.md', 1, null, [5]],
      [6, 'turn', 'again', 0, null, []],
    ]);
    expect(steps.find((step) => step.id === 2)).toMatchObject({ steps: [3], to: 4 });
    expect(likelyUndo(steps)?.id).toBe(4);
  });

  it("the agent's writes that settled in two bursts are one step (no row of edits outside any step inside the turn), its count a union to be diffed", () => {
    const records = [
      record(1, 'start', 'session start'),
      record(2, 'UserPromptSubmit', 'build'),
      record(3, 'PreToolUse:Bash', 'Bash make'),
      record(4, 'watch', 'files changed', ['out/a.o']),
      record(5, 'watch', 'files changed', ['out/b.o', 'out/a.o']),
      record(6, 'end', 'end of turn', ['out/app']),
    ];
    const steps = sessionSteps(records, quietNow);
    expect(shape(steps)).toEqual([
      [1, 'start', 'session start', 0, null, []],
      [2, 'turn', 'build', 3, null, []],
      [3, 'tool', 'Bash make', 3, 2, [4, 5, 6]],
    ]);
    expect(steps.find((step) => step.id === 3)).toMatchObject({ spans: true, to: null, paths: ['out/a.o', 'out/b.o', 'out/app'] });
    expect(steps.find((step) => step.id === 2)).toMatchObject({ spans: true, steps: [3] });
    expect(partsOf(steps, 2)).toEqual([
      { id: 2, through: 2 },
      { id: 3, through: 6 },
    ]);
  });

  it('without an end mark (an interrupt, older records) a burst after the last tool step is still edits outside any step', () => {
    const records = [record(1, 'UserPromptSubmit', 'build'), record(2, 'PreToolUse:Bash', 'Bash make'), record(3, 'watch', 'files changed', ['out/a.o']), record(4, 'watch', 'files changed', ['README.md'])];
    expect(shape(sessionSteps(records, quietNow))).toEqual([
      [1, 'turn', 'build', 1, null, []],
      [2, 'tool', 'Bash make', 1, 1, []],
      [3, 'outside', 'edits outside any step: 1 edited: README.md', 1, null, [4]],
    ]);
  });

  it("a turn's end in another session's records does not take in this session's edits", () => {
    const records = [
      record(1, 'UserPromptSubmit', 'one'),
      record(2, 'PreToolUse:Edit', 'Edit a.txt'),
      record(3, 'watch', 'files changed', ['a.txt']),
      record(4, 'end', 'end of turn', ['b.txt'], { modified: 1 }, 's2'),
    ];
    const steps = sessionSteps(records, quietNow);
    expect(steps.map((step) => [step.id, step.kind, step.folded])).toEqual([
      [1, 'turn', []],
      [2, 'tool', []],
      [3, 'outside', []],
      [4, 'outside', []],
    ]);
  });
});
