// A redo gives the tree back exactly, also for what the restore it undoes created where the
// older checkpoint's rules ignore it (found by the ignore-rules property test): those files
// the restore itself put there, so undoing it takes them away, unless they were edited since.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { redoLast } from '../../src/checkpoints/restore/redo.js';
import { restoreCheckpoint } from '../../src/checkpoints/restore/restore.js';
import { projectState } from '../helpers/restoreKit.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-redo-created-');
});
afterEach(() => sb.cleanup());

async function restoredOverIgnoringRules(name: string) {
  const root = sb.repo(name);
  const engine = sb.open(root);
  write(root, 'gen/.gitignore', '*.log\n');
  write(root, 'gen/keep.txt', 'kept\n');
  const { record: old } = await engine.snapshot({ label: 'gen/ tracked' });
  fs.rmSync(path.join(root, 'gen'), { recursive: true });
  write(root, '.gitignore', 'gen/\n');
  await engine.snapshot({ label: 'gen/ ignored' });
  const before = projectState(root);
  await restoreCheckpoint(engine, old.id);
  expect(fs.readFileSync(path.join(root, 'gen/keep.txt'), 'utf8')).toBe('kept\n');
  return { root, engine, before };
}

describe('undoing a restore', () => {
  it('removes what the restore created, though the rules it goes back to ignore it', async () => {
    const { root, engine, before } = await restoredOverIgnoringRules('created');
    await redoLast(engine);
    expect(projectState(root)).toEqual(before);
  });

  it('keeps what the restore created and was edited since (it is the user’s now)', async () => {
    const { root, engine } = await restoredOverIgnoringRules('edited');
    write(root, 'gen/keep.txt', 'edited after the restore\n');
    const result = await redoLast(engine);
    expect(fs.readFileSync(path.join(root, 'gen/keep.txt'), 'utf8')).toBe('edited after the restore\n');
    expect(result.leftAlone.map((item) => item.path)).toContain('gen/keep.txt');
    expect(fs.existsSync(path.join(root, 'gen/.gitignore'))).toBe(false);
  });
});
