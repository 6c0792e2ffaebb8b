import { parseCommandArgs } from './shared/args.js';
import { commandHelp } from './shared/help.js';
import { writeLine, type CommandIO } from './shared/io.js';
import { openCheckpoints } from './shared/open.js';
import { nothingChanged, printLeftAlone, printRedoPlan } from './restore/plan.js';
import { confirmOrStop, requesterOf } from './shared/confirm.js';
import { fewPaths, filesChanged, uncheckedLine, writtenMeanwhileLine } from '../shared/messages.js';

export async function main(argv: string[], io: CommandIO): Promise<number> {
  const { values } = parseCommandArgs('redo', argv);
  if (values.help) {
    writeLine(io.stdout, commandHelp('redo'));
    return 0;
  }
  const { checkpoints } = await openCheckpoints(io, values.C, { allowHome: true, quietAboutInterrupted: true });
  let expected: string | undefined;
  if (values['dry-run'] || !values.yes) {
    const plan = await checkpoints.previewRedo();
    if (values.json && values['dry-run']) {
      const { point, back, restored, time, interrupted, preview, changedSince } = plan;
      writeLine(io.stdout, JSON.stringify({ undoes: { restored, time, interrupted, ref: point.ref }, back: back.id, ...preview, changedSince, dryRun: true }));
      return 0;
    }
    printRedoPlan(values.json ? io.stderr : io.stdout, plan);
    if (values['dry-run']) return 0;
    const which = plan.restored === null ? 'the last restore' : `the restore of #${plan.restored}`;
    if (!(await confirmOrStop(io, values.yes, `Undo ${which} (back to #${plan.back.id})? [y/N] `, 'undoing'))) return 1;
    expected = plan.point.ref;
  }
  const result = await checkpoints.redo(requesterOf(io), expected);
  if (values.json) {
    writeLine(io.stdout, JSON.stringify({ checkpoint: result.checkpoint, changed: result.changed, deleted: result.deleted, redo: result.before, changedSince: result.changedSince, ...(result.writtenMeanwhile ? { writtenMeanwhile: result.writtenMeanwhile } : {}), ...(result.unchecked ? { unchecked: result.unchecked } : {}) }));
    return 0;
  }
  const done = result.before === null ? nothingChanged(`the files already were as checkpoint #${result.checkpoint} holds them`, result) : `files are back as checkpoint #${result.checkpoint} holds them, ${filesChanged(result)}`;
  writeLine(io.stdout, `undid the last restore: ${done}`);
  printLeftAlone(io.stdout, result.leftAlone);
  if (result.changedSince.length > 0) writeLine(io.stdout, `  ! changed since that restore, taken back too: ${fewPaths(result.changedSince)}`);
  if (result.writtenMeanwhile) writeLine(io.stdout, `  ! ${writtenMeanwhileLine(result.writtenMeanwhile, { redoMovedThere: false, during: 'the undo', redoCommand: '`rewind redo`' })}`);
  if (result.unchecked) writeLine(io.stdout, `  ! ${uncheckedLine(result.unchecked)}`);
  if (result.before !== null) writeLine(io.stdout, `the files as they were before this are checkpoint #${result.before}: \`rewind restore ${result.before}\` to go back`);
  return 0;
}
