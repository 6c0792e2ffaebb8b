// A restore of every file of a project while another process writes some of those same
// files, each once, with a unique token, at moments spread over the restore (in place, by
// rename as editors save, or appended). Every token must be somewhere afterwards: in the
// file as written, or in the redo point or a checkpoint after it. None may be lost.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rewind } from '../helpers/io.js';
import { requireBuiltCli, runBuiltCli, snapshotId, type RestoreJson } from '../helpers/restoreKit.js';
import { shadowGit, shadowGitBytes } from '../helpers/shadow.js';
import { Children } from '../helpers/children.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
const children = new Children();
beforeAll(() => {
  requireBuiltCli();
});
beforeEach(() => {
  sb = createSandbox('rewind-concurrent-writer-');
});
afterEach(async () => {
  await children.killAll();
  await sb.cleanup();
});

const files = 600;
const written = 150;
const filler = 'x'.repeat(8 * 1024 - 40);

/**
 * The other writer: writes each of the paths on stdin's list once, `gapMs` apart on
 * average, in turn in place, by rename and appended; prints `path\ttoken` once each write
 * is done. Stops at the end of the list or when `stop` exists.
 */
const writerScript = `
const fs = require('node:fs'), path = require('node:path');
const [root, list, stop, run, gap] = process.argv.slice(1);
const paths = fs.readFileSync(list, 'utf8').split('\\n').filter(Boolean);
const pause = new Int32Array(new SharedArrayBuffer(4));
process.stdout.write('started\\n');
paths.forEach((file, n) => {
  if (fs.existsSync(stop)) return;
  Atomics.wait(pause, 0, 0, Math.random() * 2 * Number(gap));
  const token = 'TOKEN-' + run + '-' + n;
  const full = path.join(root, file);
  const line = token + '\\n';
  if (n % 3 === 0) fs.writeFileSync(full, ${JSON.stringify(filler)} + line);
  else if (n % 3 === 1) { const temp = full + '.tmp~'; fs.writeFileSync(temp, ${JSON.stringify(filler)} + line); fs.renameSync(temp, full); }
  else fs.appendFileSync(full, line);
  process.stdout.write(file + '\\t' + token + '\\n');
});
`;

function startWriter(root: string, paths: readonly string[], stop: string, run: number, gapMs: number) {
  const list = path.join(sb.base, `list-${run}`);
  fs.writeFileSync(list, `${paths.join('\n')}\n`);
  const child = spawn(process.execPath, ['-e', writerScript, root, list, stop, String(run), String(gapMs)], { cwd: sb.base, env: sb.env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  const writes = () => stdout.split('\n').filter((line) => line.includes('\t')).map((line) => line.split('\t') as [string, string]);
  const started = new Promise<void>((resolve) => child.stdout.on('data', () => stdout.startsWith('started') && resolve()));
  return { writes, exited, started, stderr: () => stderr };
}

/** Every token in any file of these checkpoints (their commits' trees). */
function tokensInCheckpoints(gitDir: string, commits: readonly string[]): Set<string> {
  const tokens = new Set<string>();
  for (const commit of commits) {
    const blobs = shadowGit(gitDir, 'ls-tree', '-r', '--format=%(objectname)', commit).split('\n').filter(Boolean);
    const contents = shadowGitBytes(gitDir, ['cat-file', '--batch'], `${blobs.join('\n')}\n`).toString('utf8');
    for (const match of contents.matchAll(/TOKEN-\d+-\d+/g)) tokens.add(match[0]);
  }
  return tokens;
}

describe('a restore while another process writes the same files', () => {
  it('loses no write: each is in its file or in the redo point (or a checkpoint after it)', { timeout: 240_000 }, async () => {
    const runs = 3;
    let lostInAll = 0;
    let overwrittenInAll = 0;
    for (let run = 1; run <= runs; run++) {
      const root = sb.repo(`project-${run}`);
      const names = Array.from({ length: files }, (_, i) => `d${i % 20}/file-${i}.txt`);
      for (const name of names) write(root, name, `${filler} A ${name}\n`);
      const a = await snapshotId(rewind, sb.env, root, 'A');
      for (const name of names) write(root, name, `${filler} B ${name}\n`);
      await snapshotId(rewind, sb.env, root, 'B');
      // How long a restore of them takes here, so the writes spread over the next one.
      const startedAt = Date.now();
      const warm = await runBuiltCli(['restore', String(a), '--yes', '--json', '-C', root], sb.env, sb.base);
      expect(warm.code, warm.stderr).toBe(0);
      const took = Date.now() - startedAt;
      const back = await runBuiltCli(['redo', '--yes', '-C', root], sb.env, sb.base);
      expect(back.code, back.stderr).toBe(0);

      const chosen = names.filter((_, i) => i % Math.floor(files / written) === run % 4).slice(0, written);
      const stop = path.join(sb.base, `stop-${run}`);
      const writer = startWriter(root, chosen, stop, run, took / written);
      await writer.started;
      const restore = await runBuiltCli(['restore', String(a), '--yes', '--json', '-C', root], sb.env, sb.base);
      fs.writeFileSync(stop, '');
      expect(await writer.exited).toBe(0);
      expect(writer.stderr()).toBe('');
      expect(restore.code, restore.stderr).toBe(0);
      const result = JSON.parse(restore.stdout) as RestoreJson & { writtenMeanwhile?: { checkpoint: number; paths: string[] } };

      const gitDir = sb.open(root).repo.gitDir;
      const list = sb.open(root).list();
      // This restore's redo point: the last "before restoring" checkpoint.
      const redo = list.findLast((record) => record.label === `before restoring #${a}`);
      expect(redo, 'the redo point').toBeDefined();
      const later = list.filter((record) => record.id >= (redo?.id ?? 0)).map((record) => record.commit);
      const inCheckpoints = tokensInCheckpoints(gitDir, later);
      const lost: string[] = [];
      for (const [file, token] of writer.writes()) {
        const now = fs.existsSync(path.join(root, file)) ? fs.readFileSync(path.join(root, file), 'utf8') : '';
        if (now.includes(token)) continue;
        overwrittenInAll++;
        if (!inCheckpoints.has(token)) lost.push(`${file} ${token}`);
      }
      lostInAll += lost.length;
      expect(lost, `run ${run}: writes in no file and no checkpoint`).toEqual([]);
      if (result.writtenMeanwhile) expect(result.redo).toBe(result.writtenMeanwhile.checkpoint);
    }
    expect(lostInAll).toBe(0);
    // The writes did race the restore: some were overwritten by it (and so are in a checkpoint).
    expect(overwrittenInAll).toBeGreaterThan(0);
  });
});
