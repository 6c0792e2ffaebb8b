import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PtySession } from '../../src/pty/ptySession.js';
import { ScreenModel } from '../../src/pty/screen.js';
import { waitFor } from '../helpers/waitFor.js';

// The pipeline the app builds: pty output into the screen, the screen's answers back.

let sandbox: string;
const sessions: PtySession[] = [];

beforeAll(() => {
  sandbox = fs.mkdtempSync(path.join(os.tmpdir(), 'rewind-pane-'));
});

afterAll(async () => {
  await Promise.all(sessions.map((session) => session.terminate(200)));
  fs.rmSync(sandbox, { recursive: true, force: true });
});

async function pane(command: string, args: string[], cols = 40, rows = 10) {
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: sandbox, LANG: 'C.UTF-8', LESSHISTFILE: '-' };
  const session = await PtySession.spawn({ command, args, cwd: sandbox, env, cols, rows });
  sessions.push(session);
  const screen = new ScreenModel(cols, rows);
  session.onData((data) => screen.write(data));
  screen.onResponse((data) => session.write(data));
  return { session, screen };
}

describe('pty into screen', () => {
  it('shows the end of a flood once the child has exited', async () => {
    const { session, screen } = await pane('seq', ['1', '200000']);
    await session.exited;
    await screen.flush();
    expect(screen.text().slice(-3)).toEqual(['199999', '200000', '']);
    screen.dispose();
  });

  // less is on every machine this runs on (Debian's base); its absence is a failure, not a skip.
  it('draws a full-screen program on the alternate screen, then the shell again', async () => {
    const file = path.join(sandbox, 'lines.txt');
    fs.writeFileSync(file, Array.from({ length: 50 }, (_, i) => `row ${i + 1}`).join('\n') + '\n');
    const { session, screen } = await pane('sh', ['-c', `echo before; less ${file}; echo after`]);
    await waitFor(() => screen.modes().alternateScreen && screen.text()[0] === 'row 1', 5_000, 'less to draw');
    expect(screen.text()[8]).toBe('row 9');
    session.write('q');
    await waitFor(() => screen.text().includes('after'), 5_000, 'the shell after less');
    expect(screen.modes().alternateScreen).toBe(false);
    expect(screen.text()[0]).toBe('before');
    await session.exited;
    screen.dispose();
  });
});
