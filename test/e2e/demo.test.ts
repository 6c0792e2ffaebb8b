// `rewind demo`: the sandbox project and the demo agent in the app. A task's steps each get
// a checkpoint through the demo agent's Claude-style hooks, labelled by tool; Esc Esc shows
// them, and a restore brings the deleted tests back.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { termSandbox } from '../helpers/termSandbox.js';
import { waitFor } from '../helpers/waitFor.js';

const terms = termSandbox('rewind-demo-e2e-');

describe('rewind demo', () => {
  it('makes the sandbox, checkpoints each step of a task by its tool, and restores the deleted tests', async () => {
    const sb = terms.sandbox();
    const dir = path.join(sb.base, 'try-it');
    const term = terms.start(['demo', dir], { cwd: sb.base, env: { ...sb.env, REWIND_DEMO_STEP_MS: '0' }, cols: 110, rows: 30 });
    await term.waitFor(/clean up the tests/, 15_000, 'the demo agent');
    await term.waitFor(/type 1, 2 or 3/, 5_000, 'the hint');
    expect(fs.readdirSync(path.join(dir, 'tests')).sort()).toEqual(['config.test.js', 'server.test.js']);
    term.write('2');
    term.write('\r');
    await term.waitFor(/Cleaned up/, 15_000, 'the task to end');
    expect(fs.existsSync(path.join(dir, 'tests'))).toBe(false);
    const engine = sb.open(dir);
    await waitFor(() => engine.list().some((record) => record.label === 'Edit package.json'), 10_000, 'the checkpoints');
    const labels = engine.list().map((record) => [record.trigger, record.label, record.agent]);
    expect(labels).toEqual(expect.arrayContaining([
      ['UserPromptSubmit', '2', 'demo'],
      ['PreToolUse:Bash', 'Bash rm -rf tests', 'demo'],
      ['PreToolUse:Edit', 'Edit package.json', 'demo'],
    ]));
    term.write('\x1b');
    term.write('\x1b');
    await term.waitFor(/rewind to a checkpoint/, 10_000, 'the picker');
    await term.waitFor(/Bash rm -rf tests/, 5_000, 'the step in the picker');
    // Typing filters the rows: the one before the tests went, then its files.
    term.write('rm -rf');
    await term.waitFor((screen) => /› .*Bash rm -rf tests/.test(screen), 5_000, 'the row selected');
    term.write('\r');
    await term.waitFor(/f {2}restore files only/, 5_000, 'the modes');
    term.write('f');
    await waitFor(() => fs.existsSync(path.join(dir, 'tests', 'config.test.js')) && fs.existsSync(path.join(dir, 'tests', 'server.test.js')), 15_000, 'the tests back');
    await term.waitFor(/restored the files to just before “Bash rm -rf tests”/, 10_000, 'the restore notice');
  });
});
