import { fewPaths, filesChanged, uncheckedLine, writtenMeanwhileLine } from '../../shared/messages.js';
import { writeLine } from '../shared/io.js';
import type { CheckpointRecord, LeftAlone, RedoPreview, RestorePreview, RestoreResult, SkippedFile } from '../../checkpoints/index.js';
import { localTime } from '../../shared/time.js';

/** How many left-alone paths are named for one reason before the rest are counted. */
const namedPerReason = 10;

/**
 * The `left alone` lines: every path with its reason, but past a few paths for the same
 * reason (a whole ignored node_modules, say) the rest are counted, not listed.
 */
export function printLeftAlone(out: NodeJS.WritableStream, items: readonly LeftAlone[]): void {
  const byReason = new Map<string, string[]>();
  for (const item of items) byReason.set(item.reason, [...(byReason.get(item.reason) ?? []), item.path]);
  for (const [reason, paths] of byReason) {
    for (const file of paths.slice(0, namedPerReason)) writeLine(out, `  left alone  ${file}: ${reason}`);
    if (paths.length > namedPerReason) writeLine(out, `  left alone  … and ${paths.length - namedPerReason} more: ${reason}`);
  }
}

/** The files left out of checkpoints, which a restore does not touch. */
export function printSkipped(out: NodeJS.WritableStream, skipped: readonly SkippedFile[]): void {
  if (skipped.length > 0) writeLine(out, `  not affected (left out of checkpoints): ${skipped.map((file) => file.path).join(', ')}`);
}

/** Prints what a restore (or redo) would do, for people, under its first line `headline`. */
function printBody(out: NodeJS.WritableStream, headline: string, preview: RestorePreview): void {
  const count = preview.writes.length + preview.deletes.length;
  writeLine(out, `${headline} ${count === 0 ? 'changes nothing: the files already match it' : `changes ${count} file(s):`}`);
  for (const write of preview.writes) writeLine(out, `  ${write.creates ? 'create' : 'write '}  ${write.path}`);
  for (const file of preview.deletes) writeLine(out, `  delete  ${file}`);
  printLeftAlone(out, preview.leftAlone);
  if (preview.unsaved.length > 0) {
    writeLine(out, `  ! ${preview.unsaved.length} of these have edits made after the newest checkpoint (${preview.unsaved.slice(0, 5).join(', ')}${preview.unsaved.length > 5 ? ', …' : ''}): they are checkpointed first, so \`rewind redo\` brings them back`);
  }
  printSkipped(out, preview.skipped);
}

/** Prints what a restore would do, for people. */
export function printPlan(out: NodeJS.WritableStream, target: CheckpointRecord, preview: RestorePreview): void {
  printBody(out, `Restoring checkpoint #${target.id} (${localTime(target.time)}, ${target.label || target.trigger})`, preview);
}

/** Prints what a redo would do: which restore it undoes, when, where it goes back to, and the plan. */
export function printRedoPlan(out: NodeJS.WritableStream, redo: RedoPreview): void {
  const reverted = /^before reverting #(\d+)$/.exec(redo.back.label)?.[1];
  const which = reverted !== undefined ? `the revert of the step of #${reverted}` : redo.restored === null ? 'the last restore' : `the restore of checkpoint #${redo.restored}`;
  const how = redo.interrupted ? 'cut off' : 'made';
  writeLine(out, `Undoing ${which} (${how} ${localTime(redo.time)}): back to checkpoint #${redo.back.id}, the files as they were just before it.`);
  printBody(out, `Going back to #${redo.back.id}`, redo.preview);
  if (redo.changedSince.length > 0) writeLine(out, `  ! changed since that restore, taken back too: ${fewPaths(redo.changedSince)}`);
  // After a restore or an undo that was cut off, the files are checkpointed first even so (restore.ts).
  const changes = redo.preview.writes.length + redo.preview.deletes.length > 0 || redo.cutOff;
  writeLine(out, changes ? '  your files as they are now are checkpointed first, so this can be undone too (`rewind restore <that id>`)' : '  it only takes that restore off the undo stack: no checkpoint is taken for nothing');
}

/** What a restore of checkpoint `id` did, for people: the count, then what it left alone, left out or kept (the undo line is the caller's). */
export function printRestored(out: NodeJS.WritableStream, id: number, result: RestoreResult): void {
  writeLine(out, result.changedNothing ? `restored checkpoint #${id}: ${nothingChanged('the files already matched it', result)}` : `restored checkpoint #${id}: ${filesChanged(result)}`);
  printLeftAlone(out, result.leftAlone);
  printSkipped(out, result.skipped);
  if (result.writtenMeanwhile) writeLine(out, `  ! ${writtenMeanwhileLine(result.writtenMeanwhile, { redoMovedThere: result.redo === result.writtenMeanwhile.checkpoint, during: 'the restore', redoCommand: '`rewind redo`' })}`);
  if (result.unchecked) writeLine(out, `  ! ${uncheckedLine(result.unchecked)}`);
}

/** What a restore or undo that changed no file says it did: the files `matched`, or some were left alone (listed after it). */
export function nothingChanged(matched: string, result: Pick<RestoreResult, 'leftAlone'>): string {
  const left = result.leftAlone.length;
  return left > 0 ? `nothing changed, ${left} file(s) left alone (no checkpoint taken)` : `${matched} (nothing changed, no checkpoint taken)`;
}

/** What a restore did, for `--json`. */
export function restoredJson(result: RestoreResult): Pick<RestoreResult, 'changed' | 'deleted' | 'redo' | 'writtenMeanwhile' | 'unchecked'> {
  return { changed: result.changed, deleted: result.deleted, redo: result.redo, ...(result.writtenMeanwhile ? { writtenMeanwhile: result.writtenMeanwhile } : {}), ...(result.unchecked ? { unchecked: result.unchecked } : {}) };
}
