import { parseCommandArgs } from './args.js';
import { commandHelp } from './help.js';
import { writeLine, type CommandIO } from './io.js';
import type { CheckpointRecord, ProjectCheckpoints } from '../checkpoints/index.js';
import { openCheckpoints } from './open.js';
import { localTime } from '../shared/time.js';
import { noCheckpointsYet } from '../shared/messages.js';

const noCheckpointsMessage = `${noCheckpointsYet} (or by \`rewind snapshot\`)`;

/**
 * How many files each checkpoint's step changed: the next checkpoint's changes for all but
 * the newest, and the live work tree against the newest (null when unknown). Not what a
 * restore would change: that is the step and every later one.
 */
export async function fileCounts(checkpoints: ProjectCheckpoints, records: readonly CheckpointRecord[]): Promise<(number | null)[]> {
  const counts = records.map((_, index) => records[index + 1]?.changedSincePrevious ?? null);
  if (records.length > 0) {
    try {
      counts[counts.length - 1] = (await checkpoints.currentTree()).changedSinceNewest;
    } catch {
      counts[counts.length - 1] = null;
    }
  }
  return counts;
}

export async function main(argv: string[], io: CommandIO): Promise<number> {
  const { values } = parseCommandArgs('list', argv);
  if (values.help) {
    writeLine(io.stdout, commandHelp('list'));
    return 0;
  }
  const { checkpoints } = await openCheckpoints(io, values.C, { allowHome: true });
  const repaired = await checkpoints.maintain();
  if (repaired && repaired.broken.length > 0) {
    writeLine(io.stderr, `rewind: checkpoint(s) ${repaired.broken.map((id) => `#${id}`).join(', ')} can no longer be restored: the project's own git gc pruned files they borrowed`);
  }
  const records = checkpoints.list();
  const counts = await fileCounts(checkpoints, records);
  if (values.json) {
    const rows = records.map((record, index) => ({
      id: record.id,
      time: record.time,
      session: record.session,
      agent: record.agent,
      trigger: record.trigger,
      label: record.label,
      commit: record.commit,
      files: counts[index] ?? null,
      skipped: record.skipped,
      conversation: record.conversation,
    }));
    writeLine(io.stdout, JSON.stringify(rows, null, 2));
    return 0;
  }
  if (records.length === 0) {
    writeLine(io.stdout, noCheckpointsMessage);
    return 0;
  }
  for (const [index, record] of records.entries()) {
    const count = counts[index];
    // The step's own count, said as the picker says it (a restore changes more: see help).
    const files = `step: ${count === null || count === undefined ? '?' : count} file(s)`;
    const label = `${record.label || record.trigger}${record.unrestorable ? '  (no longer restorable)' : ''}`;
    writeLine(io.stdout, `#${String(record.id).padEnd(4)} ${localTime(record.time)}  ${files.padEnd(17)}  ${label}`);
  }
  return 0;
}
