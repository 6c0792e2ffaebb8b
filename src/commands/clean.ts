import { listStores, removeLeftovers, removeStore, whyNotRemovable, type StoreEntry } from '../checkpoints/index.js';
import { rewindHome } from '../config/paths.js';
import { UserError } from '../shared/errors.js';
import { formatBytes } from '../shared/format.js';
import { waitMs } from '../shared/seams.js';
import { parseCommandArgs } from './shared/args.js';
import { commandHelp } from './shared/help.js';
import { confirmOrStop } from './shared/confirm.js';
import { writeLine, type CommandIO } from './shared/io.js';
import { openCheckpoints } from './shared/open.js';

async function chosenStores(io: CommandIO, which: 'orphans' | 'project' | 'all', dir: string | undefined): Promise<StoreEntry[]> {
  const stores = await listStores(rewindHome(io.env));
  if (which === 'all') return stores;
  if (which === 'orphans') return stores.filter((entry) => entry.project !== '' && !entry.exists);
  const { checkpoints } = await openCheckpoints(io, dir, { allowHome: true, retention: false });
  return stores.filter((entry) => entry.store === checkpoints.storeRoot);
}

export async function main(argv: string[], io: CommandIO): Promise<number> {
  const { values } = parseCommandArgs('clean', argv);
  if (values.help) {
    writeLine(io.stdout, commandHelp('clean'));
    return 0;
  }
  const picked = (['orphans', 'project', 'all'] as const).filter((flag) => values[flag]);
  if (picked.length !== 1) throw new UserError('say which stores to delete: --orphans, --project or --all (see `rewind clean --help`)', { exitCode: 2 });
  const which = picked[0]!;
  const home = rewindHome(io.env);
  removeLeftovers(home);
  const stores = await chosenStores(io, which, values.C);
  const total = stores.reduce((sum, entry) => sum + entry.bytes, 0);
  // With --json, stdout is the one JSON answer: the list and the question go to stderr.
  const say: CommandIO = values.json ? { ...io, stdout: io.stderr } : io;
  const answer = (deleted: boolean) => {
    if (!values.json) return;
    const listed = stores.map(({ project, store, checkpoints, bytes, exists }) => ({ project, store, checkpoints, bytes, exists }));
    writeLine(io.stdout, JSON.stringify({ which, stores: listed, bytes: total, deleted }, null, 2));
  };
  if (stores.length === 0) {
    if (!values.json) writeLine(io.stdout, which === 'orphans' ? 'no stores of vanished projects: nothing to delete' : 'no checkpoint store here: nothing to delete');
    answer(false);
    return 0;
  }
  const blocked = stores.map(whyNotRemovable).find((why) => why !== undefined);
  if (blocked) throw new UserError(`nothing deleted: ${blocked}`);
  if (!values.json || !values.yes) {
    for (const entry of stores) writeLine(say.stdout, `  ${formatBytes(entry.bytes).padStart(7)}  ${entry.checkpoints} checkpoint(s)  ${entry.project || '(unknown project)'}${entry.exists ? '' : ' (gone)'}  ${entry.store}`);
    if (which === 'orphans') writeLine(say.stdout, 'A project on a drive that is not mounted now looks gone too: answer no if one of these is.');
  }
  const question = `Delete ${stores.length} store(s), ${formatBytes(total)}? Their checkpoints cannot be restored after this. [y/N] `;
  if (!(await confirmOrStop(say, values.yes, question, 'deleting'))) {
    answer(false);
    return 1;
  }
  for (const entry of stores) await removeStore(home, entry, waitMs('lock-wait'));
  if (values.json) answer(true);
  else writeLine(io.stdout, `deleted ${stores.length} store(s), freed ${formatBytes(total)}`);
  return 0;
}
