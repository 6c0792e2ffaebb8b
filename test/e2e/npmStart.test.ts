// Issue 16's proof: what the README's first command does, on a clean copy of the repository.
// A `git clone` of this checkout (what is committed, no dist/) with node_modules linked to
// the installed one (a full `npm ci` would fetch ~750 MB of pinned agents for the other
// tests), then the real `npm start` in a pty, with CI unset and HOME, REWIND_HOME,
// REWIND_CONFIG_DIR and TMPDIR (where the demo makes its sandbox) in a temp folder. It
// builds, opens the demo; the agent's first step is checkpointed under its tool's name;
// Esc Esc shows it; a `b` restore brings back the files and the conversation (the demo
// agent starts again, resumed: its transcript holds the earlier prompt only); /quit exits 0.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startInPty, type TermSession } from '../helpers/term.js';
import { createSandbox, type Sandbox } from '../helpers/tempRepo.js';
import { waitFor } from '../helpers/waitFor.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const isCheckout = fs.existsSync(path.join(repoRoot, '.git'));

let sb: Sandbox;
let term: TermSession | undefined;
beforeEach(() => {
  sb = createSandbox('rewind-npm-start-');
});
afterEach(async () => {
  if (term) {
    term.kill('SIGKILL');
    await term.exited;
    term.close();
    term = undefined;
  }
  await sb.cleanup();
});

/** The sandbox project `rewind demo` made under `tmp`. */
function demoProject(tmp: string): string | undefined {
  const base = fs.readdirSync(tmp).find((name) => name.startsWith('rewind-demo-'));
  return base === undefined ? undefined : path.join(tmp, base, 'demo-app');
}

describe.skipIf(!isCheckout)('npm start, as the README says', () => {
  it('builds a clean clone, opens the demo, checkpoints its steps by tool, restores files and conversation with b, and quits with 0', async () => {
    const clone = path.join(sb.base, 'clone');
    execFileSync('git', ['clone', '-q', '--no-hardlinks', repoRoot, clone], { env: sb.gitEnv, stdio: 'ignore' });
    fs.symlinkSync(fs.realpathSync(path.join(repoRoot, 'node_modules')), path.join(clone, 'node_modules'));
    expect(fs.existsSync(path.join(clone, 'dist'))).toBe(false);
    const tmp = sb.folder('tmp');
    const env = { ...sb.env, TMPDIR: tmp, REWIND_DEMO_STEP_MS: '0' };
    term = startInPty('npm', ['start'], { cwd: clone, env, cols: 110, rows: 32 }, 'npm start');
    const session = term;

    // It builds (no dist/ in a clone), then the demo agent is in the pane with the hint.
    await session.waitFor(/clean up the tests/, 240_000, 'the demo agent');
    await session.waitFor(/type 1, 2 or 3/, 10_000, 'the hint');
    expect(fs.existsSync(path.join(clone, 'dist', 'cli.js'))).toBe(true);
    const project = demoProject(tmp);
    expect(project).toBeDefined();
    const dir = project ?? '';
    const engine = sb.open(dir);

    // The first task: its first step is checkpointed under the tool's name.
    session.write('1');
    session.write('\r');
    await session.waitFor(/The server has a 5 s timeout\./, 20_000, 'the first task to end');
    await waitFor(() => engine.list().some((record) => record.label === 'Edit server.js'), 10_000, 'the first step’s checkpoint');
    // The second deletes the tests.
    session.write('2');
    session.write('\r');
    await session.waitFor(/Cleaned up: no more tests/, 20_000, 'the second task to end');
    expect(fs.existsSync(path.join(dir, 'tests'))).toBe(false);
    await waitFor(() => engine.list().some((record) => record.label === 'Bash rm -rf tests' && record.conversation !== null), 10_000, 'the Bash step’s checkpoint');

    // Esc Esc shows the turns and steps; the step before the tests went is restored, conversation and files.
    session.write('\x1b');
    session.write('\x1b');
    await session.waitFor(/rewind to a checkpoint/, 10_000, 'the picker');
    // The first task's turn, folded (its steps under it), and the second's open with the step that deleted the tests.
    await session.waitFor((screen) => /▸ prompt: 1/.test(screen) && /Bash rm -rf tests/.test(screen), 5_000, 'the turns in the picker');
    session.write('rm -rf');
    await session.waitFor((screen) => /› .*Bash rm -rf tests/.test(screen), 5_000, 'the Bash step selected');
    session.write('\r');
    await session.waitFor(/b {2}restore conversation and files/, 5_000, 'the modes');
    session.write('b');
    await waitFor(() => fs.existsSync(path.join(dir, 'tests', 'server.test.js')), 20_000, 'the tests back');
    expect(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).toContain('"test": "node --test tests/"');
    // The first task's edit stays: it came before that step.
    expect(fs.readFileSync(path.join(dir, 'server.js'), 'utf8')).toContain('server.setTimeout(5_000);');
    // As the status line fits it: "restored the files [to just before “Bash rm -rf tests”] and the conversation …".
    await session.waitFor(/restored the files( to just before “Bash rm -rf tests”)? and the conversation/, 15_000, 'the restore notice');
    // The demo agent started again, resumed: the first prompt and its answer, not the second.
    await session.waitFor((screen) => /^> 1$/m.test(screen) && /^● The server has a 5 s timeout\.$/m.test(screen), 15_000, 'the resumed transcript');
    expect(session.text()).not.toMatch(/^> 2$/m);
    expect(session.text()).not.toMatch(/Cleaned up: no more tests/);

    // /quit leaves with exit 0.
    session.write('\x1d');
    await session.waitFor(/◈ \//, 5_000, 'the command bar');
    session.write('quit');
    session.write('\r');
    expect((await session.exited).exitCode).toBe(0);
  }, 360_000);
});
