// A step's checkpoint in the app on a big tree: what it costs once the watcher names the
// changed paths, against the full-scan floor of the same run (git's own add -A, write-tree,
// commit-tree, update-ref of the same tree). In this process, as the app takes it: the
// session's checkpoint triggers (src/runtime/checkpointing/checkpointTriggers.ts) with
// their watcher, the agent's step announced as its hook announces it. Also: a restore of 12
// files in the app, the first step after it (a walk of the whole tree, by design), the
// quiet-time confirming walk, and how long the watcher takes to start.
import fs from 'node:fs';
import path from 'node:path';
import { configDefaults } from '../src/config/schema.js';
import { openForApp } from '../src/runtime/checkpointing/checkpointer.js';
import { CheckpointTriggers } from '../src/runtime/checkpointing/checkpointTriggers.js';
import { Notices } from '../src/runtime/session/notices.js';
import { PlumbingFloor } from './floor.js';
import { benchEnv, git, median, round, time } from './lib.js';

export interface MonorepoRow {
  files: number;
  folders: number;
  /** The full-scan floor: a one-file change checkpointed by git's plumbing (ms, median). */
  floor: number;
  /** A one-file-change step's checkpoint in the app (ms, median) and its ratio to the floor (target ≤ 0.15). */
  step: number;
  stepRatio: number;
  /** A restore of 12 files in the app (ms, median) and its ratio to the floor (target ≤ 0.3). */
  restore: number;
  restoreRatio: number;
  /** The step after a restore, which walks the whole tree (ms, median). */
  stepAfterRestore: number;
  /** The confirming walk of the whole tree at a quiet moment (ms, median). */
  confirm: number;
  /** From the session's checkpoints opened to the watcher watching every folder (ms, once). */
  watcherStart: number;
}

/**
 * A monorepo-shaped git repository: `files` small source files, five to a folder, in three
 * levels of folders (250,000 files: 50,000 folders), committed and packed, older than its
 * index.
 */
export function makeMonorepo(root: string, files: number): { dir: string; folders: number } {
  const dir = path.join(root, `mono-${files}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  git(dir, ['init', '-q']);
  const past = new Date(Date.now() - 3_600_000);
  const folders = new Set<string>();
  for (let i = 0; i < files; i++) {
    const f = Math.floor(i / 5);
    const folder = path.join(dir, `p${f % 50}`, `m${Math.floor(f / 50) % 33}`, `c${Math.floor(f / 1650)}`);
    if (!folders.has(folder)) {
      fs.mkdirSync(folder, { recursive: true });
      folders.add(folder);
    }
    const file = path.join(folder, `f${i}.ts`);
    fs.writeFileSync(file, `export const v${i} = ${i};\n`.repeat(1 + (i % 30)));
    fs.utimesSync(file, past, past);
  }
  git(dir, ['add', '-A']);
  git(dir, ['-c', 'gc.auto=0', 'commit', '-qm', 'monorepo fixture']);
  git(dir, ['repack', '-a', '-d', '-q', '--window=0']);
  git(dir, ['prune-packed']);
  return { dir, folders: new Set([...folders].flatMap((folder) => [folder, path.dirname(folder), path.dirname(path.dirname(folder))])).size };
}

/** The numbers at one size. */
export async function benchMonorepo(work: string, files: number, runs: number): Promise<MonorepoRow> {
  const { dir: project, folders } = makeMonorepo(work, files);
  const home = path.join(work, `mono-stores-${files}`);
  fs.mkdirSync(home, { recursive: true });
  const env = { ...benchEnv, REWIND_HOME: home, REWIND_CONFIG_DIR: path.join(home, 'config') };
  const edited = (n: number) => path.join(project, `p${n % 50}`, 'm0', 'c0', `f${(n % 50) * 5}.ts`);
  const edit = (n: number) => fs.appendFileSync(edited(n), `// edit ${n}\n`);

  const floor = new PlumbingFloor(project, home, true);
  await floor.snapshot();
  const floorRuns: number[] = [];
  for (let n = 0; n < runs; n++) {
    edit(n);
    floorRuns.push(await time(() => floor.snapshot()));
  }
  floor.remove();

  const triggers = new CheckpointTriggers({ id: 'bench', agent: () => 'bench' }, new Notices(() => undefined), () => undefined);
  try {
    const config = { ...configDefaults(), gc_every: 0 };
    triggers.attach(await openForApp(project, config, env));
    const opened = performance.now();
    await triggers.watching();
    const watcherStart = performance.now() - opened;
    const engine = triggers.checkpoints?.engine;
    if (!engine) throw new Error('checkpoints did not open');
    const step = (label: string) => triggers.beforeStep({ trigger: 'PreToolUse:Edit', label }, 'bench');
    await step('first');
    const steps: number[] = [];
    for (let n = 0; n < runs; n++) {
      edit(n + runs);
      steps.push(await time(() => step(`edit ${n}`)));
      if (engine.list().at(-1)?.fromChangedPaths !== true) throw new Error(`step ${n} walked the whole tree: the bench measures the wrong path`);
    }
    const restores: number[] = [];
    const afterRestore: number[] = [];
    for (let n = 0; n < Math.min(runs, 7); n++) {
      const before = engine.list().at(-1);
      if (!before) throw new Error('no checkpoint');
      for (let i = 0; i < 12; i++) edit(1_000 + n * 12 + i);
      await step(`twelve edits ${n}`);
      restores.push(await time(() => triggers.withWatcherPaused((changed) => engine.restore(before.id, { session: 'bench', ...changed }))));
      edit(2_000 + n);
      afterRestore.push(await time(() => step(`after restore ${n}`)));
    }
    const confirms: number[] = [];
    for (let n = 0; n < 3; n++) confirms.push(await time(() => engine.currentTree()));
    const floorMedian = median(floorRuns);
    return {
      files,
      folders,
      floor: round(floorMedian),
      step: round(median(steps)),
      stepRatio: round(median(steps) / floorMedian, 2),
      restore: round(median(restores)),
      restoreRatio: round(median(restores) / floorMedian, 2),
      stepAfterRestore: round(median(afterRestore)),
      confirm: round(median(confirms)),
      watcherStart: round(watcherStart),
    };
  } finally {
    triggers.stop();
  }
}
