// A restore chosen in the picker while the agent works: the agent gets Ctrl-C first, and an
// agent still working when the wait for it ends is named in what the restore says.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PickerChoice } from '../../src/app/picker/types.js';
import type { SessionController } from '../../src/runtime/session/controller.js';
import { runAppCommand } from '../../src/runtime/session/appCommands.js';
import { openPicker } from '../../src/runtime/restore/pickerFlow.js';
import { sessionSandbox } from '../helpers/session.js';
import { holdLock } from '../helpers/holdLock.js';
import { waitFor } from '../helpers/waitFor.js';
import { write } from '../helpers/tempRepo.js';

const sessions = sessionSandbox('rewind-picker-flow-');

/** The app's session around `script` (sh) as the agent, with its first checkpoint taken. */
async function startSession(root: string, script: string): Promise<SessionController> {
  const { session, openCheckpoints } = await sessions.start(root, 'sh', ['-c', script]);
  session.attachCheckpoints(await openCheckpoints());
  await session.checkpointsOpened();
  return session;
}

/** The session's engine (its checkpoints are open). */
function engineOf(current: SessionController) {
  const checkpointer = current.checkpoints;
  if (!checkpointer) throw new Error('no checkpoints');
  return checkpointer.engine;
}

/** A session whose a.txt, made after its first checkpoint, a rewind to #1 (another Rewind's) removed. */
async function afterARewind(name: string) {
  const root = sessions.sandbox().repo(name);
  const current = await startSession(root, 'while :; do sleep 1; done');
  const engine = () => engineOf(current);
  write(root, 'a.txt', 'made after the first checkpoint\n');
  await engine().restore(1);
  return { root, current, engine };
}

/** Restores #1's files from the picker and returns the notice it ends with. */
async function restoreFirst(current: SessionController): Promise<{ text: string; tone: string }> {
  await waitFor(() => current.agentBusy, 5_000, 'the agent to be busy');
  void openPicker(current);
  await waitFor(() => current.view().picker !== undefined, 5_000, 'the picker');
  current.view().picker?.onChoose({ kind: 'restore', id: 1, mode: 'files' });
  await waitFor(() => /restored the files to just before “session start”/.test(current.view().status.notice?.text ?? ''), 20_000, 'the restore notice');
  const notice = current.view().status.notice;
  if (!notice) throw new Error('no notice');
  return notice;
}

const ticking = 'while :; do echo tick; sleep 0.1; done';

describe('restoring from the picker while the agent is busy', () => {
  it('says so when Ctrl-C did not stop the agent, and restores all the same', async () => {
    const root = sessions.sandbox().repo('deaf');
    const current = await startSession(root, `trap '' INT; ${ticking}`);
    write(root, 'a.txt', 'made after the first checkpoint\n');
    const notice = await restoreFirst(current);
    expect(notice.text).toMatch(/^restored the files to just before “session start” \(tell the agent its edits after it are gone\) while the agent was still busy \(Ctrl-C did not stop it in 5 s: it may write over them\): 1 file\(s\) changed \(0 written, 1 deleted\)/);
    expect(notice.tone).toBe('warning');
    expect(fs.existsSync(path.join(root, 'a.txt'))).toBe(false);
  }, 30_000);

  it('says nothing of it when Ctrl-C stopped the agent', async () => {
    const root = sessions.sandbox().repo('stops');
    const current = await startSession(root, ticking);
    write(root, 'a.txt', 'made after the first checkpoint\n');
    const notice = await restoreFirst(current);
    expect(notice).toEqual({ text: expect.stringMatching(/^restored the files to just before “session start” \(tell the agent its edits after it are gone\): 1 file\(s\) changed \(0 written, 1 deleted\)/) as unknown, tone: 'info' });
    expect(fs.existsSync(path.join(root, 'a.txt'))).toBe(false);
  }, 30_000);
});

