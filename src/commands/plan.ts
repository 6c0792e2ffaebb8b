import { writeLine } from '../cli/io.js';
import type { CheckpointRecord } from '../checkpoints/record.js';
import type { RestorePreview } from '../checkpoints/restore/restore.js';
import { localTime } from './time.js';

/** Prints what a restore would do, for people. */
export function printPlan(out: NodeJS.WritableStream, target: CheckpointRecord, preview: RestorePreview): void {
  const label = target.label || target.trigger;
  const count = preview.writes.length + preview.deletes.length;
  writeLine(out, `Restoring checkpoint #${target.id} (${localTime(target.time)}, ${label}) ${count === 0 ? 'changes nothing: the files already match it' : `changes ${count} file(s):`}`);
  for (const write of preview.writes) writeLine(out, `  ${write.creates ? 'create' : 'write '}  ${write.path}`);
  for (const file of preview.deletes) writeLine(out, `  delete  ${file}`);
  for (const item of preview.leftAlone) writeLine(out, `  left alone  ${item.path}: ${item.reason}`);
  if (preview.unsaved.length > 0) {
    writeLine(out, `  ! ${preview.unsaved.length} of these have edits made after the newest checkpoint (${preview.unsaved.slice(0, 5).join(', ')}${preview.unsaved.length > 5 ? ', …' : ''}): they are checkpointed first, so \`rewind redo\` brings them back`);
  }
  if (preview.skipped.length > 0) {
    writeLine(out, `  Not affected (left out of checkpoints): ${preview.skipped.map((file) => file.path).join(', ')}`);
  }
}
