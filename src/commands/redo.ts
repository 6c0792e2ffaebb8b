import { parseCommandArgs } from '../cli/args.js';
import { writeLine, type CommandIO } from '../cli/io.js';
import { redoLast } from '../checkpoints/restore/restore.js';
import { openCheckpoints } from './open.js';

const help = `Usage: rewind redo [--json] [-C DIR]

Undoes the last restore: puts the files back as they were just before it. Repeated, it
walks back through earlier restores. The files as they are before the redo are
checkpointed first, so a redo can be undone with \`rewind restore <that id>\`.
After a restore that was cut off, it puts everything back as it was before that restore.`;

export async function main(argv: string[], io: CommandIO): Promise<number> {
  const { values } = parseCommandArgs('redo', argv, { json: { type: 'boolean' } }, false);
  if (values.help) {
    writeLine(io.stdout, help);
    return 0;
  }
  const { checkpoints } = await openCheckpoints(io, values.C, { allowHome: true, quietAboutInterrupted: true });
  const result = await redoLast(checkpoints);
  const before = checkpoints.list().at(-1);
  if (values.json) {
    writeLine(io.stdout, JSON.stringify({ checkpoint: result.checkpoint, changed: result.changed, deleted: result.deleted, redo: before?.id ?? null }));
    return 0;
  }
  writeLine(io.stdout, `undid the last restore: files are back as checkpoint #${result.checkpoint} holds them (${result.changed.length} written, ${result.deleted.length} deleted)`);
  for (const item of result.leftAlone) writeLine(io.stdout, `  left alone  ${item.path}: ${item.reason}`);
  if (before) writeLine(io.stdout, `the files as they were before this are checkpoint #${before.id}: \`rewind restore ${before.id}\` to go back`);
  return 0;
}