describe("the app's restores and redos are this session's", () => {
  it('the checkpoints a restore, an undo from the picker and /redo take first carry the session and the agent', async () => {
    const root = sessions.sandbox().repo('session');
    const current = await startSession(root, 'while :; do sleep 1; done');
    write(root, 'a.txt', 'made after the first checkpoint\n');
    const engine = () => engineOf(current);
    // The checkpoint each took first (the files as it left them are recorded on top of it: rewound.ts).
    const newest = () => engine().list().filter((record) => record.trigger !== 'rewound').at(-1);
    const pick = async (choice: PickerChoice, notice: RegExp) => {
      void openPicker(current);
      await waitFor(() => current.view().picker !== undefined, 5_000, 'the picker');
      current.view().picker?.onChoose(choice);
      await waitFor(() => notice.test(current.view().status.notice?.text ?? ''), 20_000, `the notice ${String(notice)}`);
    };

    await pick({ kind: 'restore', id: 1, mode: 'files' }, /restored the files to just before “session start”/);
    expect(newest()).toMatchObject({ trigger: 'restore', session: 'test-session', agent: 'generic' });
    expect(engine().list().at(-1)).toMatchObject({ trigger: 'rewound', session: 'test-session', agent: 'generic' });
    await pick({ kind: 'undo' }, /undid the rewind to just before “session start”/);
    expect(newest()).toMatchObject({ trigger: 'redo', session: 'test-session', agent: 'generic' });
    await pick({ kind: 'restore', id: 1, mode: 'files' }, /restored the files to just before “session start”/);
    const before = newest()?.id;
    await runAppCommand(current, 'redo', '');
    expect(newest()?.id).not.toBe(before);
    expect(newest()).toMatchObject({ trigger: 'redo', session: 'test-session', agent: 'generic' });
    // /redo says what the picker's undo says: the rewind it undid, as its row names it, and how to take the undo back.
    expect(current.recentNotices.at(-1)?.text).toBe('undid the rewind to just before “session start” (the files; the conversation stays as it is): 1 file(s) changed (1 written, 0 deleted) — Esc Esc → “undo of …” takes the undo back');
  }, 60_000);
});


describe('a restore from the picker that would change nothing', () => {
  it('is not made: it says so, takes no redo point and leaves nothing for /redo', async () => {
    const root = sessions.sandbox().repo('nothing');
    const current = await startSession(root, 'while :; do sleep 1; done');
    const engine = () => engineOf(current);
    const before = engine().list().length;
    void openPicker(current);
    await waitFor(() => current.view().picker !== undefined, 5_000, 'the picker');
    current.view().picker?.onChoose({ kind: 'restore', id: 1, mode: 'files' });
    await waitFor(() => /nothing to restore/.test(current.view().status.notice?.text ?? ''), 20_000, 'the notice');
    expect(current.view().status.notice?.text).toBe('nothing to restore to just before “session start”: the files already match it (no redo point made)');
    expect(engine().list()).toHaveLength(before);
    expect(await engine().canUndo()).toBe(false);
  }, 30_000);
});

describe('an undo from the picker that would change nothing', () => {
  it('undoes the rewind without a row for nothing: it says the files already were so, and offers no undo of it', async () => {
    const { root, current, engine } = await afterARewind('undo-nothing');
    // The rewind removed a.txt; it is written back by hand, as it was before the rewind.
    write(root, 'a.txt', 'made after the first checkpoint\n');
    const before = engine().list().length;
    void openPicker(current);
    await waitFor(() => current.view().picker !== undefined, 5_000, 'the picker');
    current.view().picker?.onChoose({ kind: 'undo' });
    await waitFor(() => /^undid /.test(current.view().status.notice?.text ?? ''), 20_000, 'the undo notice');
    expect(current.view().status.notice?.text).toBe('undid the rewind to just before “session start” (the files already were as they were before it; the conversation stays as it is)');
    expect(engine().list()).toHaveLength(before);
    expect(await engine().canUndo()).toBe(false);
  }, 30_000);
});

