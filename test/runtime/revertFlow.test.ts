// The picker's `u` in a running session (issue 28): the plan it shows is the engine's, choosing
// it takes back that one step and keeps the later ones, the notice says so (and what to tell
// an agent without a prompt hook), and the picker's undo puts the files back.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PickerChoice } from '../../src/app/picker/types.js';
import type { SessionController } from '../../src/runtime/session/controller.js';
import { openPicker } from '../../src/runtime/restore/pickerFlow.js';
import { pickerCheckpoints } from '../../src/runtime/restore/pickerData.js';
import { sessionSandbox } from '../helpers/session.js';
import { waitFor } from '../helpers/waitFor.js';
import { write } from '../helpers/tempRepo.js';

const sessions = sessionSandbox('rewind-revert-flow-');

async function picked(current: SessionController, choice: PickerChoice, notice: RegExp): Promise<string> {
  void openPicker(current);
  await waitFor(() => current.view().picker !== undefined, 5_000, 'the picker');
  current.view().picker?.onChoose(choice);
  await waitFor(() => notice.test(current.view().status.notice?.text ?? ''), 20_000, `the notice ${String(notice)}`);
  return current.view().status.notice?.text ?? '';
}

describe("the picker's u in a session", () => {
  it('shows the plan, takes back that one step, keeps the later ones, and the undo puts them back', async () => {
    const root = sessions.sandbox().repo('revert');
    write(root, 'a.txt', 'a0\n');
    write(root, 'b.txt', 'b0\n');
    const { session: current, openCheckpoints } = await sessions.start(root, 'sh', ['-c', 'while :; do sleep 1; done']);
    current.attachCheckpoints(await openCheckpoints());
    await current.checkpointsOpened();
    const engine = current.checkpoints?.engine;
    if (!engine) throw new Error('no checkpoints');
    const step = (await engine.snapshot({ trigger: 'PreToolUse:Edit', label: 'Edit a.txt', session: 'test-session' })).record.id;
    write(root, 'a.txt', 'a1\n');
    await engine.snapshot({ trigger: 'PreToolUse:Edit', label: 'Edit b.txt', session: 'test-session' });
    write(root, 'b.txt', 'b1\n');

    void openPicker(current);
    await waitFor(() => current.view().picker !== undefined, 5_000, 'the picker');
    const plan = await current.view().picker?.loadRevertPlan?.(step);
    expect(plan?.conflicts).toBe(0);
    expect(plan?.lines.slice(0, 2)).toEqual([`Reverting the step of #${step} (Edit a.txt: #${step} -> #${step + 1}), keeping what came after: 1 file(s) change:`, '  restore   a.txt  (as it was before the step)']);
    current.closeOverlay();

    const notice = await picked(current, { kind: 'revert', id: step }, /reverted the step of/);
    expect(notice).toMatch(new RegExp(`^reverted the step of #${step} \\(tell the agent the step of #${step} was taken back\\): 1 file\\(s\\) written, 0 deleted — undo with /redo`));
    expect(fs.readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('a0\n');
    expect(fs.readFileSync(path.join(root, 'b.txt'), 'utf8')).toBe('b1\n');
    // Its rows: the redo point's, whose step is the revert; its result folded into it.
    expect(pickerCheckpoints(engine.list()).at(-1)).toMatchObject({ label: `before reverting #${step}`, files: 1, paths: ['a.txt'] });

    await picked(current, { kind: 'undo' }, /undid the last rewind/);
    expect(fs.readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('a1\n');
    expect(fs.readFileSync(path.join(root, 'b.txt'), 'utf8')).toBe('b1\n');
  }, 60_000);
});
