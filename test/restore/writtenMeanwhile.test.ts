// A restore races whatever else writes the files (an editor's autosave, a dev server, an
// agent without hooks): no write it did not plan is lost. A write that lands after the redo
// point read the file and before the restore replaced or deleted it is in the inode the
// restore displaced; it is saved on top of the redo point, which moves there, and said.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CheckpointEngine } from '../../src/checkpoints/checkpointEngine.js';
import type { ProjectCheckpoints } from '../../src/checkpoints/projectCheckpoints.js';
import { redoRefs } from '../helpers/restoreKit.js';
import { fileInTree } from '../helpers/shadow.js';
import { createSandbox, defaultSettings, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-written-meanwhile-');
});
afterEach(async () => {
  await sb.cleanup();
});

/** The engine on `root`, calling `afterRedoPoint` once, right after the next restore took its redo point. */
function engineWithHook(root: string): { checkpoints: ProjectCheckpoints; arm: (afterRedoPoint: () => void) => void } {
  let armed: (() => void) | undefined;
  const engine = CheckpointEngine.open({
    cwd: root,
    settings: defaultSettings,
    home: sb.store,
    env: sb.env,
    onProgress: (progress) => {
      if (progress.task !== 'snapshot' || !progress.finished || !armed) return;
      const hook = armed;
      armed = undefined;
      hook();
    },
  });
  return { checkpoints: engine, arm: (hook) => (armed = hook) };
}

function saveByRename(root: string, file: string, data: string): void {
  const temp = path.join(root, `.${path.basename(file)}.swp`);
  fs.writeFileSync(temp, data);
  fs.renameSync(temp, path.join(root, file));
}

