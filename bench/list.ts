// What a user or an orchestrator pays to see the session's steps: `rewind list` as a whole
// process (the built `dist/cli.js` run as users run it), against `node -e 0` of the same run.
// The target (issue 27): at most `node -e 0` + 50 ms at any size, so the list is read from the
// checkpoint log alone. Measured as shown again (its turn's count read from the store) and as
// the first list after a new checkpoint (that count asked of git: spans.json removed first);
// `rewind list --now`, which reads the files too (a scan of every one), beside them for what
// that scan costs (what `rewind list` paid before).
import fs from 'node:fs';
import path from 'node:path';
import { cli, runToExit } from './process.js';
import { benchEnv, makeRepo, median, percentile, round, time } from './lib.js';

export interface ListRow {
  files: number;
  checkpoints: number;
  /** `rewind list`, from spawn to exit. */
  rewind: { median: number; p90: number };
  /** `node -e 0`, from spawn to exit. */
  nodeStart: { median: number; p90: number };
  /** rewind's median minus node's: what the list costs beyond starting Node (target ≤ 50 ms). */
  overNode: number;
  /** The first `rewind list` after a new checkpoint: its turn's count not read before (one `git diff-tree`). */
  firstAfterCheckpoint: { median: number; p90: number };
  /** firstAfterCheckpoint's median minus node's. */
  firstOverNode: number;
  /** `rewind list --now` (the files read too), from spawn to exit. */
  withNow: { median: number; p90: number };
  target: string;
  meetsTarget: boolean;
}

function stat(values: number[]): { median: number; p90: number } {
  return { median: round(median(values)), p90: round(percentile(values, 0.9)) };
}

/**
 * A session's worth of checkpoints: its start, a prompt, its tool steps, its end (so the
 * list has a turn to count with its one `git diff-tree`), then an edit after the newest
 * (what only `--now` reads).
 */
async function session(project: string, env: NodeJS.ProcessEnv): Promise<number> {
  const steps: [string, string][] = [
    ['start', 'session start'],
    ['UserPromptSubmit', 'fix the flaky test'],
    ['PreToolUse:Edit', 'Edit d7/s3/f157.txt'],
    ['PreToolUse:Bash', 'Bash npm test'],
    ['PreToolUse:Edit', 'Edit d8/s3/f158.txt'],
    ['end', 'turn end'],
  ];
  let n = 0;
  for (const [trigger, label] of steps) {
    await runToExit(cli, ['snapshot', '--trigger', trigger, '--label', label], env, project);
    fs.appendFileSync(path.join(project, 'd7', 's3', 'f157.txt'), `// edit ${n++}\n`);
  }
  return steps.length;
}

/** `rewind list` as a process at one size, beside `node -e 0` of the same run (and `--now`, fewer runs). */
export async function benchList(work: string, files: number, runs: number): Promise<ListRow> {
  if (!fs.existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\``);
  const project = makeRepo(work, files);
  const home = path.join(work, `list-stores-${files}`);
  fs.rmSync(home, { recursive: true, force: true });
  fs.mkdirSync(home, { recursive: true });
  const env = { ...benchEnv, REWIND_HOME: home, REWIND_CONFIG_DIR: path.join(home, 'config'), REWIND_SESSION: 'bench' };
  const ours: number[] = [];
  const first: number[] = [];
  const nodes: number[] = [];
  const withNow: number[] = [];
  try {
    const checkpoints = await session(project, env);
    const list = () => runToExit(cli, ['list'], env, project);
    const [store = ''] = fs.readdirSync(path.join(home, 'history')).map((name) => path.join(home, 'history', name));
    await list();
    if (!fs.existsSync(path.join(store, 'spans.json'))) throw new Error(`no spans.json in ${store}: the list read no turn`);
    for (let i = 0; i < runs; i++) {
      const order = i % 2 === 0 ? ['ours', 'node', 'first'] : ['first', 'node', 'ours'];
      for (const who of order) {
        if (who === 'node') nodes.push(await time(() => runToExit(process.execPath, ['-e', '0'], env, project)));
        else if (who === 'ours') ours.push(await time(list));
        else {
          fs.rmSync(path.join(store, 'spans.json'));
          first.push(await time(list));
        }
      }
      // The scan --now makes, a third as often (seconds at 50,000 files): for what it costs.
      if (i % 3 === 0) withNow.push(await time(() => runToExit(cli, ['list', '--now'], env, project)));
    }
    const rewind = stat(ours);
    const nodeStart = stat(nodes);
    const overNode = round(rewind.median - nodeStart.median);
    const firstAfterCheckpoint = stat(first);
    const firstOverNode = round(firstAfterCheckpoint.median - nodeStart.median);
    return { files, checkpoints, rewind, nodeStart, overNode, firstAfterCheckpoint, firstOverNode, withNow: stat(withNow), target: 'at most node -e 0 + 50 ms, at any size', meetsTarget: overNode <= 50 && firstOverNode <= 50 };
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}
