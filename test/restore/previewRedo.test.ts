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

describe('previewing an undo', () => {
  it('plans from the work tree it is given, not a new read; without one, from the files now', async () => {
    const root = sb.repo('given-tree');
    const engine = sb.open(root);
    write(root, 'a.txt', 'one\n');
    const { record: first } = await engine.snapshot({ label: 'a is one' });
    write(root, 'a.txt', 'two\n');
    await restoreCheckpoint(engine, first.id);
    const read = await engine.currentTree();
    // Written after that read: the plan from it does not know b.txt; the plan from now deletes it.
    write(root, 'b.txt', 'made after the read\n');
    expect(planned((await previewRedo(engine, read)).preview)).toEqual({ writes: ['a.txt'], deletes: [] });
    expect(planned((await previewRedo(engine)).preview)).toEqual({ writes: ['a.txt'], deletes: ['b.txt'] });
  });
});
