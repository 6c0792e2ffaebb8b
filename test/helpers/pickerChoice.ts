// A choice made in the app's picker, as the user makes it: the picker opened, the choice
// given to it, and the notice it ends with (waited for, with a deadline).
import type { PickerChoice } from '../../src/app/picker/types.js';
import { openPicker } from '../../src/runtime/restore/pickerFlow.js';
import type { SessionController } from '../../src/runtime/session/controller.js';
import type { SessionStart, sessionSandbox } from './session.js';
import { waitFor } from './waitFor.js';

/** Opens the picker, chooses `choice`, and returns the notice once it matches `notice`. */
export async function chooseInPicker(session: SessionController, choice: PickerChoice, notice: RegExp): Promise<string> {
  void openPicker(session);
  await waitFor(() => session.view().picker !== undefined, 5_000, 'the picker');
  session.view().picker?.onChoose(choice);
  await waitFor(() => notice.test(session.view().status.notice?.text ?? ''), 20_000, `the notice ${String(notice)}`);
  return session.view().status.notice?.text ?? '';
}

/** A started session (an idle `sh` as its agent) with its checkpoints open and its first one taken. */
export async function idleSessionWithCheckpoints(start: () => Promise<SessionStart>): Promise<SessionController> {
  const { session, openCheckpoints } = await start();
  session.attachCheckpoints(await openCheckpoints());
  await session.checkpointsOpened();
  return session;
}

/** In `root`, a session whose agent is an idle `sh` (it writes nothing), its checkpoints open: the session and its engine. */
export async function idleShSession(sessions: ReturnType<typeof sessionSandbox>, root: string) {
  const current = await idleSessionWithCheckpoints(() => sessions.start(root, 'sh', ['-c', 'while :; do sleep 1; done']));
  const engine = current.checkpoints?.engine;
  if (!engine) throw new Error('no checkpoints');
  return { current, engine };
}
