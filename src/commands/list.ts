import { parseCommandArgs } from './args.js';
import { commandHelp } from './help.js';
import { writeLine, type CommandIO } from './io.js';
import type { CheckpointRecord, CurrentTree, ProjectCheckpoints } from '../checkpoints/index.js';
import { openCheckpoints } from './open.js';
import { localTime } from '../shared/time.js';
import { noCheckpointsYet } from '../shared/messages.js';
import { sessionSteps, type SessionStep } from '../services/steps/sessionSteps.js';
import { exactStepCounts } from '../services/steps/stepCounts.js';

const noCheckpointsMessage = `${noCheckpointsYet} (or by \`rewind snapshot\`)`;

/** What the live work tree says of the newest checkpoint's step (undefined when unknown). */
async function sinceNewest(checkpoints: ProjectCheckpoints, records: readonly CheckpointRecord[]): Promise<CurrentTree | undefined> {
  if (records.length === 0) return undefined;
  try {
    return await checkpoints.currentTree();
  } catch {
    return undefined;
  }
}

/** `#7    2026-12-02 21:05:01  2 files     Bash rm -rf tests`, a turn's steps indented under it. */
function stepLine(step: SessionStep, unrestorable: boolean): string {
  const count = step.files === null ? '?' : `${step.files}${step.more ? '+' : ''} ${step.files === 1 && !step.more ? 'file' : 'files'}`;
  const title = step.kind === 'turn' ? `prompt: ${step.title}${(step.steps?.length ?? 0) > 0 ? `  (${step.steps?.length} step(s))` : ''}` : step.turn !== undefined ? `    ${step.title}` : step.title;
  return `#${String(step.id).padEnd(4)} ${localTime(step.time)}  ${count.padEnd(10)}  ${title}${unrestorable ? '  (no longer restorable)' : ''}`;
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
  const now = await sinceNewest(checkpoints, records);
  const steps = await exactStepCounts(sessionSteps(records, now), records, checkpoints, now?.tree);
  if (values.json) {
    const byId = new Map(steps.map((step) => [step.id, step]));
    const confirmedThrough = checkpoints.scanConfirmedThrough();
    const owners = new Map(steps.flatMap((step) => step.folded.map((id) => [id, step.id] as const)));
    const rows = records.map((record, index) => {
      const step = byId.get(record.id);
      return {
        id: record.id,
        time: record.time,
        session: record.session,
        agent: record.agent,
        trigger: record.trigger,
        label: record.label,
        commit: record.commit,
        // A folded checkpoint's own step changed nothing (that is why it is folded).
        files: step ? step.files : (records[index + 1]?.changedSincePrevious ?? 0),
        kind: step ? step.kind : 'folded',
        turn: step?.turn ?? null,
        foldedInto: owners.get(record.id) ?? null,
        skipped: record.skipped,
        conversation: record.conversation,
        fromChangedPaths: record.fromChangedPaths === true,
        confirmed: record.fromChangedPaths !== true || record.id <= confirmedThrough,
      };
    });
    writeLine(io.stdout, JSON.stringify(rows, null, 2));
    return 0;
  }
  if (records.length === 0) {
    writeLine(io.stdout, noCheckpointsMessage);
    return 0;
  }
  const unrestorable = new Set(records.filter((record) => record.unrestorable).map((record) => record.id));
  for (const step of steps) writeLine(io.stdout, stepLine(step, unrestorable.has(step.id)));
  return 0;
}
