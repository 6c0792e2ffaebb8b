// The single commands' CommonJS bundles (dist/cli-bundle/snapshot.cjs and hook.cjs,
// scripts/postbuild.mjs): what a `rewind snapshot` process (a script's or a hook's
// checkpoint) pays with them, and without (a copy of dist/ whose cli.js loads both commands
// through the ES module chunks, as it does the cold ones), for a one-file change in the same
// project, turn about.
import fs from 'node:fs';
import path from 'node:path';
import { benchEnv, makeRepo, time } from './lib.js';
import { cli, runToExit } from './process.js';
import { copyOfDist, trickRow, type TrickRow } from './tricks.js';

/** A copy of dist/ where every command but list, snapshot and hook too, loads through the ES module chunks. */
function distWithoutHotBundle(): string {
  const entry = copyOfDist('no-hot-bundle');
  const original = fs.readFileSync(entry, 'utf8');
  const cold = original.replace("snapshot: './cli-bundle/snapshot.cjs', hook: './cli-bundle/hook.cjs', ", '');
  if (cold === original) throw new Error('dist/cli.js no longer chooses snapshot.cjs and hook.cjs as the bench expects: update bench/hotBundle.ts');
  fs.writeFileSync(entry, cold);
  return entry;
}

export async function benchHotBundle(work: string, files: number, runs: number): Promise<TrickRow> {
  if (!fs.existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\``);
  const cold = distWithoutHotBundle();
  const project = makeRepo(work, files);
  const home = path.join(work, `hot-bundle-stores-${files}`);
  fs.rmSync(home, { recursive: true, force: true });
  fs.mkdirSync(home, { recursive: true });
  const env = { ...benchEnv, REWIND_HOME: home, REWIND_CONFIG_DIR: path.join(home, 'config') };
  const target = path.join(project, 'd7', 's3', `f${7 + 50 * 3}.txt`);
  const snapshot = (entry: string) => runToExit(entry, ['snapshot', '--trigger', 'bench'], env, project);
  const times = { with: [] as number[], without: [] as number[] };
  try {
    await snapshot(cli);
    for (let i = 0; i < runs; i++) {
      for (const [which, entry] of i % 2 === 0 ? ([['with', cli], ['without', cold]] as const) : ([['without', cold], ['with', cli]] as const)) {
        fs.appendFileSync(target, `${which} ${i}\n`);
        times[which].push(await time(() => snapshot(entry)));
      }
    }
  } finally {
    fs.rmSync(path.dirname(path.dirname(cold)), { recursive: true, force: true });
    fs.rmSync(home, { recursive: true, force: true });
  }
  return trickRow('`rewind snapshot` and `rewind hook` in a CommonJS file each (dist/cli-bundle/snapshot.cjs, hook.cjs)', files, '`rewind snapshot` process, one-file change', times.with, times.without);
}
