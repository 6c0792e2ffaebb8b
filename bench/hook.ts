// What one hook call costs the agent: the time from the agent starting its hook (here: this
// process spawning `sh dist/hooks/rewind-hook.sh claude PreToolUse` with a payload) to the
// end of the hook's output (its exit, and every process it started that holds its stdout gone),
// a one-file change each time. In the app (its channel served in this process,
// the snapshot taken by the engine as the app takes it) against the plumbing floor; alone
// (no app: the hook runs `rewind hook`, a Node process) against the floor plus `node -e 0`.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CheckpointEngine } from '../src/checkpoints/checkpointEngine.js';
import { HookServer } from '../src/hooks/hookServer.js';
import { PlumbingFloor } from './floor.js';
import { benchEnv, makeRepo, median, percentile, round, time } from './lib.js';

const settings = { checkpointMaxFileMb: 20, checkpointExclude: [], gcEvery: 1_000_000, checkpointWarnGb: 2 };
const client = fileURLToPath(new URL('../dist/hooks/rewind-hook.sh', import.meta.url));

export interface HookRow {
  files: number;
  mode: 'in the app' | 'standalone';
  hook: { median: number; p90: number };
  floor: { median: number; p90: number };
  /** In the app: the hook's median minus the floor's (target ≤ 15 ms). Standalone: the ratio to floor + `node -e 0` (target ≤ 1.25). */
  against: number;
  nodeStart?: number;
}

/** Until its output is closed by every process holding it, as an agent reads a hook's (Claude Code reads it to its end). */
function run(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string, input = ''): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdout.resume();
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited ${code}`))));
    child.stdin.end(input);
  });
}

function stat(values: number[]): { median: number; p90: number } {
  return { median: round(median(values)), p90: round(percentile(values, 0.9)) };
}

function payload(project: string, n: number): string {
  return JSON.stringify({ session_id: 'bench', cwd: project, hook_event_name: 'PreToolUse', tool_name: 'Edit', tool_input: { file_path: path.join(project, 'd0/s0/f0.txt'), old_string: `${n}`, new_string: `${n + 1}` } });
}

/** The hook's cost at one size, in the app and standalone, beside the floor (and `node -e 0`) of the same run. */
export async function benchHook(work: string, files: number, runs: number): Promise<HookRow[]> {
  if (!fs.existsSync(client)) throw new Error(`${client} is missing: run \`npm run build\``);
  const project = makeRepo(work, files);
  const home = path.join(work, `hook-stores-${files}`);
  fs.mkdirSync(home, { recursive: true });
  const env = { ...benchEnv, REWIND_HOME: home, REWIND_CONFIG_DIR: path.join(home, 'config') };
  const edit = (n: number) => fs.appendFileSync(path.join(project, 'd0/s0/f0.txt'), `// edit ${n}\n`);
  const engine = CheckpointEngine.open({ cwd: project, settings, home, env });
  await engine.snapshot({ label: 'bench start' });
  const server = HookServer.open(async () => {
    await engine.snapshot({ trigger: 'PreToolUse:Edit', label: 'Edit d0/s0/f0.txt' });
    return undefined;
  }, work);
  const floor = new PlumbingFloor(project, home, true);
  await floor.snapshot();
  const inApp: number[] = [];
  const alone: number[] = [];
  const floors: number[] = [];
  const nodeStarts: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      edit(i);
      inApp.push(await time(() => run('sh', [client, 'claude', 'PreToolUse'], { ...env, REWIND_SOCKET: server.dir }, project, payload(project, i))));
      edit(i);
      floors.push(await time(() => floor.snapshot()));
      edit(i);
      alone.push(await time(() => run('sh', [client, 'claude', 'PreToolUse'], env, project, payload(project, i))));
      nodeStarts.push(await time(() => run(process.execPath, ['-e', '0'], env, project)));
    }
  } finally {
    server.close();
    floor.remove();
  }
  const floorStat = stat(floors);
  const node = round(median(nodeStarts));
  const inAppStat = stat(inApp);
  const aloneStat = stat(alone);
  return [
    { files, mode: 'in the app', hook: inAppStat, floor: floorStat, against: round(inAppStat.median - floorStat.median) },
    { files, mode: 'standalone', hook: aloneStat, floor: floorStat, nodeStart: node, against: round(aloneStat.median / (floorStat.median + node), 2) },
  ];
}
