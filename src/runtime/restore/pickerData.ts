import fs from 'node:fs';
import path from 'node:path';
import { whyUnrestorable, type CheckpointRecord, type CurrentTree, type LeftAlone, type ProjectCheckpoints, type RedoPreview } from '../../checkpoints/index.js';
import type { PickerCheckpoint, PickerPreview } from '../../app/picker/types.js';
import { messageOf } from '../../shared/errors.js';
import { localTime } from '../../shared/time.js';
import { isRewindTitle, sessionSteps, type SessionStep } from '../../services/steps/sessionSteps.js';
import { exactStepCounts } from '../../services/steps/stepCounts.js';

/** What changed in the work tree since the newest checkpoint: the newest row's step. */
export type SinceNewest = Pick<CurrentTree, 'changedSinceNewest' | 'changedPathsSinceNewest'>;

/**
 * The picker's rows from the checkpoint list: the session's steps (sessionSteps), each with
 * the counts of that same step; the newest step's count and files need the live work tree
 * (`now`) and are filled in when known, as are the exact counts of the steps that span
 * several checkpoints (exactPickerCheckpoints).
 */
export function pickerCheckpoints(records: readonly CheckpointRecord[], now?: SinceNewest): PickerCheckpoint[] {
  return rowsOf(records, sessionSteps(records, now));
}

/** The picker's rows with the work tree as it is now and every turn's count from its diff. */
export async function exactPickerCheckpoints(engine: ProjectCheckpoints, records: readonly CheckpointRecord[], now: CurrentTree): Promise<PickerCheckpoint[]> {
  return rowsOf(records, await exactStepCounts(sessionSteps(records, now), records, engine, now.tree));
}

/** The picker's rows of `steps` (sessionSteps of `records`), one each. */
export function rowsOf(records: readonly CheckpointRecord[], steps: readonly SessionStep[]): PickerCheckpoint[] {
  const byId = new Map(records.map((record) => [record.id, record]));
  return steps.map((step) => {
    const record = byId.get(step.id) as CheckpointRecord;
    return {
      id: step.id,
      time: step.time,
      label: step.title,
      trigger: step.trigger,
      session: step.session,
      ...(record.imported ? { importedFrom: record.imported.from } : {}),
      kind: step.kind,
      ...(step.turn !== undefined ? { turn: step.turn } : {}),
      ...(step.steps !== undefined ? { steps: step.steps.length } : {}),
      files: step.files,
      ...(step.more ? { more: true } : {}),
      paths: step.paths,
      unrestorable: record.unrestorable,
      ...(record.unrestorable ? { unrestorableReason: whyUnrestorable(record) } : {}),
    };
  });
}

type Status = PickerPreview['files'][number]['status'];

/** Parses `diff-tree -r -z --raw --numstat` output: raw records, then numstat records. */
export function parseRawNumstat(output: Buffer): PickerPreview['files'] {
  const parts = output.toString('utf8').split('\0');
  const files: PickerPreview['files'] = [];
  const byPath = new Map<string, PickerPreview['files'][number]>();
  let i = 0;
  for (; i + 1 < parts.length && parts[i]?.startsWith(':'); i += 2) {
    const status = (parts[i]?.split(' ')[4] ?? 'M').charAt(0) as Status;
    const entry = { path: parts[i + 1] ?? '', status, added: null, removed: null };
    files.push(entry);
    byPath.set(entry.path, entry);
  }
  for (; i < parts.length; i++) {
    const match = /^(\d+|-)\t(\d+|-)\t(.*)$/s.exec(parts[i] ?? '');
    const entry = match ? byPath.get(match[3] ?? '') : undefined;
    if (!match || !entry) continue;
    entry.added = match[1] === '-' ? null : Number(match[1]);
    entry.removed = match[2] === '-' ? null : Number(match[2]);
  }
  return files;
}

/** A left-alone path as the preview lists it: with the left-out files, its size on disk and why. */
function leftAloneRow(root: string, item: LeftAlone): PickerPreview['skipped'][number] {
  let bytes = 0;
  try {
    const stat = fs.lstatSync(path.join(root, item.path));
    if (!stat.isDirectory()) bytes = stat.size;
  } catch {
    // Not on disk (it is only in the checkpoint): nothing to size.
  }
  return { path: item.path, bytes, reason: item.reason };
}

/**
 * Previews for one opening of the picker: the work tree is read once (as a tree, under the
 * lock), then each preview is the restore's own plan from it (planFrom: the same one
 * `rewind restore`, `--dry-run` and `rewind diff` show), with the +/- counts of exactly
 * the files it changes. The picker keeps the previews it loaded (usePreview): they are
 * not cached here too.
 */
export class PreviewLoader {
  private current: Promise<CurrentTree> | undefined;

  /** `ready`: the session's first checkpoint is taken (the work tree is read after it, against it). */
  constructor(
    private readonly engine: ProjectCheckpoints,
    private readonly ready: Promise<void> = Promise.resolve(),
  ) {}

  /** The work tree now, and which files differ from the newest checkpoint. */
  workTree(): Promise<CurrentTree> {
    this.current ??= this.ready.then(() => this.engine.currentTree());
    return this.current;
  }

  /** What restoring checkpoint `id` would change; a preview that cannot be made says why in `error`. */
  async load(id: number): Promise<PickerPreview> {
    try {
      const target = this.engine.get(id);
      const unrestorable = whyUnrestorable(target);
      if (unrestorable !== undefined) return { files: [], skipped: [], unsaved: [], error: unrestorable };
      const now = await this.workTree();
      const plan = await this.engine.planFrom(now, id);
      const diff = await this.engine.planDiff(now.tree, id, plan, [], ['-z', '--raw', '--numstat']);
      const root = this.engine.projectRoot;
      return { files: parseRawNumstat(diff), skipped: [...plan.skipped, ...plan.leftAlone.map((item) => leftAloneRow(root, item))], unsaved: plan.unsaved };
    } catch (error) {
      return { files: [], skipped: [], unsaved: [], error: messageOf(error) };
    }
  }
}

/** The undo row's note on the files changed since the rewind it undoes. */
export const CHANGED_SINCE_NOTE = '! changed since the rewind: taken back too, kept in “undo of …”';

/**
 * What the picker's undo row does (the plan `rewind redo --dry-run` shows): which rewind it
 * undoes, that it puts the files back and leaves the conversation, and each file it changes.
 */
export function undoLines(redo: RedoPreview, rewindRow?: string): string[] {
  // The rewind as its own row reads (`rewind to just before prompt "fix it"`), when it does.
  const named = isRewindTitle(rewindRow);
  const which = named ? `the ${rewindRow}` : redo.restored === null ? 'the last rewind' : `the rewind to #${redo.restored}`;
  // Marked `!`: changed since that rewind (by the agent or by hand), which the undo takes back too.
  const since = new Set(redo.changedSince);
  const line = (status: string, file: string) => `${since.has(file) ? '!' : ' '} ${status} ${file}`;
  const files = [...redo.preview.writes.map((write) => line(write.creates ? 'A' : 'M', write.path)), ...redo.preview.deletes.map((file) => line('D', file))];
  return [
    `undo ${which} (${localTime(redo.time)}):`,
    `your files as they were just before it${named ? '' : ` (#${redo.back.id})`}; the conversation stays as it is`,
    files.length === 0 ? 'it changes no file: they are already so' : `it changes ${files.length} file(s):`,
    ...(since.size > 0 ? [CHANGED_SINCE_NOTE] : []),
    ...files,
  ];
}
