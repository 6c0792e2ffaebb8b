import type { PickerCheckpoint, PickerChoice, PickerModel, PickerPreview } from '../../app/picker/types.js';
import type { Requester, RestorePreview, RestoreResult } from '../../checkpoints/index.js';
import { plannedPaths, StaleUndoError } from '../../checkpoints/index.js';
import { messageOf } from '../../shared/errors.js';
import { fewPaths, filesChanged, noCheckpointsYet } from '../../shared/messages.js';
import type { Checkpointer } from '../checkpointing/checkpointer.js';
import { exactPickerCheckpoints, pickerCheckpoints, PreviewLoader, rowsOf, undoLines } from './pickerData.js';
import { partsOf, sessionSteps, type StepPart } from '../../services/steps/sessionSteps.js';
import type { SessionPort } from '../session/sessionPort.js';
import { conversationStoreOf, restoreModesOf, withRebuiltConversation } from '../../conversation/conversationRestore.js';
import { conversationRestores } from '../../conversation/restoredConversations.js';
import type { ConversationRestored } from '../../shared/conversation.js';
import { dropRestoreNote, filesRestored, restoreUndone } from '../../hooks/restoreNote.js';
import { revertInSession, revertPlanOf } from './revertFlow.js';
import { conversationCutName, filesAndConversationName, keptRowName, recordsNow, rewindName, rowsNow, stepName } from './stepNames.js';
import { rowName } from '../../app/picker/pickerRows.js';
import { sessionScope } from '../../services/steps/sessionScope.js';

/**
 * What a restore or undo in the app did, in the notice's one shape (see app/noticeFit.ts):
 * writes that raced it, or files it could not check, are part of what happened, so they
 * stay when the notice is shortened.
 */
export function summary(result: RestoreResult, what: string, keptRow?: string): string {
  // The files already matched (they changed meanwhile): nothing was done, nothing to undo.
  if (result.changedNothing) return `${what}: nothing changed (${result.leftAlone.length > 0 ? `${result.leftAlone.length} left alone` : 'the files already matched it'}; no redo point made)`;
  const parts = [filesChanged(result)];
  if (result.leftAlone.length > 0) parts.push(`${result.leftAlone.length} left alone`);
  const counts = parts.join(', ');
  const kept = result.writtenMeanwhile;
  if (kept) {
    // Not undone by /redo (an undo's, a finished one's): the row of the checkpoint they are in.
    const back = result.redo === kept.checkpoint ? '/redo brings them back' : `Esc Esc → ${keptRow ?? `#${kept.checkpoint}`} brings them back`;
    return `${what}, kept ${kept.paths.length} written meanwhile (by something else: ${kept.paths.slice(0, 3).join(', ')}): ${counts} — ${back}`;
  }
  if (result.unchecked) {
    return `${what}, but could not check ${result.unchecked.paths.length} file(s) it replaced for writes made meanwhile (kept as they were in ${result.unchecked.dir}): ${counts} — undo with /redo`;
  }
  return `${what}: ${counts} — undo with /redo or Esc Esc → undo last rewind`;
}

/** The row of the checkpoint holding writes that raced `result` (none: undefined), as the picker now names it. */
function keptRow(checkpointer: Checkpointer, result: RestoreResult): string | undefined {
  return result.writtenMeanwhile ? keptRowName(rowsNow(checkpointer.engine), result.writtenMeanwhile.checkpoint) : undefined;
}

/** A restore's notice tone: a warning when something raced it or could not be checked. */
function toneOf(result: RestoreResult, tone: 'info' | 'warning'): 'info' | 'warning' {
  return result.writtenMeanwhile || result.unchecked ? 'warning' : tone;
}

/** This session on the checkpoints a restore or redo takes first, as on its other checkpoints. */
export function requesterOf(session: SessionPort): Requester {
  return { session: session.sessionId, agent: session.agent.name };
}

/** What the picker showed when Enter was pressed: each row's preview, the undo row's redo point, the rows as they read. */
interface Shown {
  previews: ReadonlyMap<number, PickerPreview>;
  undo: string | undefined;
  rows: readonly PickerCheckpoint[];
  /** The conversation restores made before this one (the turns its notice counts as dropped). */
  restores: readonly ConversationRestored[];
}

