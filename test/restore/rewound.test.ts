// The files as a rewind left them, recorded on top of its redo point (restore/rewound.ts): only
// when they are exactly its target's tree and nothing was checkpointed since.
import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { restoreCheckpoint } from '../../src/checkpoints/restore/restore.js';
import { recordRewound } from '../../src/checkpoints/restore/rewound.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-rewound-');
});
afterEach(() => sb.cleanup());

async function twoStates(name: string) {
  const root = sb.repo(name);
  const engine = sb.open(root);
  write(root, 'a.txt', 'one\n');
  write(root, 'b.txt', 'one\n');
  const { record: first } = await engine.snapshot({ label: 'one' });
  write(root, 'a.txt', 'two\n');
  write(root, 'b.txt', 'two\n');
  return { root, engine, first };
}

describe('the files as a rewind left them', () => {
  it("end the rewind's step for a revert of it: an edit made after it, not yet checkpointed, is not taken back", async () => {
    const { root, engine, first } = await twoStates('revert');
    const done = await restoreCheckpoint(engine, first.id);
    const rewound = await recordRewound(engine);
    write(root, 'c.txt', 'mine\n');
    // The rewind's row: its redo point, the rewound checkpoint folded in (as the picker's u gives it).
    const plan = await engine.previewRevert(done.redo ?? 0, { through: rewound?.id ?? 0 });
    expect(plan.changes.map((change) => change.path).sort()).toEqual(['a.txt', 'b.txt']);
  });

  it("are recorded once, on top of its redo point, with its target's tree and what it changed", async () => {
    const { engine, first } = await twoStates('whole');
    const done = await restoreCheckpoint(engine, first.id);
    const record = await recordRewound(engine);
    expect(record).toMatchObject({ trigger: 'rewound', label: `after restoring #${first.id}: a.txt, b.txt`, tree: first.tree, changedSincePrevious: 2 });
    expect(engine.list().at(-2)?.id).toBe(done.redo);
    expect(await recordRewound(engine)).toBeUndefined();
    // The files match it: a checkpoint only if changed takes none.
    expect((await engine.snapshot({ onlyIfChanged: true })).record.id).toBe(record?.id);
    // The undo still undoes the rewind, and is recorded the same way.
    const undone = await engine.redo();
    expect(await recordRewound(engine)).toMatchObject({ label: `after the undo (back to #${undone.undid}): a.txt, b.txt`, tree: engine.get(undone.undid).tree });
  });

  it('are not recorded after a restore of chosen files, one that left a file alone or changed a .gitignore, nor once something was checkpointed after it', async () => {
    const chosen = await twoStates('chosen');
    await restoreCheckpoint(chosen.engine, chosen.first.id, { only: ['a.txt'] });
    expect(await recordRewound(chosen.engine)).toBeUndefined();

    // A file left alone (its name is not UTF-8): it stays as it is, not as the target has it.
    const alone = await twoStates('alone');
    const latin1 = Buffer.concat([Buffer.from(`${alone.root}/caf`), Buffer.from([0xe9]), Buffer.from('.txt')]);
    fs.writeFileSync(latin1, 'made after\n');
    await alone.engine.snapshot({ label: 'latin1' });
    const leftAlone = await restoreCheckpoint(alone.engine, alone.first.id);
    expect(leftAlone.leftAlone).toHaveLength(1);
    expect(await recordRewound(alone.engine)).toBeUndefined();

    // A .gitignore that changed: a file it ignored before and not now is on disk, in neither tree.
    // (x.log: ignored when the rewind ran, so it stays on disk; the target ignores nothing.)
    const rules = await twoStates('rules');
    write(rules.root, '.gitignore', 'x.log\n');
    write(rules.root, 'x.log', 'built\n');
    await rules.engine.snapshot({ label: 'x.log ignored' });
    await restoreCheckpoint(rules.engine, rules.first.id);
    expect(await recordRewound(rules.engine)).toBeUndefined();

    const later = await twoStates('later');
    await restoreCheckpoint(later.engine, later.first.id);
    write(later.root, 'c.txt', 'mine\n');
    await later.engine.snapshot({ label: 'mine' });
    expect(await recordRewound(later.engine)).toBeUndefined();
  });
});
