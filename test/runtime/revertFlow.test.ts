// The picker's `u` in a running session (issue 28): the plan it shows is the engine's, choosing
// it takes back that one step and keeps the later ones, the notice says so (and what to tell
// an agent without a prompt hook), and the picker's undo puts the files back.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openPicker } from '../../src/runtime/restore/pickerFlow.js';
import { pickerCheckpoints } from '../../src/runtime/restore/pickerData.js';
import { sessionSandbox } from '../helpers/session.js';
import { waitFor } from '../helpers/waitFor.js';
import { write } from '../helpers/tempRepo.js';
import { chooseInPicker, idleShSession } from '../helpers/pickerChoice.js';

const sessions = sessionSandbox('rewind-revert-flow-');

describe("the picker's u in a session", () => {
  it('shows the plan, takes back that one step, keeps the later ones, and the undo puts them back', async () => {
    const root = sessions.sandbox().repo('revert');
    write(root, 'a.txt', 'a0\n');
    write(root, 'b.txt', 'b0\n');
    const { current, engine } = await idleShSession(sessions, root);
    const step = (await engine.snapshot({ trigger: 'PreToolUse:Edit', label: 'Edit a.txt', session: 'test-session' })).record.id;
    write(root, 'a.txt', 'a1\n');
    await engine.snapshot({ trigger: 'PreToolUse:Edit', label: 'Edit b.txt', session: 'test-session' });
    write(root, 'b.txt', 'b1\n');

    void openPicker(current);
    await waitFor(() => current.view().picker !== undefined, 5_000, 'the picker');
    const plan = await current.view().picker?.loadRevertPlan?.(step);
    expect(plan?.conflicts).toBe(0);
    expect(plan?.lines.slice(0, 2)).toEqual(['1 file(s) change, keeping what came after:', '  restore   a.txt  (as it was before the step)']);
    current.closeOverlay();

    const notice = await chooseInPicker(current, { kind: 'revert', id: step }, /reverted “Edit a.txt”/);
    expect(notice).toMatch(/^reverted “Edit a.txt” \(tell the agent that “Edit a.txt” was taken back\): 1 file\(s\) changed \(1 written, 0 deleted\) — undo with \/redo/);
    expect(fs.readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('a0\n');
    expect(fs.readFileSync(path.join(root, 'b.txt'), 'utf8')).toBe('b1\n');
    // Its rows: the redo point's, whose step is the revert (named by the step it took back); its result folded into it.
    expect(pickerCheckpoints(engine.list()).at(-1)).toMatchObject({ label: 'revert of Edit a.txt', files: 1, paths: ['a.txt'] });

    await chooseInPicker(current, { kind: 'undo' }, /undid the revert of “Edit a.txt”/);
    expect(fs.readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('a1\n');
    expect(fs.readFileSync(path.join(root, 'b.txt'), 'utf8')).toBe('b1\n');
  }, 60_000);
});

describe("the picker's d in a session", () => {
  it("shows a turn's parts that changed files, each under its row's name; a part that changed nothing is left out", async () => {
    const root = sessions.sandbox().repo('diff');
    write(root, 'a.txt', 'a0\n');
    const { current, engine } = await idleShSession(sessions, root);
    const turn = (await engine.snapshot({ trigger: 'UserPromptSubmit', label: 'fix it', session: 'test-session' })).record.id;
    await engine.snapshot({ trigger: 'PreToolUse:Read', label: 'Read a.txt', session: 'test-session' });
    const edit = (await engine.snapshot({ trigger: 'PreToolUse:Edit', label: 'Edit a.txt', session: 'test-session' })).record.id;
    write(root, 'a.txt', 'a1\n');
    await engine.snapshot({ trigger: 'end', label: 'turn end', session: 'test-session' });

    void openPicker(current);
    await waitFor(() => current.view().picker !== undefined, 5_000, 'the picker');
    const turnDiff = (await current.view().picker?.loadStepDiff?.(turn)) ?? [];
    // The newest step (its turn's end mark folded into it) runs up to the files now.
    expect(turnDiff.filter((line) => line.startsWith('# '))).toEqual(['# Edit a.txt (up to the files as they are now)']);
    expect(turnDiff).toContain('+a1');
    expect(await current.view().picker?.loadStepDiff?.(edit - 1)).toEqual(['# Read a.txt', '(this step changed no files)']);
    // Its u says so in the row's words: no ids, no command.
    expect((await current.view().picker?.loadRevertPlan?.(edit - 1))?.error).toBe('“Read a.txt” changed no files: nothing to revert');
    current.closeOverlay();
  }, 60_000);
});
