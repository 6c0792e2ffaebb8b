// The plan of an undo (`rewind redo --dry-run`, the picker's undo row): from the files as they
// are now, or from a read of them the caller made before (the picker reads the work tree once
// for all its previews), checked as a restore is.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { previewRedo } from '../../src/checkpoints/restore/redo.js';
import { restoreCheckpoint } from '../../src/checkpoints/restore/restore.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-preview-redo-');
});
afterEach(() => sb.cleanup());

const planned = (preview: Awaited<ReturnType<typeof previewRedo>>['preview']) => ({ writes: preview.writes.map((write) => write.path).sort(), deletes: [...preview.deletes].sort() });

/** A project whose a.txt was `one` at its first checkpoint, then `two`, then rewound to `one`. */
async function rewound(name: string) {
  const root = sb.repo(name);
  const engine = sb.open(root);
  write(root, 'a.txt', 'one\n');
  const { record: first } = await engine.snapshot({ label: 'a is one' });
  write(root, 'a.txt', 'two\n');
  await restoreCheckpoint(engine, first.id);
  return { root, engine };
}

describe('previewing an undo', () => {
  it('plans from the work tree it is given, not a new read; without one, from the files now', async () => {
    const { root, engine } = await rewound('given-tree');
    const read = await engine.currentTree();
    // Written after that read: the plan from it does not know b.txt; the plan from now deletes it.
    write(root, 'b.txt', 'made after the read\n');
    expect(planned((await previewRedo(engine, read)).preview)).toEqual({ writes: ['a.txt'], deletes: [] });
    expect(planned((await previewRedo(engine)).preview)).toEqual({ writes: ['a.txt'], deletes: ['b.txt'] });
  });

  it('names the files changed since the rewind it undoes (the undo takes those back too), in the plan and in what it did', async () => {
    const root = sb.repo('changed-since');
    const engine = sb.open(root);
    write(root, 'a.txt', 'one\n');
    write(root, 'b.txt', 'one\n');
    const { record: first } = await engine.snapshot({ label: 'both one' });
    write(root, 'a.txt', 'two\n');
    write(root, 'b.txt', 'two\n');
    await engine.snapshot({ label: 'both two' });
    // The rewind puts both back to one; then a.txt is edited again and c.txt made, b.txt left as the rewind put it.
    await restoreCheckpoint(engine, first.id);
    write(root, 'a.txt', 'three\n');
    write(root, 'c.txt', 'new\n');
    const preview = await previewRedo(engine);
    expect(planned(preview.preview)).toEqual({ writes: ['a.txt', 'b.txt'], deletes: ['c.txt'] });
    expect([...preview.changedSince].sort()).toEqual(['a.txt', 'c.txt']);
    const done = await engine.redo();
    expect([...done.changedSince].sort()).toEqual(['a.txt', 'c.txt']);
    // Kept in the checkpoint the undo took first.
    expect(engine.get(done.before ?? Number.NaN).label).toMatch(/^before redo/);
  });

  it('names none when nothing changed since the rewind', async () => {
    const { engine } = await rewound('nothing-since');
    expect((await previewRedo(engine)).changedSince).toEqual([]);
    const done = await engine.redo();
    expect(done.changed).toEqual(['a.txt']);
    expect(done.changedSince).toEqual([]);
  });
});
