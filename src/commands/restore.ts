import path from 'node:path';
import { parseCommandArgs } from './shared/args.js';
import { commandHelp } from './shared/help.js';
import { agentFacts } from '../services/helpFacts.js';
import { writeLine, type CommandIO } from './shared/io.js';
import { UsageError, UserError } from '../shared/errors.js';
import type { CheckpointRecord, ProjectCheckpoints } from '../checkpoints/index.js';
import { plannedPaths } from '../checkpoints/index.js';
import { sessionScope } from '../services/steps/sessionScope.js';
import { restoreWithConversation } from './restore/restoreConversation.js';
import { confirmOrStop, requesterOf } from './shared/confirm.js';
import { openCheckpoints } from './shared/open.js';
import { printPlan, printRestored, restoredJson } from './restore/plan.js';
import { parseCheckpointId, projectPaths } from './shared/targetArgs.js';

export async function main(argv: string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('restore', argv);
  if (values.help) {
    writeLine(io.stdout, commandHelp('restore', agentFacts()));
    return 0;
  }
  if ([values.files, values.conversation, values.both].filter(Boolean).length > 1) throw new UsageError('give one of --files, --conversation and --both (see `rewind restore --help`)');
  if (values.conversation && values.only) throw new UsageError('--only picks files: it goes with --files or --both, not --conversation (see `rewind restore --help`)');
  if (values.session && (values.conversation || values.both)) throw new UsageError('--session picks files: it goes with --files, not --conversation or --both (see `rewind restore --help`)');
  const id = parseCheckpointId(positionals[0], 'restore');
  const { checkpoints } = await openCheckpoints(io, values.C, { allowHome: true, quietAboutInterrupted: true, keep: [id] });
  const given = projectPaths(checkpoints, path.resolve(io.cwd, values.C ?? '.'), values.only, '--only');
  const target = checkpoints.get(id);
  if (values.conversation || values.both) return restoreWithConversation(io, checkpoints, target, { ...values, only: given });
  const only = values.session ? await sessionPaths(io, checkpoints, target, given, values.json ? io.stderr : io.stdout) : given;
  if (only === undefined) return 0;

  if (values['dry-run'] || !values.yes) {
    const preview = (await checkpoints.plan(id, only)).preview;
    if (values.json && values['dry-run']) {
      writeLine(io.stdout, JSON.stringify({ ...preview, dryRun: true }));
      return 0;
    }
    printPlan(values.json ? io.stderr : io.stdout, target, preview);
    if (values['dry-run']) return 0;
    if (preview.writes.length + preview.deletes.length === 0) return 0;
    if (!(await confirmOrStop(io, values.yes, `Restore checkpoint #${id}? [y/N] `, 'restoring'))) return 1;
  }

  const result = await checkpoints.restore(id, { only, ...requesterOf(io) });
  if (values.json) {
    writeLine(io.stdout, JSON.stringify({ checkpoint: result.checkpoint, ...restoredJson(result) }));
    return 0;
  }
  printRestored(io.stdout, id, result);
  if (result.redo !== null) writeLine(io.stdout, `undo with \`rewind redo\` (your files as they were are checkpoint #${result.redo})`);
  return 0;
}

/**
 * `--session`: of the files a restore of `target` would change now, those the session's own
 * steps changed since it (the session of REWIND_SESSION, else the checkpoint's), within
 * `--only` if given; what others changed is left as it is, and said. Undefined: nothing to do.
 */
async function sessionPaths(io: CommandIO, checkpoints: ProjectCheckpoints, target: CheckpointRecord, given: readonly string[], out: NodeJS.WritableStream): Promise<string[] | undefined> {
  const session = io.env.REWIND_SESSION || target.session;
  if (!session) throw new UserError(`checkpoint #${target.id} was taken outside any session and REWIND_SESSION is not set: --session needs the session whose changes to put back (see \`rewind list --json\`)`);
  const scope = await sessionScope(checkpoints, target.id, session);
  const { preview } = await checkpoints.plan(target.id, given);
  const changing = new Set(plannedPaths(preview));
  // A file both changed is restored only when --only names that very file (not a folder holding it).
  const shared = scope.shared.filter((file) => changing.has(file));
  const paths = [...scope.paths, ...shared.filter((file) => given.includes(file))].filter((file) => changing.has(file));
  const held = shared.filter((file) => !given.includes(file));
  writeLine(out, `session ${session}: ${paths.length} file(s) its steps changed since #${target.id}${given.length > 0 ? ' (within --only)' : ''}; ${scope.others} changed only by others stay as they are`);
  for (const file of shared.filter((named) => given.includes(named))) writeLine(out, `  restoring   ${file}: changed by another session or outside one too since #${target.id}, restored because --only names it`);
  for (const file of held) writeLine(out, `  left alone  ${file}: changed by another session or outside one too since #${target.id} (\`rewind restore ${target.id} --only ${file}\` restores it alone)`);
  if (paths.length > 0) return paths;
  writeLine(out, held.length > 0 ? `nothing restored: what this session changed since #${target.id} was changed by others too (left alone above)` : `nothing to restore: the files this session changed since #${target.id} are already as they were`);
  return undefined;
}
