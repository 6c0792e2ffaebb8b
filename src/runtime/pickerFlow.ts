import type { PickerChoice, PickerProps, RestoreMode, ModeState } from '../app/picker/types.js';
import { readRedoStack } from '../checkpoints/restore/redoStack.js';
import { redoLast } from '../checkpoints/restore/redo.js';
import { restoreCheckpoint, type Requester, type RestoreResult } from '../checkpoints/restore/restore.js';
import { messageOf } from '../shared/errors.js';
import { noCheckpointsYet } from '../shared/messages.js';
import type { Checkpointer } from './checkpointer.js';
import type { SessionController } from './controller.js';
import { pickerCheckpoints, PreviewLoader } from './pickerData.js';


/** The picker's data and callbacks, minus what the view adds (size, keys). */
export type PickerModel = Omit<PickerProps, 'width' | 'height' | 'keys'>;

const noConversation: ModeState = { enabled: false, reason: 'this agent has no conversation support in rewind (generic agent): files only' };

/** What the agent allows; the picker itself turns off the file modes of a checkpoint whose files are gone (modeOptions). */
const agentModes: Record<RestoreMode, ModeState> = { both: noConversation, files: { enabled: true }, conversation: noConversation };

function summary(result: RestoreResult, what: string): string {
  const parts = [`${result.changed.length} file(s) written`, `${result.deleted.length} deleted`];
  if (result.leftAlone.length > 0) parts.push(`${result.leftAlone.length} left alone`);
  return `${what}: ${parts.join(', ')} — undo with /redo or Esc Esc → undo last rewind`;
}

/** How long a restore waits for a busy agent to stop after its Ctrl-C. */
const busyWaitMs = 5_000;

/**
 * Stops a busy agent before its files change under it: Ctrl-C, then waits for quiet (with
 * a deadline). Returns what to add to the restore's notice when the agent was still
 * working at the deadline: the restore goes ahead (the user asked for it, and the redo
 * point keeps what it replaces), but the agent may write over what it restored.
 */
async function interruptIfBusy(session: SessionController): Promise<string> {
  if (!session.agentBusy) return '';
  session.say('the agent is busy: stopping it before restoring…', 'warning');
  session.sendToAgent('\x03');
  await session.waitForIdle(busyWaitMs);
  if (!session.agentBusy) return '';
  session.say(`the agent is still busy after ${busyWaitMs / 1000} s: restoring anyway…`, 'warning');
  return ` while the agent was still busy (Ctrl-C did not stop it in ${busyWaitMs / 1000} s: it may write over them)`;
}

/** This session on the checkpoints a restore or redo takes first, as on its other checkpoints. */
export function requesterOf(session: SessionController): Requester {
  return { session: session.sessionId, agent: 'generic' };
}

async function choose(session: SessionController, checkpointer: Checkpointer, choice: PickerChoice): Promise<void> {
  session.closeOverlay();
  try {
    const busyNote = await interruptIfBusy(session);
    const tone = busyNote ? 'warning' : 'info';
    if (choice.kind === 'undo') {
      const result = await session.whileRestoring(() => redoLast(checkpointer.engine, requesterOf(session)));
      checkpointer.refresh();
      session.say(summary(result, `undid the last rewind (back to #${result.checkpoint})${busyNote}`).replace(/ — undo with.*$/, ` — your files before the undo are #${checkpointer.summary.newest?.id ?? '?'}`), tone);
      return;
    }
    if (choice.mode !== 'files') {
      session.say('this agent has no conversation support in rewind: only files can be restored', 'warning');
      return;
    }
    const result = await session.whileRestoring(() => restoreCheckpoint(checkpointer.engine, choice.id, requesterOf(session)));
    checkpointer.refresh();
    session.say(summary(result, `restored the files of #${choice.id}${busyNote}`), tone);
  } catch (error) {
    session.say(messageOf(error), 'error');
  }
}

/**
 * Opens the rewind picker (Esc Esc, /rewind): every checkpoint of the project, newest at
 * the bottom. With none yet it only says so; with checkpointing off it warns.
 */
export async function openPicker(session: SessionController): Promise<void> {
  // Right after start: the session's first checkpoint is moments away.
  await session.checkpointsOpened();
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
  const previews = new PreviewLoader(checkpointer.engine);
  const canUndo = (await readRedoStack(checkpointer.engine.repo)).length > 0;
  const model: PickerModel = {
    checkpoints: pickerCheckpoints(records),
    loadPreview: (id) => previews.load(id),
    modes: () => agentModes,
    canUndo,
    agentBusy: session.agentBusy,
    banner: session.checkpointsOffReason ? `checkpointing is off (${session.checkpointsOffReason}): no new checkpoints are taken` : undefined,
    onChoose: (choice) => void choose(session, checkpointer, choice),
    onClose: () => session.closeOverlay(),
  };
  session.showPicker(model);
  // The newest row's count and files need the work tree as it is now: filled in when known.
  previews
    .workTree()
    .then((now) => session.updatePicker({ checkpoints: pickerCheckpoints(records, now) }))
    .catch(() => undefined);
}
