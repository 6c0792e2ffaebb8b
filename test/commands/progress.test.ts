// Progress of a long snapshot or restore: the engine reports counts through its onProgress
// callback; the command line draws them as one updating stderr line only when stderr is a
// terminal (REWIND_TEST_PROGRESS_AFTER_MS=0 shows it at once instead of after a second).
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CheckpointEngine } from '../../src/checkpoints/checkpointEngine.js';
import type { Progress } from '../../src/checkpoints/index.js';
import { rewind } from '../helpers/io.js';
import { seamsEnv } from '../helpers/restoreKit.js';
import { cliPath, requireBuiltCli, startInPty } from '../helpers/term.js';
import { createSandbox, defaultSettings, type Sandbox } from '../helpers/tempRepo.js';
import { waitFor } from '../helpers/waitFor.js';

const files = 1500;
/** What the progress line starts each drawing with: back to the line's start, erase it. */
const erase = '\r\x1b[K';
let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-progress-');
});
afterEach(() => sb.cleanup());

/** A plain folder (no git: its first snapshot stages every file) of `files` small files. */
function bigFolder(name: string): string {
  const dir = sb.folder(name);
  for (let i = 0; i < files; i++) {
    const sub = path.join(dir, `d${i % 30}`);
    fs.mkdirSync(sub, { recursive: true });
    fs.writeFileSync(path.join(sub, `f${i}.txt`), `file ${i}\n`);
  }
  return dir;
}

function removeAll(dir: string): void {
  for (const entry of fs.readdirSync(dir)) fs.rmSync(path.join(dir, entry), { recursive: true });
}

/** `rewind ...args` in a pty; resolves with everything it wrote and its last screen, once that shows `last` (the exit can come before the last output is read). */
async function inPty(args: string[], cwd: string, last: RegExp): Promise<{ exitCode: number; output: string; screen: string }> {
  requireBuiltCli();
  const term = startInPty(process.execPath, [cliPath, ...args], { cwd, env: { ...sb.env, ...seamsEnv({ REWIND_TEST_PROGRESS_AFTER_MS: '0' }) }, cols: 100, rows: 20 });
  try {
    const { exitCode } = await term.exited;
    await waitFor(() => last.test(term.text()), 5_000, `the screen to show ${String(last)}`);
    return { exitCode, output: term.output(), screen: term.text() };
  } finally {
    term.close();
  }
}

describe('progress', () => {
  it('the engine reports files staged by a first snapshot, and files done of all by a restore, each ending with finished', async () => {
    const dir = bigFolder('engine');
    const reports: Progress[] = [];
    const engine = CheckpointEngine.open({ cwd: dir, settings: defaultSettings, home: sb.store, env: sb.env, onProgress: (report) => reports.push({ ...report }) });
    await engine.snapshot();
    const staged = reports.filter((report) => report.task === 'snapshot' && !report.finished);
    expect(staged.length).toBeGreaterThan(0);
    expect(staged.at(-1)?.done).toBe(files);
    expect(staged.map((report) => report.done)).toEqual([...staged.map((report) => report.done)].sort((a, b) => a - b));
    expect(reports.at(-1)).toEqual({ task: 'snapshot', done: 0, finished: true });

    removeAll(dir);
    reports.length = 0;
    const { restoreCheckpoint } = await import('../../src/checkpoints/restore/restore.js');
    await restoreCheckpoint(engine, 1);
    const restoring = reports.filter((report) => report.task === 'restore' && !report.finished);
    expect(restoring.at(-1)).toEqual({ task: 'restore', done: files, total: files });
    expect(reports.at(-1)).toEqual({ task: 'restore', done: 0, finished: true });
    expect(fs.readFileSync(path.join(dir, 'd0', 'f0.txt'), 'utf8')).toBe('file 0\n');
  });

  it('the command line: one updating stderr line in a terminal, cleared at the end; nothing when stderr is not a terminal', async () => {
    const dir = bigFolder('cli');
    const snap = await inPty(['snapshot'], dir, /checkpoint #1 \(/);
    expect(snap.exitCode).toBe(0);
    const drawn = snap.output.split(erase);
    expect(drawn.slice(1, -1).length).toBeGreaterThan(0);
    for (const line of drawn.slice(1, -1)) expect(line).toMatch(/^rewind: checkpointing… [\d,]+ files staged$/);
    // Cleared before the result is printed.
    expect(drawn.at(-1)).toMatch(/^checkpoint #1 \(/);
    expect(snap.screen).not.toMatch(/checkpointing/);
    expect(snap.screen).toMatch(/checkpoint #1 \(/);

    removeAll(dir);
    const restore = await inPty(['restore', '1', '--yes'], dir, /^restored/m);
    expect(restore.exitCode).toBe(0);
    expect(restore.output.split(erase).some((line) => /^rewind: restoring… [\d,]+ of 1,500 files$/.test(line))).toBe(true);
    expect(restore.screen).not.toMatch(/restoring…/);
    expect(fs.readFileSync(path.join(dir, 'd29', `f${files - 1}.txt`), 'utf8')).toBe(`file ${files - 1}\n`);

    // Not a terminal (a script, a log): the same commands write no progress at all.
    const quiet = bigFolder('quiet');
    const env = { ...sb.env, ...seamsEnv({ REWIND_TEST_PROGRESS_AFTER_MS: '0' }) };
    expect(await rewind(['snapshot'], env, quiet)).toMatchObject({ code: 0, stderr: '' });
    removeAll(quiet);
    expect(await rewind(['restore', '1', '--yes'], env, quiet)).toMatchObject({ code: 0, stderr: '' });
  });
});
