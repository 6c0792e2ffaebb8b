// The picker as a user of `rewind demo` meets it: after tasks 1 and 2 it opens on the last
// step that changed files (Edit package.json), one ↑ reaches Bash rm -rf tests, the turns
// count their whole turn, no "files changed" row repeats a step, and Enter then `f` on the
// selected row undoes exactly that step.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { termSandbox } from '../helpers/termSandbox.js';
import { waitFor } from '../helpers/waitFor.js';
import { rewind } from '../helpers/io.js';

const terms = termSandbox('rewind-demo-picker-');

const selected = (screen: string) => /› (.*?)\s*│/.exec(screen)?.[1] ?? '';

describe('rewind demo: the picker tells the session as steps', () => {
  it('opens on Edit package.json; Enter then f undoes exactly that step; rewind list says the same rows', async () => {
    const sb = terms.sandbox();
    const dir = path.join(sb.base, 'try-it');
    const term = terms.start(['demo', dir], { cwd: sb.base, env: { ...sb.env, REWIND_DEMO_STEP_MS: '0' }, cols: 120, rows: 32 });
    await term.waitFor(/type 1, 2 or 3/, 15_000, 'the demo agent');
    const engine = sb.open(dir);
    for (const [task, last] of [['1', 'Write server.config.json'], ['2', 'Edit package.json']] as const) {
      term.write(task);
      term.write('\r');
      await waitFor(() => engine.list().some((record) => record.label === last), 15_000, `the checkpoints of task ${task}`);
      // The checkpoint that marks the turn's end (the agent's Stop hook): the rows are then complete.
      await waitFor(() => engine.list().at(-1)?.trigger === 'end', 15_000, `the end of task ${task} checkpointed`);
      await term.waitFor(/agent idle/, 15_000, 'the demo agent idle');
    }
    expect(fs.existsSync(path.join(dir, 'tests'))).toBe(false);
    const packageBefore = fs.readFileSync(path.join(dir, 'package.json'), 'utf8');
    expect(packageBefore).not.toContain('"test"');

    term.write('\x1b');
    term.write('\x1b');
    await term.waitFor((screen) => selected(screen).endsWith('Edit package.json') && screen.includes('undoing this step now changes'), 10_000, 'the picker on Edit package.json');
    const screen = term.text();
    expect(screen).not.toMatch(/files changed|step: /);
    expect(screen).toMatch(/3 files +▾ prompt: 2 {2}\(2 steps\)/);
    expect(screen).toMatch(/2 files +▸ prompt: 1 {2}\(2 steps\)/);
    expect(screen).toMatch(/undoing this step now changes 1 file\(s\)/);
    term.write('\x1b[A');
    await term.waitFor((s) => selected(s).endsWith('Bash rm -rf tests'), 5_000, 'one ↑: Bash rm -rf tests');
    term.write('\x1b[B');
    await term.waitFor((s) => selected(s).endsWith('Edit package.json'), 5_000, 'back on Edit package.json');
    term.write('\r');
    await term.waitFor(/rewind to just before Edit package\.json \(it changed 1 file\)/, 5_000, 'the modes');
    // The conversation-only mode previews what it does: the files untouched.
    term.write('\x1b[B\x1b[B');
    await term.waitFor(/files untouched: they stay as they are now/, 5_000, 'the conversation mode previewed');
    await term.waitFor(/the conversation cut to before prompt "2", whose turn Edit package\.json is in/, 5_000, 'where the conversation is cut');
    term.write('f');
    await term.waitFor(/restored the files to just before “Edit package\.json”/, 15_000, 'the restore notice');
    // Exactly that step: package.json has its test script back, the tests stay deleted.
    await waitFor(() => fs.readFileSync(path.join(dir, 'package.json'), 'utf8').includes('"test": "node --test tests/"'), 10_000, 'package.json put back');
    expect(fs.existsSync(path.join(dir, 'tests'))).toBe(false);
    expect(term.text()).toMatch(/restored the files to just before “Edit package\.json”: 1 file\(s\) changed — /);

    const list = await rewind(['list', '-C', dir], sb.env, sb.base);
    expect(list.code).toBe(0);
    expect(list.stdout).not.toMatch(/files changed/);
    expect(list.stdout).toMatch(/ {2}3 files {5}prompt: 2 {2}\(2 step\(s\)\)/);
    expect(list.stdout).toMatch(/ {2}1 file {10}Edit package\.json/);

    // The next prompt carries Rewind's note (the demo agent shows what its prompt hook added), once.
    term.write('3');
    term.write('\r');
    await term.waitFor(/\(with the prompt: Note from Rewind: the user restored the project's files to checkpoint #\d+ \("Edit package\.json"\)/, 15_000, 'the note with the next prompt');
    await term.waitFor(/told demo its files are back to just before “Edit package\.json”/, 15_000, 'the notice that the demo agent was told');
    // Its turn ended (the last hook answered): none is left to go on without the app into the store as the sandbox goes.
    await waitFor(() => engine.list().some((record) => record.label === 'Edit README.md') && engine.list().at(-1)?.trigger === 'end', 15_000, 'the end of task 3 checkpointed');
    await term.waitFor(/agent idle/, 15_000, 'the demo agent idle');

    // `b` on a step inside a turn: the notice names both points as the rows and the mode screen do.
    term.write('\x1b');
    term.write('\x1b');
    await term.waitFor((s) => selected(s).endsWith('Edit README.md'), 10_000, 'the picker on Edit README.md');
    term.write('\x1b[A');
    await term.waitFor((s) => selected(s).endsWith('Write docs/usage.md'), 5_000, 'one ↑: Write docs/usage.md');
    term.write('\r');
    await term.waitFor(/the conversation cut to before prompt "3", whose turn Write docs\/usage\.md is in: 1 turn dropped/, 5_000, 'the modes');
    term.write('b');
    await term.waitFor(/◈ (rewind )?restored the files to just before “Write docs\/usage\.md” and the conversation to before prompt “3”/, 15_000, 'the restore notice');
    await waitFor(() => !fs.existsSync(path.join(dir, 'docs', 'usage.md')), 10_000, 'docs/usage.md gone');
    await term.waitFor(/agent idle/, 15_000, 'the demo agent idle again');
    // Its undo names the rewind by the same step.
    term.write('\x1b');
    term.write('\x1b');
    await term.waitFor((s) => selected(s).includes('↶ undo last rewind'), 10_000, 'the picker on the undo row');
    term.write('\r');
    await term.waitFor(/◈ (rewind )?undid the rewind to just before “Write docs\/usage\.md”/, 15_000, 'the undo notice');
    await waitFor(() => fs.existsSync(path.join(dir, 'docs', 'usage.md')), 10_000, 'docs/usage.md back');
    await term.waitFor(/agent idle/, 15_000, 'the demo agent idle after the undo');

    // On a turn's row: `c` cuts the conversation alone, `b` both, to one point. The `b` above
    // already cut it before prompt 3 (its undo took back the files only): no turn is dropped again.
    const onTurnThree = async (mode: string) => {
      term.write('\x1b');
      term.write('\x1b');
      await term.waitFor(/rewind to a checkpoint/, 10_000, 'the picker');
      for (let up = 0; up < 10 && !selected(term.text()).includes('prompt: 3'); up++) {
        const before = selected(term.text());
        term.write('\x1b[A');
        await term.waitFor((now) => selected(now) !== before, 5_000, 'the selection moved up');
      }
      term.write('\r');
      await term.waitFor(/the conversation cut to before prompt "3": no turn dropped \(the conversation stands there already\)/, 5_000, 'the modes of prompt 3');
      term.write(mode);
    };
    await onTurnThree('c');
    await term.waitFor(/◈ (rewind )?restored the conversation to before prompt “3” \(no later turn dropped\); your files are untouched/, 15_000, 'the conversation notice');
    expect(fs.existsSync(path.join(dir, 'docs', 'usage.md'))).toBe(true);
    await term.waitFor(/agent idle/, 15_000, 'the demo agent idle after c');
    await onTurnThree('b');
    await term.waitFor(/◈ (rewind )?restored the files and the conversation to before prompt “3”/, 15_000, 'the notice of both');
    await waitFor(() => !fs.existsSync(path.join(dir, 'docs', 'usage.md')), 10_000, 'docs/usage.md gone with its turn');
  }, 150_000);
});
