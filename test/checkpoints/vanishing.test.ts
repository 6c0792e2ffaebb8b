// Issue 11 item 3: files that appear and vanish while a snapshot walks the tree (an
// editor's swap files, a build's temp files) never cost a checkpoint: a vanished path is
// simply absent. A restore's own safety snapshot is no exception.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { restoreCheckpoint } from '../../src/checkpoints/restore/restore.js';
import { treePaths } from '../helpers/shadow.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';
import { waitFor } from '../helpers/waitFor.js';

let sb: Sandbox;
let writer: ChildProcess | undefined;
beforeEach(() => {
  sb = createSandbox('rewind-vanishing-');
});
afterEach(async () => {
  if (writer && writer.exitCode === null) {
    const gone = new Promise((resolve) => writer?.once('exit', resolve));
    writer.kill('SIGKILL');
    await gone;
  }
  await sb.cleanup();
});

/** A busy writer: creates and deletes short-lived files in `dir` as fast as it can, until killed. */
function startChurn(dir: string): ChildProcess {
  const script = `
    const fs = require('node:fs');
    const path = require('node:path');
    const dir = process.argv[1];
    fs.writeFileSync(path.join(dir, '.churn-started'), '');
    for (let n = 0; ; n++) {
      const file = path.join(dir, '.swp-' + (n % 50));
      try { fs.writeFileSync(file, 'x'); fs.unlinkSync(file); } catch {}
    }`;
  return spawn(process.execPath, ['-e', script, dir], { stdio: 'ignore' });
}

describe('files that come and go during a snapshot', () => {
  it('never fail a snapshot or a restore, and are simply absent from the checkpoint', async () => {
    const root = sb.repo('churn');
    for (let i = 0; i < 300; i++) write(root, `src/m${i % 10}/f${i}.txt`, `file ${i}\n`);
    const tmp = path.join(root, 'build-tmp');
    fs.mkdirSync(tmp);
    const engine = sb.open(root);
    const { record: first } = await engine.snapshot({ label: 'before' });
    writer = startChurn(tmp);
    await waitFor(() => fs.existsSync(path.join(tmp, '.churn-started')), 10_000, 'the writer to start');
    const ids: number[] = [];
    for (let i = 0; i < 25; i++) {
      write(root, 'src/m0/f0.txt', `edit ${i}\n`);
      const { record } = await engine.snapshot({ label: `edit ${i}` });
      ids.push(record.id);
      const paths = treePaths(engine.repo.gitDir, record.tree);
      expect(paths).toContain('src/m0/f0.txt');
      expect(paths.filter((file) => file.startsWith('build-tmp/.swp-')).length).toBeLessThanOrEqual(50);
    }
    expect(ids).toEqual(Array.from({ length: 25 }, (_, i) => first.id + 1 + i));
    // The restore's safety snapshot walks the churning tree too.
    for (let i = 0; i < 5; i++) {
      const result = await restoreCheckpoint(engine, first.id);
      expect(result.redo).not.toBeNull();
      expect(fs.readFileSync(path.join(root, 'src/m0/f0.txt'), 'utf8')).toBe('file 0\n');
      write(root, 'src/m0/f0.txt', `again ${i}\n`);
    }
  });
});