async function choose(session: SessionPort, checkpointer: Checkpointer, choice: PickerChoice, shown: Shown): Promise<void> {
  session.closeOverlay();
  try {
    const busyNote = await session.restores.interruptIfBusy();
    const tone = busyNote ? 'warning' : 'info';
    if (choice.kind === 'undo') {
      // The rewind the row named, or none: another one since is not undone unseen, and the picker shows the new one.
      try {
        await undoLastRewind(session, checkpointer, busyNote, shown.undo);
      } catch (error) {
        if (!(error instanceof StaleUndoError)) throw error;
        await openPicker(session, undefined, 'not undone: the rewinds to undo changed meanwhile; look again, then Enter');
      }
      return;
    }
    if (choice.kind === 'revert') {
      const { what, result } = await revertInSession(session, checkpointer, choice.id, choice.conflicts, requesterOf(session), shown.rows);
      session.say(summary(result.restore, `${what}${busyNote}`, keptRow(checkpointer, result.restore)), toneOf(result.restore, tone));
      return;
    }
    const only = choice.only ?? [];
    // Named as the rows the user chose from name them (the newest row as the files then were).
    const { rows } = shown;
    const name = stepName(rows, choice.id);
    const plan = choice.mode === 'conversation' ? undefined : await planOf(checkpointer, choice.id, only);
    // The files changed while the picker was open (the agent went on): never a restore of more
    // than it showed. It opens again on that row, with what the restore does now.
    const unseen = plan ? beyondShown(plan, shown.previews.get(choice.id)) : [];
    if (unseen.length > 0) {
      await openPicker(session, choice.id, `the files changed meanwhile: this row now also changes ${fewPaths(unseen)}; look again, then Enter`);
      return;
    }
    // A restore that would change no file is not made (it would leave a redo point for nothing).
    const filesMatch = plan !== undefined && plan.writes.length + plan.deletes.length === 0;
    const nothingToRestore = (note = '') => `nothing to restore to just before ${name}: the ${only.length > 0 ? 'chosen ' : ''}files already match it (no redo point made)${note}`;
    if (choice.mode === 'files' && filesMatch) {
      session.say(nothingToRestore(), 'info');
      return;
    }
    if (choice.mode === 'files') {
      const result = await session.restores.whileRestoring((changed) => checkpointer.engine.restore(choice.id, { ...requesterOf(session), ...changed, ...(only.length > 0 ? { only } : {}) }));
      await afterRewind(checkpointer, busyNote === '' && !result.changedNothing);
      const which = only.length > 0 ? `${only.length} chosen file(s)` : 'the files';
      // The files came to match it meanwhile (a race with the check above): said as that check says it.
      if (result.changedNothing && result.leftAlone.length === 0) {
        session.say(nothingToRestore(busyNote), tone);
        return;
      }
      session.say(summary(result, `restored ${which} to just before ${name}${filesRestored(session.agent, checkpointer.engine, choice.id, result, name, only.length > 0)}${busyNote}`, keptRow(checkpointer, result)), toneOf(result, tone));
      return;
    }
    // The conversation is rebuilt and written (a new file) before the files change: if it cannot be, nothing does.
    const record = checkpointer.engine.get(choice.id);
    const withFiles = choice.mode === 'both' && !filesMatch;
    const { rebuilt, applied: files } = await withRebuiltConversation(
      session.agent,
      record,
      conversationStoreOf(checkpointer.engine),
      () => (withFiles ? session.restores.whileRestoring((changed) => checkpointer.engine.restore(choice.id, { ...requesterOf(session), ...changed })) : Promise.resolve(undefined)),
      { newest: () => checkpointer.engine.list().at(-1)?.id },
    );
    await afterRewind(checkpointer, files !== undefined && busyNote === '' && !files.changedNothing);
    dropRestoreNote(session.agent);
    // Through the guard: an adapter failing here starts the agent with the user's own arguments (a new conversation; the rebuilt one stays on disk).
    await session.restartAgent((userArgs) => session.agent.call('resuming the agent', (adapter) => adapter.conversation?.resumeArgs(userArgs, rebuilt.session) ?? [...userArgs], () => [...userArgs]), rebuilt.session);
    const afresh = 'started the agent afresh (no message was left at that point)';
    const untouched = filesMatch ? 'your files already matched it' : 'your files are untouched';
    if (!files) {
      session.say(`${rebuilt.session === undefined ? afresh : `restored the conversation ${conversationCutName(rows, choice.id, shown.restores)}`}${busyNote}; ${untouched}`, tone);
      return;
    }
    const what = rebuilt.session === undefined ? `restored the files to just before ${name} and ${afresh}` : `restored ${filesAndConversationName(rows, choice.id, shown.restores)}`;
    session.say(summary(files, `${what}${busyNote}`, keptRow(checkpointer, files)), toneOf(files, tone));
  } catch (error) {
    session.say(messageOf(error), 'error');
  }
}

/**
 * After a rewind this flow made (`made`: it restored files, with no agent still writing: the
 * busy note), the files as it left them, checkpointed when exactly known (see
 * ProjectCheckpoints.recordRewound: your next edits are then a step of their own, not the
 * rewind's); a failure there only leaves them in the rewind's step, as before. Then the list
 * is read again.
 */
