// The app applies retention in the background at its start, and `/checkpoints` shows the
// disk-usage panel: the built CLI in a real pty, the clock moved by REWIND_TEST_NOW.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { rewind } from '../helpers/io.js';
import { seamsEnv } from '../helpers/restoreKit.js';
import { startRewind, terminalSandbox } from '../helpers/term.js';
import { write } from '../helpers/tempRepo.js';
import { waitFor } from '../helpers/waitFor.js';

const terminals = terminalSandbox('rewind-e2e-panel-');

const at = (day: number) => seamsEnv({ REWIND_TEST_NOW: new Date(Date.parse('2026-05-01T08:00:00Z') + day * 86_400_000).toISOString() });

describe('/checkpoints and retention in the app', () => {
  it('drops what is too old in the background once the session started, and shows the panel with every store', async () => {
    const sb = terminals.sb;
    const root = sb.repo('panel');
    const gone = sb.repo('gone');
    for (const day of [0, 1, 20]) {
      write(root, 'notes.txt', `day ${day}\n`);
      expect(await rewind(['snapshot', '--label', `day ${day}`], { ...sb.env, ...at(day) }, root)).toMatchObject({ code: 0 });
    }
    expect(await rewind(['snapshot', '--label', 'elsewhere'], { ...sb.env, ...at(0) }, gone)).toMatchObject({ code: 0 });
    fs.rmSync(gone, { recursive: true, force: true });

    const session = terminals.track(startRewind(['--', 'bash', '--norc', '--noprofile'], { cwd: root, env: { ...sb.env, ...at(21), PS1: 'agent$ ' } }));
    await session.waitFor(/agent\$/, 15_000, 'the agent prompt');
    const labels = () => sb.open(root).list().map((record) => record.label);
    await waitFor(() => !labels().includes('day 0'), 15_000, 'retention to drop the old checkpoints');
    expect(labels()).toContain('day 20');
    expect(labels()).not.toContain('day 1');

    session.write('\x1d');
    await session.waitFor(/◈ \//, 5_000, 'the command bar');
    session.write('checkpoints');
    session.write('\r');
    await session.waitFor((text) => text.includes('Retention: checkpoint_retention_days 14, checkpoint_max_gb 5') && text.includes('Esc, Enter or q closes'), 10_000, 'the whole panel');
    const screen = session.text();
    expect(screen).toMatch(/checkpoint\(s\) for .*panel/);
    expect(screen).toMatch(/This project's store: .*All projects: .*\(2 store\(s\)\)/);
    expect(screen).toMatch(/▶ .*panel +\d.*[█░]{12} +\d+/);
    expect(screen).toMatch(/✗ .*gone/);
    expect(screen.replace(/\s*│\s*│?\s*/g, ' ')).toContain('rewind clean --orphans');
  });
});
