// What the agent asks of its terminal that belongs to the user's: the window title.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configDefaults } from '../../src/config/schema.js';
import { PtySession } from '../../src/pty/ptySession.js';
import { SessionController } from '../../src/session/controller.js';
import { waitFor } from '../helpers/waitFor.js';
import { createSandbox, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
let session: SessionController | undefined;
beforeEach(() => {
  sb = createSandbox('rewind-outer-');
});
afterEach(async () => {
  await session?.stop();
  session = undefined;
  await sb.cleanup();
});

describe("the agent's window title", () => {
  it('reaches the outer terminal, each time the agent sets it (OSC 0 or 2)', async () => {
    const root = sb.repo('titled');
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: sb.home };
    const script = "printf '\\033]0;first title\\007'; sleep 0.2; printf '\\033]2;second title\\033\\\\'; sleep 5";
    const pty = await PtySession.spawn({ command: 'sh', args: ['-c', script], cwd: root, env, cols: 80, rows: 24 });
    let outer = '';
    session = new SessionController({ pty, sessionId: 'test-session', cwd: root, env: sb.env, config: configDefaults(), columns: 80, rows: 24, writeOuter: (data) => (outer += data) });
    session.start();
    await waitFor(() => outer.includes('\x1b]0;second title\x07'), 5_000, 'the second title');
    expect(outer.indexOf('\x1b]0;first title\x07')).toBeGreaterThanOrEqual(0);
    expect(outer.indexOf('\x1b]0;first title\x07')).toBeLessThan(outer.indexOf('\x1b]0;second title\x07'));
  });
});
