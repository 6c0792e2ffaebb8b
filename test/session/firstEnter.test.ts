// The first Enter of a session waits for its first checkpoint; the status line says so while
// it waits, and shows the checkpoints again as soon as the wait is over.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configDefaults } from '../../src/config/schema.js';
import { PtySession } from '../../src/pty/ptySession.js';
import { openForApp } from '../../src/session/checkpointer.js';
import { SessionController } from '../../src/session/controller.js';
import { waitFor } from '../helpers/waitFor.js';
import { createSandbox, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
let session: SessionController | undefined;
beforeEach(() => {
  sb = createSandbox('rewind-first-enter-');
});
afterEach(async () => {
  await session?.stop();
  session = undefined;
  await sb.cleanup();
});

describe('the first Enter of a session', () => {
  it('says it waits for the first checkpoint, and takes that back once it is taken', async () => {
    const root = sb.repo('slow-start');
    const env = { ...sb.env, PATH: process.env.PATH ?? '/usr/bin:/bin' };
    const config = configDefaults();
    const pty = await PtySession.spawn({ command: 'cat', cwd: root, env: { PATH: env.PATH, HOME: sb.home }, cols: 80, rows: 24 });
    const current = new SessionController({ pty, sessionId: 'test-session', cwd: root, env, config, columns: 80, rows: 24, writeOuter: () => undefined });
    session = current;
    current.start();
    let output = '';
    pty.onData((data) => {
      output += data.toString('utf8');
    });
    current.input(Buffer.from('echo hi\r'));
    // Checkpoints are not open yet (the app opens them while the agent starts): Enter waits.
    await waitFor(() => /taking this session's first checkpoint/.test(current.view().status.notice?.text ?? ''), 5_000, 'the waiting notice');
    expect(output).not.toMatch(/echo hi\r\n/);
    current.attachCheckpoints(await openForApp(root, config, env));
    // The Enter reached cat (the pty echoes the line end, cat prints the line) once the checkpoint was taken.
    await waitFor(() => /echo hi\r\necho hi/.test(output), 10_000, 'cat printing the line');
    // Well before the 6 s a notice lasts.
    await waitFor(() => current.view().status.notice === undefined, 2_000, 'the notice taken back');
    expect(current.view().status.checkpoints).toMatch(/^#1 · /);
  }, 20_000);
});
