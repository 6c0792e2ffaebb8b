import path from 'node:path';
import { parseCommandArgs } from './shared/args.js';
import { commandHelp } from './shared/help.js';
import { writeLine, type CommandIO } from './shared/io.js';
import { readProjectCheckpointList, requireGit, type CheckpointRecord, type CurrentTree } from '../checkpoints/index.js';
import { effectiveConfig } from './shared/effectiveConfig.js';
import type { EngineListing } from './list/listEngine.js';
import { retentionPolicy } from '../services/store/retentionPolicy.js';
import { localTime } from '../shared/time.js';
import { noCheckpointsYet } from '../shared/messages.js';
import { sessionSteps, type SessionStep } from '../services/steps/sessionSteps.js';
import { exactStepCounts } from '../services/steps/stepCounts.js';

const noCheckpointsMessage = `${noCheckpointsYet} (or by \`rewind snapshot\`)`;

/**
 * The list from the store's files alone, at once at any size (no lock, no scan of the work
 * tree); through the engine when the store needs its work first, or the files now are asked
 * for (`--now`: a scan of every file).
 */
async function listing(io: CommandIO, dir: string | undefined, now: boolean): Promise<EngineListing> {
  requireGit(io.env);
  const config = await effectiveConfig(io);
  if (!now) {
    const quick = await readProjectCheckpointList(path.resolve(io.cwd, dir ?? '.'), retentionPolicy(config), io.env, { allowHome: true });
    if (quick) return { records: [...quick.records], spans: quick };
  }
  const { listThroughEngine } = await import('./list/listEngine.js');
  return listThroughEngine(io, dir, config, now);
}

/**
 * Where the counts of the steps that run to now end: the files now (`--now`), else the newest
 * checkpoint's tree (the list says so; the newest's own step stays unknown).
 */
function endTree(records: readonly CheckpointRecord[], now: CurrentTree | undefined): string | undefined {
  if (now) return now.tree;
  const newest = records.at(-1);
  return newest && !newest.unrestorable ? newest.tree : undefined;
}

/** `#7    2026-12-02 21:05:01  2 files     Bash rm -rf tests`, a turn's steps indented under it. */
function stepLine(step: SessionStep, unrestorable: boolean, importedFrom: string | undefined): string {
  const count = step.files === null ? '?' : `${step.files}${step.more ? '+' : ''} ${step.files === 1 && !step.more ? 'file' : 'files'}`;
  const title = step.kind === 'turn' ? `prompt: ${step.title}${(step.steps?.length ?? 0) > 0 ? `  (${step.steps?.length} step(s))` : ''}` : step.turn !== undefined ? `    ${step.title}` : step.title;
  return `#${String(step.id).padEnd(4)} ${localTime(step.time)}  ${count.padEnd(10)}  ${title}${unrestorable ? '  (no longer restorable)' : ''}${importedFrom !== undefined ? `  (imported from ${importedFrom})` : ''}`;
}

/**
 * Under the rows, for a person at a terminal (a pipe gets the rows alone): what the counts do
 * not take in (what changed since the newest checkpoint), naming the row that checkpoint is
 * in when it has none of its own (folded into a step), and the "?" only when a row shows one.
 */
export function notReadNote(newest: number, steps: readonly SessionStep[]): string {
  const holder = steps.find((step) => step.folded.includes(newest));
  const where = holder ? `#${newest}, the newest checkpoint, inside the step of #${holder.id}` : `#${newest}, the newest checkpoint`;
  const unknown = steps.some((step) => step.files === null) ? ', "?",' : '';
  return `(counts run to ${where}; what changed since it${unknown} is not read: \`rewind list --now\` counts it)`;
}

export async function main(argv: string[], io: CommandIO): Promise<number> {
  const { values } = parseCommandArgs('list', argv);
  if (values.help) {
    writeLine(io.stdout, commandHelp('list'));
    return 0;
  }
  const { records, spans, now } = await listing(io, values.C, values.now === true);
  const steps = await exactStepCounts(sessionSteps(records, now), records, spans, endTree(records, now));
  if (values.json) {
    const byId = new Map(steps.map((step) => [step.id, step]));
    const confirmedThrough = spans.scanConfirmedThrough();
    const owners = new Map(steps.flatMap((step) => step.folded.map((id) => [id, step.id] as const)));
    const rows = records.map((record, index) => {
      const step = byId.get(record.id);
      const next = records[index + 1];
      return {
        id: record.id,
        time: record.time,
        session: record.session,
        agent: record.agent,
        trigger: record.trigger,
        label: record.label,
        commit: record.commit,
        // A folded checkpoint's own step changed nothing (that is why it is folded); the newest's is what changed since it, read with --now.
        files: step ? step.files : next ? (next.changedSincePrevious ?? 0) : (now?.changedSinceNewest ?? null),
        kind: step ? step.kind : 'folded',
        turn: step?.turn ?? null,
        foldedInto: owners.get(record.id) ?? null,
        skipped: record.skipped,
        conversation: record.conversation,
        imported: record.imported ?? null,
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
  const imported = new Map(records.flatMap((record) => (record.imported ? [[record.id, record.imported.from] as const] : [])));
  for (const step of steps) writeLine(io.stdout, stepLine(step, unrestorable.has(step.id), imported.get(step.id)));
  if (!values.now && (io.stdout as NodeJS.WriteStream).isTTY) writeLine(io.stdout, notReadNote(records.at(-1)?.id ?? 0, steps));
  return 0;
}
