// The first Enter of a session waits for its first checkpoint; the status line says so while
// it waits, and shows the checkpoints again as soon as the wait is over.
import { describe, expect, it } from 'vitest';
import { sessionSandbox } from '../helpers/session.js';
import { waitFor } from '../helpers/waitFor.js';

const sessions = sessionSandbox('rewind-first-enter-');

describe('the first Enter of a session', () => {
  it('says it waits for the first checkpoint, and takes that back once it is taken', async () => {
    const root = sessions.sandbox().repo('slow-start');
    const { session: current, pty, openCheckpoints } = await sessions.start(root, 'cat');
    let output = '';
    pty.onData((data) => {
      output += data.toString('utf8');
    });
    current.input(Buffer.from('echo hi\r'));
    // Checkpoints are not open yet (the app opens them while the agent starts): Enter waits.
    await waitFor(() => /taking this session's first checkpoint/.test(current.view().status.notice?.text ?? ''), 5_000, 'the waiting notice');
    expect(output).not.toMatch(/echo hi\r\n/);
    current.attachCheckpoints(await openCheckpoints());
    // The Enter reached cat (the pty echoes the line end, cat prints the line) once the checkpoint was taken.
    await waitFor(() => /echo hi\r\necho hi/.test(output), 10_000, 'cat printing the line');
    // Well before the 6 s a notice lasts.
    await waitFor(() => current.view().status.notice === undefined, 2_000, 'the notice taken back');
    expect(current.view().status.checkpoints).toMatch(/^#1 · /);
  }, 20_000);
});