describe('a restore chosen after the files changed while the picker was open', () => {
  it('is not made: the picker opens again on that row, saying what the restore now also changes; chosen again, it is made', async () => {
    const root = sessions.sandbox().repo('stale-preview');
    const current = await startSession(root, 'while :; do sleep 1; done');
    const engine = () => engineOf(current);
    write(root, 'a.txt', 'made after the first checkpoint\n');
    void openPicker(current);
    await waitFor(() => current.view().picker !== undefined, 5_000, 'the picker');
    const shown = await current.view().picker?.loadPreview(1);
    expect(shown?.files.map((file) => [file.status, file.path])).toEqual([['D', 'a.txt']]);
    // The agent goes on while the picker is open.
    write(root, 'b.txt', 'written while the picker was open\n');
    const before = engine().list().length;
    const stale = current.view().picker;
    stale?.onChoose({ kind: 'restore', id: 1, mode: 'files' });
    await waitFor(() => current.view().picker !== undefined && current.view().picker !== stale, 20_000, 'the picker opened again');
    expect(current.view().picker?.banner).toBe('the files changed meanwhile: this row now also changes b.txt; look again, then Enter');
    expect(current.view().picker?.selectId).toBe(1);
    expect(fs.existsSync(path.join(root, 'a.txt')) && fs.existsSync(path.join(root, 'b.txt'))).toBe(true);
    expect(engine().list()).toHaveLength(before);
    const fresh = await current.view().picker?.loadPreview(1);
    expect(fresh?.files.map((file) => file.path)).toEqual(['a.txt', 'b.txt']);
    current.view().picker?.onChoose({ kind: 'restore', id: 1, mode: 'files' });
    await waitFor(() => /restored the files to just before “session start”/.test(current.view().status.notice?.text ?? ''), 20_000, 'the restore notice');
    expect(fs.existsSync(path.join(root, 'a.txt')) || fs.existsSync(path.join(root, 'b.txt'))).toBe(false);
  }, 60_000);
});

describe('/redo with no rewind to undo', () => {
  it('says so at once: a busy agent is not stopped for it', async () => {
    const root = sessions.sandbox().repo('redo-nothing');
    const current = await startSession(root, ticking);
    await waitFor(() => current.agentBusy, 5_000, 'the agent to be busy');
    await runAppCommand(current, 'redo', '');
    const said = current.recentNotices.map((notice) => notice.text);
    expect(said.at(-1)).toMatch(/^nothing to undo/);
    expect(said.join('\n')).not.toMatch(/stopping|still busy|Ctrl-C/);
    expect(current.agentBusy).toBe(true);
  }, 30_000);
});

describe('the undo row', () => {
  it('names the rewind it undoes and the files it changes; another rewind since, it undoes nothing unseen', async () => {
    const { root, current, engine } = await afterARewind('undo-row');
    void openPicker(current);
    await waitFor(() => current.view().picker !== undefined, 5_000, 'the picker');
    const lines = await current.view().picker?.loadUndo?.();
    // Named as the rewind's own row reads (rows show no checkpoint ids), and that row is the one the picker opens on the undo for.
    const rewindRow = current.view().picker?.checkpoints.at(-1);
    expect(rewindRow?.label).toBe('rewind to just before session start');
    expect(current.view().picker?.undoPoint).toBe(rewindRow?.id);
    expect(lines?.[0]).toMatch(/^undo the rewind to just before session start \(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\):$/);
    expect(lines?.slice(1)).toEqual(['your files as they were just before it; the conversation stays as it is', 'it changes 1 file(s):', '  A a.txt']);
    // Another rewind is made meanwhile (another Rewind on the project): the undo shown is not that one's.
    write(root, 'b.txt', 'made later\n');
    await engine().restore(1);
    const shown = current.view().picker;
    shown?.onChoose({ kind: 'undo' });
    // Nothing undone; the picker opens again, on the undo row of the rewind made since, and says why.
    await waitFor(() => current.view().picker !== undefined && current.view().picker !== shown, 20_000, 'the picker again');
    expect(current.view().picker?.banner).toBe('not undone: the rewinds to undo changed meanwhile; look again, then Enter');
    expect(current.view().picker?.undoPoint).toBe(engine().list().at(-1)?.id);
    expect(fs.existsSync(path.join(root, 'a.txt')) || fs.existsSync(path.join(root, 'b.txt'))).toBe(false);
  }, 60_000);
});

