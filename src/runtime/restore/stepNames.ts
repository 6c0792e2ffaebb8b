// How the app's notices name the step a rewind went back to: as the picker's rows name it
// (rows show no checkpoint ids), the free text quoted so that app/noticeFit.ts shortens the
// notice around it, never inside it.
import { cutToWidth } from '../../app/picker/cut.js';
import { conversationDrop, turnsDropped } from '../../app/picker/conversationCut.js';
import { checkpointTitle } from '../../app/picker/pickerRows.js';
import type { PickerCheckpoint } from '../../app/picker/types.js';
import type { ConversationRestored } from '../../shared/conversation.js';
import type { CheckpointRecord, ProjectCheckpoints } from '../../checkpoints/index.js';
import { rewindOf } from '../../services/steps/sessionSteps.js';
import { pickerCheckpoints } from './pickerData.js';

/** How much of a step's title a notice quotes. */
const NAME_ROOM = 40;

/** `“text”`, on one line, cut to NAME_ROOM; quotation marks of its own become plain ones. */
function quotedName(text: string): string {
  return `“${cutToWidth(text.replace(/[“”]/g, '"'), NAME_ROOM)}”`;
}

/**
 * A step as a notice names it: `prompt “fix the bug”` for a turn, `“session start”` for a
 * session's start (its row may go on `, then edits outside any step: …`, which a rewind to it
 * takes back too), `“Edit a.txt”` for another row, `#7` for an id that is no row.
 */
export function stepName(rows: readonly PickerCheckpoint[], id: number): string {
  const row = rows.find((candidate) => candidate.id === id);
  if (!row) return `#${id}`;
  const title = checkpointTitle(row);
  if (row.kind === 'turn') return `prompt ${quotedName(title)}`;
  return quotedName(row.kind === 'start' ? (title.split(', then ')[0] ?? title) : title);
}

/**
 * Where a conversation restore of step `id` cut it, as its notice says: `to before prompt
 * “fix it” (2 turns dropped)`; `restores`: those made before it (conversationDrop).
 */
export function conversationCutName(rows: readonly PickerCheckpoint[], id: number, restores: readonly ConversationRestored[] = []): string {
  const cut = conversationDrop(rows, id, restores);
  if (!cut) return `to where it stood at #${id}`;
  const where = cut.before === cut.step && cut.step.kind !== 'turn' ? `to just before ${stepName(rows, id)}` : `to before ${stepName(rows, cut.before.id)}`;
  return `${where} (${turnsDropped(cut)})`;
}

/**
 * What a restore of both of step `id` put back, as its notice says: `the files and the
 * conversation to before prompt “fix it” (…)` when both go to one point (a turn, a step in no
 * turn), else `the files to just before “Edit a.txt” and the conversation to before prompt …`.
 */
export function filesAndConversationName(rows: readonly PickerCheckpoint[], id: number, restores: readonly ConversationRestored[] = []): string {
  const cut = conversationCutName(rows, id, restores);
  return conversationDrop(rows, id)?.before.id === id ? `the files and the conversation ${cut}` : `the files to just before ${stepName(rows, id)} and the conversation ${cut}`;
}

/** The picker's rows as they are now, to name steps by (none when the list cannot be read: ids then). */
export function rowsNow(engine: Pick<ProjectCheckpoints, 'list'>): PickerCheckpoint[] {
  return pickerCheckpoints(recordsNow(engine));
}

/**
 * The rewind whose redo point is checkpoint `redoPoint`, as the undo's notice names it: `the
 * rewind to just before “Bash rm -rf tests”`, `the revert of “Edit a.txt”` (`rows`,
 * `records`: before the undo).
 */
export function rewindName(rows: readonly PickerCheckpoint[], records: readonly CheckpointRecord[], redoPoint: number): string {
  const rewind = rewindOf(records.find((record) => record.id === redoPoint), records);
  if (rewind?.what === 'reverting' || rewind?.what === 'raced revert') return `the revert of ${revertName(rows, rewind.id)}`;
  // A redo point that writes racing the restore moved on top of: still that restore's.
  if (rewind?.what === 'restoring' || rewind?.what === 'raced') return `the rewind ${rewind.chosen ? 'of chosen files ' : ''}to just before ${stepName(rows, rewind.id)}`;
  return 'the last rewind';
}

/** The step a revert takes back, as a notice names it: a turn is `the turn of prompt “fix it”` (its prompt is not what goes). */
export function revertName(rows: readonly PickerCheckpoint[], id: number): string {
  const name = stepName(rows, id);
  return rows.find((row) => row.id === id)?.kind === 'turn' ? `the turn of ${name}` : name;
}

/** The row of checkpoint `id` (writes that raced a rewind), as a notice points to it: `“undo of the rewind to …”`, cut; `#id` for none. */
export function keptRowName(rows: readonly PickerCheckpoint[], id: number): string {
  const row = rows.find((candidate) => candidate.id === id);
  return row ? quotedName(checkpointTitle(row)) : `#${id}`;
}

/** The checkpoint list now (none when it cannot be read: the names fall back to ids). */
export function recordsNow(engine: Pick<ProjectCheckpoints, 'list'>): CheckpointRecord[] {
  try {
    return engine.list();
  } catch {
    return [];
  }
}