async function afterRewind(checkpointer: Checkpointer, made: boolean): Promise<void> {
  if (made) await checkpointer.engine.recordRewound().catch(() => undefined);
  checkpointer.refresh();
}

/**
 * Undoes the last rewind (the picker's undo row, `/redo`), after the agent was stopped
 * (`busyNote`: what that said); with `expected`, that rewind's redo point or none.
 */
export async function undoLastRewind(session: SessionPort, checkpointer: Checkpointer, busyNote: string, expected?: string): Promise<void> {
  const records = recordsNow(checkpointer.engine);
  const rows = pickerCheckpoints(records);
  const result = await session.restores.whileRestoring((changed) => checkpointer.engine.redo({ ...requesterOf(session), ...changed }, expected));
  await afterRewind(checkpointer, busyNote === '' && result.before !== null);
  const tellAgent = restoreUndone(session.agent, result);
  // The rewind named by the step it went back to, as its row was; the files before the undo are the new row `undo of …`.
  const rewind = rewindName(rows, records, result.checkpoint);
  if (result.before === null) {
    // The files were already as they were before it: no file changed and no row was made, so there is no undo to take back.
    const files = result.leftAlone.length > 0 ? `nothing changed, ${result.leftAlone.length} left alone` : 'the files already were as they were before it';
    session.say(`undid ${rewind} (${files}; the conversation stays as it is)${tellAgent}${busyNote}`, toneOf(result, busyNote ? 'warning' : 'info'));
    return;
  }
  // What changed since that rewind (the agent went on, or you did) is taken back too: said, with where it is kept.
  // Its files are an aside, so that at 80 columns `undid the rewind and later changes` and the way back both fit.
  const since = result.changedSince.length > 0 ? ` and later changes (to ${fewPaths(result.changedSince)})` : '';
  const what = `undid ${rewind} (the files; the conversation stays as it is)${since}${tellAgent}${busyNote}`;
  const back = since ? ' — Esc Esc → “undo of …” brings them back' : ' — Esc Esc → “undo of …” takes the undo back';
  const said = summary(result, what, keptRow(checkpointer, result)).replace(/ — undo with.*$/, back);
  session.say(said, toneOf(result, busyNote ? 'warning' : 'info'));
}

/** What restoring `id` now would write and delete (undefined: a plan that cannot be made, which the restore then says). */
async function planOf(checkpointer: Checkpointer, id: number, only: readonly string[]): Promise<RestorePreview | undefined> {
  try {
    return (await checkpointer.engine.plan(id, only)).preview;
  } catch {
    return undefined;
  }
}

/** The paths `plan` writes or deletes that the preview shown for it did not list (none when no preview was shown). */
function beyondShown(plan: RestorePreview, preview: PickerPreview | undefined): string[] {
  if (!preview || preview.error !== undefined) return [];
  const seen = new Set(preview.files.map((file) => file.path));
  return plannedPaths(plan).filter((file) => !seen.has(file));
}

/** One checkpoint's own step as `d` shows it: a header naming it as its row does (`title`), and git's lines. */
async function partLines(checkpointer: Checkpointer, { id, through }: StepPart, title: string | undefined): Promise<{ header: string; diff: string[] }> {
  const step = await checkpointer.engine.stepDiff(id, [], ['--no-color', '-p'], through);
  const record = step.record;
  const upTo = step.to ? '' : ' (up to the files as they are now)';
  const diff = step.diff.toString('utf8').split('\n');
  if (diff.at(-1) === '') diff.pop();
  return { header: `# ${title ?? (record.label || record.trigger)}${upTo}`, diff };
}

/**
 * The diff of step `id` as the picker's `d` shows it: its own step's, and for a turn each of
 * its steps' after it, in order (a header before each; a part that changed nothing is left
 * out), as `rewind show` prints them.
 */
export async function stepDiffLines(checkpointer: Checkpointer, id: number): Promise<string[]> {
  const records = checkpointer.engine.list();
  const steps = sessionSteps(records);
  const titles = new Map(rowsOf(records, steps).map((row) => [row.id, rowName(row)]));
  const parts: { header: string; diff: string[] }[] = [];
  for (const part of partsOf(steps, id)) parts.push(await partLines(checkpointer, part, titles.get(part.id)));
  const changed = parts.filter((part) => part.diff.length > 0);
  if (changed.length === 0) return [parts[0]?.header ?? `# #${id}`, '(this step changed no files)'];
  return changed.flatMap((part) => [part.header, ...part.diff]);
}

/** A checkpoint the next opening of the picker starts at (once), when something offered it (a bisect's find). */
const offers = new WeakMap<SessionPort, number>();