describe('an undo of a rewind after which the files changed again', () => {
  it('marks those files in its row and says in its notice that it took those changes back too, and where they are kept', async () => {
    const { root, current } = await afterARewind('undo-after-changes');
    // After the rewind, the agent (or the user) goes on: c.txt is made.
    write(root, 'c.txt', 'made after the rewind\n');
    void openPicker(current);
    await waitFor(() => current.view().picker !== undefined, 5_000, 'the picker');
    const lines = await current.view().picker?.loadUndo?.();
    expect(lines?.slice(1)).toEqual([
      'your files as they were just before it; the conversation stays as it is',
      'it changes 2 file(s):',
      '! changed since the rewind: taken back too, kept in “undo of …”',
      '  A a.txt',
      '! D c.txt',
    ]);
    current.view().picker?.onChoose({ kind: 'undo' });
    await waitFor(() => /^undid the rewind/.test(current.view().status.notice?.text ?? ''), 20_000, 'the undo notice');
    expect(current.view().status.notice?.text).toBe(
      'undid the rewind to just before “session start” (the files; the conversation stays as it is) and later changes (to c.txt) (tell the agent the changes since the rewind to c.txt are gone): 2 file(s) changed (1 written, 1 deleted) — Esc Esc → “undo of …” brings them back',
    );
    expect(fs.existsSync(path.join(root, 'c.txt'))).toBe(false);
  }, 60_000);
});

describe('Esc Esc while the session is taking its first checkpoint', () => {
  it('opens at once on the checkpoints listed (it waits for no scan of the files), and takes the new one in once it is taken', async () => {
    const sb = sessions.sandbox();
    const root = sb.repo('first-checkpoint');
    const earlier = sb.open(root);
    await earlier.snapshot({ label: 'an earlier session' });
    write(root, 'a.txt', 'changed since\n');
    // Another rewind holds the project lock: the session's first checkpoint waits for it.
    const lock = await holdLock(earlier, 'a test holding the lock');
    try {
      const { session, openCheckpoints } = await sessions.start(root, 'sh', ['-c', 'while :; do sleep 1; done']);
      session.attachCheckpoints(await openCheckpoints());
      let opened = false;
      void session.checkpointsOpened().then(() => (opened = true));
      void openPicker(session);
      await waitFor(() => session.view().picker !== undefined, 5_000, 'the picker');
      expect(opened).toBe(false);
      expect(session.view().picker?.checkpoints.map((row) => [row.id, row.label])).toEqual([[1, 'an earlier session']]);
      await lock.release();
      await waitFor(() => opened, 20_000, "the session's first checkpoint");
      await waitFor(() => (session.view().picker?.checkpoints.length ?? 0) === 2, 5_000, 'its row in the picker');
      expect(session.view().picker?.checkpoints.map((row) => [row.id, row.label])).toEqual([
        [1, 'an earlier session'],
        [2, 'session start'],
      ]);
      // The newest row's count, once the files are read (after that checkpoint, against it).
      await waitFor(() => session.view().picker?.checkpoints.at(-1)?.files === 0, 20_000, "the newest row's count");
      expect(session.view().picker?.checkpoints[0]?.files).toBe(1);
    } finally {
      await lock.release();
    }
  }, 60_000);
});
