// What a script or a hook pays for one checkpoint: `rewind snapshot` as a whole process (the
// built `dist/cli.js` run as users run it, the executable), for a
// one-file change, against `node -e 0` plus the plumbing floor, both measured in the same run.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PlumbingFloor } from './floor.js';
import { benchEnv, makeRepo, median, percentile, round, time } from './lib.js';

export const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

export interface ProcessRow {
  files: number;
  case: 'one-file change';
  /** `rewind snapshot`, from spawn to exit. */
  rewind: { median: number; p90: number };
  /** `node -e 0`, from spawn to exit: what any Node program pays before its first line. */
  nodeStart: { median: number; p90: number };
  /** The plumbing floor's one-file change (4 git spawns from an already running Node). */
  floor: { median: number; p90: number };
  /** rewind / (node -e 0 + floor), medians. */
  ratio: number;
  target: string;
  meetsTarget?: boolean;
}

/** Runs `command` and waits for it to exit 0 (its output ignored). */
export function runToExit(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    const err: Buffer[] = [];
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${Buffer.concat(err)}`))));
  });
}

function stat(values: number[]): { median: number; p90: number } {
  return { median: round(median(values)), p90: round(percentile(values, 0.9)) };
}

/** `rewind snapshot` as a process at one size, beside `node -e 0` and the floor of the same run. */
export async function benchProcess(work: string, files: number, runs: number): Promise<ProcessRow> {
  if (!fs.existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\``);
  const project = makeRepo(work, files);
  const home = path.join(work, `process-stores-${files}`);
  fs.rmSync(home, { recursive: true, force: true });
  fs.mkdirSync(home, { recursive: true });
  const env = { ...benchEnv, REWIND_HOME: home, REWIND_CONFIG_DIR: path.join(home, 'config') };
  const target = path.join(project, 'd7', 's3', `f${7 + 50 * 3}.txt`);
  const snapshot = () => runToExit(cli, ['snapshot', '--trigger', 'bench'], env, project);
  // The store exists (its first snapshot is not what is measured here).
  await snapshot();
  const floor = new PlumbingFloor(project, home, true);
  await floor.snapshot();
  const ours: number[] = [];
  const floors: number[] = [];
  const nodes: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const order = i % 2 === 0 ? ['ours', 'floor', 'node'] : ['node', 'floor', 'ours'];
      for (const who of order) {
        if (who === 'node') {
          nodes.push(await time(() => runToExit(process.execPath, ['-e', '0'], env, project)));
          continue;
        }
        fs.appendFileSync(target, `${who} ${i}\n`);
        if (who === 'ours') ours.push(await time(snapshot));
        else floors.push(await time(() => floor.snapshot()));
      }
    }
  } finally {
    floor.remove();
    fs.rmSync(home, { recursive: true, force: true });
  }
  const rewind = stat(ours);
  const nodeStart = stat(nodes);
  const floorStat = stat(floors);
  const ratio = round(rewind.median / (nodeStart.median + floorStat.median), 2);
  const target10k = files >= 10_000;
  return {
    files,
    case: 'one-file change',
    rewind,
    nodeStart,
    floor: floorStat,
    ratio,
    target: 'at most 1.25x (node -e 0 + floor) at 10,000 files',
    ...(target10k ? { meetsTarget: ratio <= 1.25 } : {}),
  };
}