/** The next picker opened without a checkpoint of its own (Esc Esc) starts at `id`. */
export function offerPickerAt(session: SessionPort, id: number): void {
  offers.set(session, id);
}

/**
 * Opens the rewind picker (Esc Esc, /rewind): every checkpoint of the project, newest at
 * the bottom (or `selectId` selected), `notice` across its top. With none yet it only says
 * so; with checkpointing off it warns.
 */
export async function openPicker(session: SessionPort, selectId: number | undefined = offers.get(session), notice?: string): Promise<void> {
  offers.delete(session);
  // Right after start the session's first checkpoint is being taken (a scan of every file: seconds
  // on a big project): the picker opens on the checkpoints listed already and takes that one in
  // once it is there. With none listed yet, it waits for it.
  const opened = session.checkpointsOpened();
  const early = session.checkpoints;
  if (!early || !hasCheckpoints(early)) await opened;
  const checkpointer = session.checkpoints;
  if (!checkpointer) {
    session.say(`checkpoints are off: ${session.checkpointsOffReason ?? ''}`, 'warning');
    return;
  }
  let records;
  try {
    records = checkpointer.engine.list();
  } catch (error) {
    session.say(messageOf(error), 'error');
    return;
  }
  if (records.length === 0) {
    session.say(noCheckpointsYet, 'warning');
    return;
  }
  const previews = new PreviewLoader(checkpointer.engine, opened);
  // What each row's preview showed: a restore chosen is checked against it (choose).
  const previewsShown = new Map<number, PickerPreview>();
  // The redo point the undo row showed (its ref), once read: the undo undoes that one or none.
  let undoShown: string | undefined;
  const rows = pickerCheckpoints(records);
  // The rows as the picker last drew them: a restore's notice names the step as its row read.
  let rowsShown: readonly PickerCheckpoint[] = rows;
  const showRows = (checkpoints: PickerCheckpoint[]) => {
    rowsShown = checkpoints;
    session.updatePicker({ checkpoints });
  };
  const restores = conversationRestores(conversationStoreOf(checkpointer.engine).dir);
  const undoPoint = await checkpointer.engine.undoPoint();
  const canUndo = undoPoint !== undefined;
  const model: PickerModel = {
    checkpoints: rows,
    loadPreview: async (id) => {
      const preview = await previews.load(id);
      previewsShown.set(id, preview);
      return preview;
    },
    modes: (id) => restoreModesOf(session.agent, checkpointer.engine.get(id), conversationStoreOf(checkpointer.engine)),
    canUndo,
    undoPoint,
    // What the undo row undoes (the one the undo then undoes) and the files it changes.
    loadUndo: async () => {
      // From the work tree the rows' previews read: opening on this row after a rewind reads it once.
      const redo = await checkpointer.engine.previewRedo(await previews.workTree());
      undoShown = redo.point.ref;
      return undoLines(redo, rows.find((row) => row.id === redo.point.checkpoint)?.label);
    },
    loadStepDiff: (id) => stepDiffLines(checkpointer, id),
    loadRevertPlan: (id) => revertPlanOf(checkpointer, id, rowsShown),
    loadSessionFiles: async (id) => (await sessionScope(checkpointer.engine, id, session.sessionId)).paths,
    selectId,
    conversationRestores: restores,
    agentBusy: session.agentBusy,
    banner: [notice, session.checkpointsOffReason && `checkpointing is off (${session.checkpointsOffReason}): no new checkpoints are taken`].filter(Boolean).join(' · ') || undefined,
    // Read as Enter is pressed: this picker's own, whatever opens later.
    onChoose: (choice) => void choose(session, checkpointer, choice, { previews: previewsShown, undo: undoShown, rows: rowsShown, restores }),
    onClose: () => session.closeOverlay(),
  };
  session.showPicker(model);
  // The session's first checkpoint, if it was still being taken: its row, as soon as it is there.
  const shown = records;
  void opened
    .then(() => {
      const now = checkpointer.engine.list();
      if (now.length !== shown.length || now.at(-1)?.id !== shown.at(-1)?.id) showRows(pickerCheckpoints(now));
    })
    .catch(() => undefined);
  // The newest row's count needs the work tree as it is now (a scan of every file, begun once the
  // picker is shown, after the session's first checkpoint), and a turn's its diff: filled in when
  // known, on the list as it is then.
  previews
    .workTree()
    .then((now) => exactPickerCheckpoints(checkpointer.engine, checkpointer.engine.list(), now))
    .then(showRows)
    .catch(() => undefined);
}

/** Whether any checkpoint is listed (an unreadable list: none, the picker then says why). */
function hasCheckpoints(checkpointer: Checkpointer): boolean {
  try {
    return checkpointer.engine.list().length > 0;
  } catch {
    return false;
  }
}
