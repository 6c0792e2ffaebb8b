// Issue 11 item 25: files a restore put back are not new work. After a restore (from this
// process or another terminal), the app's own triggers (Enter, a burst of file changes:
// onlyIfChanged) find nothing changed since and add no checkpoint; an edit after it does.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rewind } from '../helpers/io.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-own-restores-');
});
afterEach(() => sb.cleanup());

describe("Rewind's own restores", () => {
  it('are not taken for changes by the triggers that add a checkpoint only for a change', async () => {
    const root = sb.repo('own');
    const app = sb.open(root);
    write(root, 'History.md', 'one\n');
    await app.snapshot({ trigger: 'enter', label: 'one' });
    write(root, 'History.md', 'two\n');
    await app.snapshot({ trigger: 'enter', label: 'two' });
    // Another terminal restores #1 while the app is open.
    expect((await rewind(['restore', '1', '--yes'], sb.env, root)).code).toBe(0);
    const count = app.list().length;
    const burst = await app.snapshot({ trigger: 'watch', label: 'files changed: History.md', onlyIfChanged: true });
    expect(burst.unchanged).toBe(true);
    expect(app.list()).toHaveLength(count);
    write(root, 'History.md', 'three\n');
    const edit = await app.snapshot({ trigger: 'watch', label: 'files changed: History.md', onlyIfChanged: true });
    expect(edit.unchanged).toBeUndefined();
    expect(app.list()).toHaveLength(count + 1);
    expect(edit.record.changedPaths).toEqual(['History.md']);
  });
});