describe('a restore racing another writer', () => {
  it('a write between the redo point and the restore (in place, or by rename, to a file it replaces or deletes) is saved, told, and `redo` brings it back', async () => {
    const root = sb.repo('between');
    for (const name of ['in-place', 'by-rename', 'untouched']) write(root, `${name}.txt`, `${name} at the checkpoint\n`);
    const { checkpoints, arm } = engineWithHook(root);
    const target = await checkpoints.snapshot({ label: 'A' });
    write(root, 'in-place.txt', 'in-place, edited after\n');
    write(root, 'by-rename.txt', 'by-rename, edited after\n');
    write(root, 'deleted.txt', 'new after the checkpoint: the restore deletes it\n');
    await checkpoints.snapshot({ label: 'B' });

    arm(() => {
      // The redo point has read the files; the plan is not made yet.
      fs.writeFileSync(path.join(root, 'in-place.txt'), 'in-place, autosaved during the restore\n');
      saveByRename(root, 'by-rename.txt', 'by-rename, autosaved during the restore\n');
      fs.appendFileSync(path.join(root, 'deleted.txt'), 'appended during the restore\n');
    });
    const result = await checkpoints.restore(target.record.id);
    for (const name of ['in-place', 'by-rename']) expect(fs.readFileSync(path.join(root, `${name}.txt`), 'utf8')).toBe(`${name} at the checkpoint\n`);
    expect(fs.existsSync(path.join(root, 'deleted.txt'))).toBe(false);

    expect(result.writtenMeanwhile?.paths.sort()).toEqual(['by-rename.txt', 'deleted.txt', 'in-place.txt']);
    const saved = checkpoints.get(result.writtenMeanwhile?.checkpoint ?? 0);
    expect(saved.label).toMatch(new RegExp(`^written while restoring #${target.record.id}: `));
    expect(result.redo).toBe(saved.id);
    const gitDir = sb.open(root).repo.gitDir;
    expect(fileInTree(gitDir, saved.tree, 'in-place.txt')?.bytes.toString()).toBe('in-place, autosaved during the restore\n');
    expect(fileInTree(gitDir, saved.tree, 'by-rename.txt')?.bytes.toString()).toBe('by-rename, autosaved during the restore\n');
    expect(fileInTree(gitDir, saved.tree, 'deleted.txt')?.bytes.toString()).toBe('new after the checkpoint: the restore deletes it\nappended during the restore\n');
    expect(fileInTree(gitDir, saved.tree, 'untouched.txt')?.bytes.toString()).toBe('untouched at the checkpoint\n');
    // One redo point, and it is the saved one.
    expect(redoRefs(gitDir)).toEqual([expect.stringMatching(new RegExp(`^refs/rewind/redo/\\d+-${saved.id}-${target.record.id}$`))]);

    await checkpoints.redo();
    expect(fs.readFileSync(path.join(root, 'in-place.txt'), 'utf8')).toBe('in-place, autosaved during the restore\n');
    expect(fs.readFileSync(path.join(root, 'by-rename.txt'), 'utf8')).toBe('by-rename, autosaved during the restore\n');
    expect(fs.readFileSync(path.join(root, 'deleted.txt'), 'utf8')).toBe('new after the checkpoint: the restore deletes it\nappended during the restore\n');
  });

  it('nothing written meanwhile: nothing saved, CRLF files under a text attribute included (the store keeps bytes as they are)', async () => {
    const root = sb.repo('attributes');
    write(root, '.gitattributes', '*.txt text eol=crlf\n');
    write(root, 'crlf.txt', 'line one\r\nline two\r\n');
    write(root, 'plain.bin', 'bytes\n');
    const { checkpoints } = engineWithHook(root);
    const target = await checkpoints.snapshot({ label: 'A' });
    write(root, 'crlf.txt', 'line one\r\nline two, edited\r\n');
    write(root, 'plain.bin', 'bytes, edited\n');
    await checkpoints.snapshot({ label: 'B' });
    const result = await checkpoints.restore(target.record.id);
    expect(result.changed.sort()).toEqual(['crlf.txt', 'plain.bin']);
    expect(result.writtenMeanwhile).toBeUndefined();
    expect(checkpoints.list().at(-1)?.label).toBe(`before restoring #${target.record.id}`);
  });

  it('a redo raced the same way saves the write too, and says where', async () => {
    const root = sb.repo('redo');
    write(root, 'f.txt', 'at the checkpoint\n');
    const { checkpoints, arm } = engineWithHook(root);
    const target = await checkpoints.snapshot({ label: 'A' });
    write(root, 'f.txt', 'edited after\n');
    await checkpoints.snapshot({ label: 'B' });
    await checkpoints.restore(target.record.id);
    arm(() => fs.writeFileSync(path.join(root, 'f.txt'), 'autosaved during the redo\n'));
    const result = await checkpoints.redo();
    expect(fs.readFileSync(path.join(root, 'f.txt'), 'utf8')).toBe('edited after\n');
    const saved = checkpoints.get(result.writtenMeanwhile?.checkpoint ?? 0);
    expect(fileInTree(sb.open(root).repo.gitDir, saved.tree, 'f.txt')?.bytes.toString()).toBe('autosaved during the redo\n');
  });
});

describe('a restore racing a chmod', () => {
  it('an executable bit set on a file it replaces, after the redo point read it, is kept too', async () => {
    const root = sb.repo('chmod');
    write(root, 'tool.sh', 'echo A\n');
    const { checkpoints, arm } = engineWithHook(root);
    const target = await checkpoints.snapshot({ label: 'A' });
    write(root, 'tool.sh', 'echo B\n');
    await checkpoints.snapshot({ label: 'B' });
    arm(() => fs.chmodSync(path.join(root, 'tool.sh'), 0o755));
    const result = await checkpoints.restore(target.record.id);
    const saved = checkpoints.get(result.writtenMeanwhile?.checkpoint ?? 0);
    expect(fileInTree(sb.open(root).repo.gitDir, saved.tree, 'tool.sh')).toMatchObject({ mode: '100755' });
  });
});
