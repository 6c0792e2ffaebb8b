import path from 'node:path';
import readline from 'node:readline';
import { parseCommandArgs } from './shared/args.js';
import { commandHelp } from './shared/help.js';
import { writeLine, type CommandIO } from './shared/io.js';
import { UsageError, UserError } from '../shared/errors.js';
import { filesChanged, uncheckedLine, writtenMeanwhileLine } from '../shared/messages.js';
import { confirmOrStop, requesterOf } from './shared/confirm.js';
import { openCheckpoints } from './shared/open.js';
import { printLeftAlone } from './restore/plan.js';
import { printRevertPlan } from './restore/revertPlan.js';
import { conflictWords } from '../services/steps/revertLines.js';
import { parseCheckpointId, projectPaths } from './shared/targetArgs.js';
import { partsOf, sessionSteps } from '../services/steps/sessionSteps.js';
import type { RevertOptions, RevertPlan } from '../checkpoints/index.js';

type Choice = NonNullable<RevertOptions['conflicts']>;

function parseChoice(value: string | undefined): Choice | undefined {
  if (value === undefined || value === 'keep' || value === 'markers') return value;
  throw new UsageError(`--conflicts takes keep or markers, not ${JSON.stringify(value)} (see \`rewind revert --help\`)`);
}

export async function main(argv: string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('revert', argv);
  if (values.help) {
    writeLine(io.stdout, commandHelp('revert'));
    return 0;
  }
  const id = parseCheckpointId(positionals[0], 'revert');
  let choice = parseChoice(values.conflicts);
  const { checkpoints } = await openCheckpoints(io, values.C, { allowHome: true, keep: [id] });
  const only = projectPaths(checkpoints, path.resolve(io.cwd, values.C ?? '.'), values.only, '--only');
  // A prompt's step is its whole turn, as `rewind show` shows it.
  const through = partsOf(sessionSteps(checkpoints.list()), id).at(-1)?.through ?? id;
  const scope = { only, through };

  if (values['dry-run'] || !values.yes) {
    const plan = await checkpoints.previewRevert(id, scope);
    if (values.json && values['dry-run']) {
      writeLine(io.stdout, JSON.stringify({ ...plan, dryRun: true }));
      return 0;
    }
    const out = values.json ? io.stderr : io.stdout;
    printRevertPlan(out, plan, checkpoints.get(id));
    if (values['dry-run']) return 0;
    if (plan.conflicts.length > 0 && !choice) {
      choice = await askChoice(io, plan);
      if (!choice) return 1;
    } else if (!(await confirmOrStop(io, values.yes, `Revert the step of #${id}? [y/N] `, 'reverting'))) return 1;
  }

  const result = await checkpoints.revert(id, { ...scope, ...(choice ? { conflicts: choice } : {}), ...requesterOf(io) });
  const { restore } = result;
  if (values.json) {
    writeLine(io.stdout, JSON.stringify({ ...result.plan, written: result.conflicts, result: result.checkpoint, changed: restore.changed, deleted: restore.deleted, redo: restore.redo, ...(restore.writtenMeanwhile ? { writtenMeanwhile: restore.writtenMeanwhile } : {}), ...(restore.unchecked ? { unchecked: restore.unchecked } : {}) }));
    return 0;
  }
  const conflicts = conflictWords(result.plan, result.conflicts);
  writeLine(io.stdout, `reverted the step of #${id}: ${filesChanged(restore)}${conflicts}`);
  printLeftAlone(io.stdout, restore.leftAlone);
  if (restore.writtenMeanwhile) writeLine(io.stdout, `  ! ${writtenMeanwhileLine(restore.writtenMeanwhile, { redoMovedThere: restore.redo === restore.writtenMeanwhile.checkpoint, during: 'the revert', redoCommand: '`rewind redo`' })}`);
  if (restore.unchecked) writeLine(io.stdout, `  ! ${uncheckedLine(restore.unchecked)}`);
  if (restore.redo !== null) writeLine(io.stdout, `undo with \`rewind redo\` (your files as they were are checkpoint #${restore.redo})`);
  return 0;
}

/** With conflicts and no --conflicts: asks which (in a terminal); undefined: do nothing. */
async function askChoice(io: CommandIO, plan: RevertPlan): Promise<Choice | undefined> {
  if (!io.stdin.isTTY) throw new UserError(`not reverting: the step of #${plan.checkpoint} conflicts in ${plan.conflicts.length} file(s) and there is no terminal to ask in; pass --conflicts keep or --conflicts markers with --yes`);
  const rl = readline.createInterface({ input: io.stdin, output: io.stdout });
  try {
    const answer = await new Promise<string>((resolve) => rl.question('Write the other files and [k]eep the conflicted ones as they are, also write conflict [m]arkers, or do [N]othing? [k/m/N] ', resolve));
    const picked = answer.trim().toLowerCase();
    if (picked === 'k' || picked === 'keep') return 'keep';
    if (picked === 'm' || picked === 'markers') return 'markers';
  } finally {
    rl.close();
  }
  writeLine(io.stderr, 'rewind: not reverting; nothing was changed');
  return undefined;
}
