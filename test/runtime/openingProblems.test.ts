// Failures at the start of a session are said, never swallowed: a chain repair that fails,
// and a watcher that cannot list the folders to watch (it is off then, and says so while it is).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configDefaults } from '../../src/config/schema.js';
import { runAppCommand } from '../../src/runtime/session/appCommands.js';
import { openForApp } from '../../src/runtime/checkpointing/checkpointer.js';
import { sessionSandbox } from '../helpers/session.js';
import { write, type Sandbox } from '../helpers/tempRepo.js';
import { waitFor } from '../helpers/waitFor.js';

const sessions = sessionSandbox('rewind-opening-');

/** Overwrites a loose object of the shadow repo with garbage: git can no longer read it. */
function corruptObject(gitDir: string, oid: string): void {
  const file = path.join(gitDir, 'objects', oid.slice(0, 2), oid.slice(2));
  expect(fs.existsSync(file), `${oid} is a loose object`).toBe(true);
  fs.chmodSync(file, 0o644);
  fs.writeFileSync(file, 'not a git object');
}

/** Two checkpoints of `root`, each holding an untracked file (trees of the shadow's own). */
async function twoCheckpoints(sb: Sandbox, root: string) {
  const engine = sb.open(root);
  write(root, 'one.txt', 'one\n');
  const first = (await engine.snapshot({ label: 'first' })).record;
  write(root, 'two.txt', 'two\n');
  const second = (await engine.snapshot({ label: 'second' })).record;
  return { engine, first, second };
}

/**
 * A chain that needs repair (a background gc failed: the marker) and cannot be repaired:
 * #1's tree is unreadable, so its ref must go and #2 be recommitted, but a git killed
 * mid-update left #1's ref locked.
 */
async function unrepairableChain(sb: Sandbox, root: string): Promise<void> {
  const { engine, first } = await twoCheckpoints(sb, root);
  corruptObject(engine.repo.gitDir, first.tree);
  fs.writeFileSync(path.join(engine.store.root, 'needs-repair'), '');
  fs.writeFileSync(path.join(engine.repo.gitDir, 'refs', 'checkpoints', '1.lock'), '');
}

describe('opening checkpoints for the app', () => {
  it('says when the chain repair fails, instead of dropping it', async () => {
    const sb = sessions.sandbox();
    const root = sb.repo('unrepairable');
    await unrepairableChain(sb, root);
    const availability = await openForApp(root, configDefaults(), sb.env);
    expect(availability.on).toBe(true);
    expect(availability.problems).toEqual([expect.stringMatching(/^checkpoint repair failed: older checkpoints may not restore, new ones are still taken \(.+\)$/)]);
  });

  it('a repair that failed is tried again at the next opening, and then succeeds', async () => {
    const sb = sessions.sandbox();
    const root = sb.repo('retried');
    await unrepairableChain(sb, root);
    expect((await openForApp(root, configDefaults(), sb.env)).problems).toHaveLength(1);
    const engine = sb.open(root);
    expect(fs.existsSync(path.join(engine.store.root, 'needs-repair'))).toBe(true);
    fs.rmSync(path.join(engine.repo.gitDir, 'refs', 'checkpoints', '1.lock'));
    expect((await openForApp(root, configDefaults(), sb.env)).problems).toEqual([expect.stringMatching(/^checkpoint\(s\) #1 can no longer be restored/)]);
    expect(fs.existsSync(path.join(engine.store.root, 'needs-repair'))).toBe(false);
  });

  it('in the app: the repair failure is a notice, and /checkpoints lists it', async () => {
    const sb = sessions.sandbox();
    const root = sb.repo('unrepairable-app');
    await unrepairableChain(sb, root);
    const { session, openCheckpoints } = await sessions.start(root, 'cat');
    session.attachCheckpoints(await openCheckpoints());
    await waitFor(() => /^checkpoint repair failed/.test(session.view().status.notice?.text ?? ''), 5_000, 'the notice');
    expect(session.view().status.notice?.tone).toBe('warning');
    await session.checkpointsOpened();
    await runAppCommand(session, 'checkpoints', '');
    await waitFor(() => session.view().overlay !== undefined, 5_000, 'the /checkpoints panel');
    const overlay = session.view().overlay;
    expect(overlay?.lines).toContain('Problems this session:');
    expect(overlay?.lines.some((line) => line.startsWith('- checkpoint repair failed: older checkpoints may not restore'))).toBe(true);
    // The notices said, whole and timed, whatever the status line had room for.
    const notices = overlay?.lines.slice((overlay.lines.indexOf('Last notices, whole (newest last):') ?? -1) + 1) ?? [];
    expect(notices.some((line) => /^- \d\d:\d\d:\d\d {2}checkpoint repair failed: older checkpoints may not restore, new ones are still taken \(.+\)$/.test(line)), notices.join('\n')).toBe(true);
  });
});

describe('the file watcher', () => {
  it('is off, and the status line says so for as long as it is, when the folders to watch cannot be listed', async () => {
    const sb = sessions.sandbox();
    const root = sb.repo('unlistable');
    const { engine, second } = await twoCheckpoints(sb, root);
    // The newest checkpoint's tree, which the watcher lists its folders from, is unreadable.
    corruptObject(engine.repo.gitDir, second.tree);
    const { session, openCheckpoints } = await sessions.start(root, 'cat');
    session.attachCheckpoints(await openCheckpoints());
    await waitFor(() => session.view().status.off === 'watcher off', 10_000, 'watcher off in the status line');
    expect(session.problems.some((problem) => /^file watcher off: checkpoints still come before each Enter \(.+\)$/.test(problem))).toBe(true);
    // Still said once the notice has gone (a new notice replaces it; the flag stays).
    session.say('something else');
    await waitFor(() => session.view().status.notice?.text === 'something else', 5_000, 'the other notice');
    expect(session.view().status.off).toBe('watcher off');
  });

  it('is on, and says nothing, when all is well', async () => {
    const root = sessions.sandbox().repo('fine');
    const { session, openCheckpoints } = await sessions.start(root, 'cat');
    session.attachCheckpoints(await openCheckpoints());
    // Resolves once the watcher has started (a restore would wait for that).
    await session.restores.whileRestoring(() => Promise.resolve());
    expect(session.view().status.off).toBeUndefined();
    expect(session.problems).toEqual([]);
  });
});
