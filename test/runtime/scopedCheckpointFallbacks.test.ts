// When the app's watcher may have missed something, a step's checkpoint walks the whole tree
// instead of staging only the changed paths: too many paths at once, a watch limit below the
// folder count (said once, with the limit and how to raise it), and a change the watcher
// never reported (found by the quiet-time walk, said, checkpointed). A folder renamed during
// a step and a branch switch by the user between steps are staged exactly.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openProjectCheckpoints, type ProjectCheckpoints } from '../../src/checkpoints/index.js';
import { configDefaults } from '../../src/config/schema.js';
import { openForApp } from '../../src/runtime/checkpointing/checkpointer.js';
import { CheckpointTriggers } from '../../src/runtime/checkpointing/checkpointTriggers.js';
import { Notices } from '../../src/runtime/session/notices.js';
import type { Injected } from '../../src/shared/seams.js';
import { injectInProcess } from '../helpers/inject.js';
import { createSandbox, defaultSettings, type Sandbox } from '../helpers/tempRepo.js';
import { waitFor } from '../helpers/waitFor.js';

let sandbox: Sandbox | undefined;
let triggers: CheckpointTriggers | undefined;
let uninject: (() => void) | undefined;
afterEach(async () => {
  triggers?.stop();
  triggers = undefined;
  uninject?.();
  uninject = undefined;
  await sandbox?.cleanup();
  sandbox = undefined;
});

interface Session {
  sb: Sandbox;
  root: string;
  notices: Notices;
  engine: ProjectCheckpoints;
  /** The same project's checkpoints in a store of their own, every one a walk of the whole tree. */
  walked: ProjectCheckpoints;
  step(label: string): Promise<void>;
}

/** A session's checkpoint triggers on a repository with `folders` (a file in each), the first step (a walk of everything) taken. */
async function session(folders: readonly string[], injected: Injected = {}, env: NodeJS.ProcessEnv = {}): Promise<Session> {
  uninject = injectInProcess(injected);
  sandbox = createSandbox('rewind-fallback-');
  const sb = sandbox;
  const root = sb.repo('p');
  for (const folder of folders) {
    fs.mkdirSync(path.join(root, folder), { recursive: true });
    fs.writeFileSync(path.join(root, folder, 'file.txt'), `${folder}\n`);
  }
  const notices = new Notices(() => undefined);
  const live = new CheckpointTriggers({ id: 's', agent: () => 'test' }, notices, () => undefined);
  triggers = live;
  live.attach(await openForApp(root, configDefaults(), { ...sb.env, ...env }));
  await live.watching();
  const engine = live.checkpoints?.engine;
  if (!engine) throw new Error('checkpoints did not open');
  const step = async (label: string) => expect(await live.beforeStep({ trigger: 'tool', label }, undefined)).toBeUndefined();
  await step('first');
  const walked = openProjectCheckpoints({ cwd: root, settings: { ...defaultSettings }, home: path.join(sb.base, 'walked'), env: { ...sb.env } });
  return { sb, root, notices, engine, walked, step };
}

/** The newest checkpoint, checked against a walk of the whole tree now; whether it staged changed paths only. */
async function newestExact(s: Session): Promise<boolean> {
  const newest = s.engine.list().at(-1);
  const { record } = await s.walked.snapshot({ trigger: 'manual' });
  expect(newest?.tree).toBe(record.tree);
  return newest?.fromChangedPaths === true;
}

describe("a step's checkpoint in the app", () => {
  it('stages only the changed paths when the watcher saw them all, confirmed by a walk at a quiet moment', async () => {
    const s = await session(['src', 'docs'], { waits: { 'confirm-scan': 200 } });
    fs.writeFileSync(path.join(s.root, 'src/file.txt'), 'changed\n');
    fs.rmSync(path.join(s.root, 'docs/file.txt'));
    await s.step('edit');
    const newest = s.engine.list().at(-1);
    // Not confirmed yet: the walk waits for a quiet moment (200 ms here).
    expect(s.engine.scanConfirmedThrough()).toBeLessThan(newest?.id ?? 0);
    expect(await newestExact(s)).toBe(true);
    expect(newest?.changedPaths?.sort()).toEqual(['docs/file.txt', 'src/file.txt']);
    await waitFor(() => s.engine.scanConfirmedThrough() === newest?.id, 15_000, 'the confirming walk');
    expect(s.engine.list().at(-1)?.id).toBe(newest?.id);
  });

  it('walks the whole tree when more than 5,000 paths changed at once', async () => {
    const s = await session(['many']);
    for (let i = 0; i < 5_100; i++) fs.writeFileSync(path.join(s.root, 'many', `f${i}.txt`), `${i}\n`);
    await s.step('generate');
    expect(await newestExact(s)).toBe(false);
    fs.writeFileSync(path.join(s.root, 'many/f1.txt'), 'again\n');
    await s.step('edit one');
    expect(await newestExact(s)).toBe(true);
  });

  it('stages a folder renamed during a step, and writes in it after, exactly', async () => {
    const s = await session(['a/b/c', 'a/d']);
    fs.renameSync(path.join(s.root, 'a/b'), path.join(s.root, 'a/moved'));
    fs.writeFileSync(path.join(s.root, 'a/moved/c/new.txt'), 'new\n');
    await s.step('rename');
    expect(await newestExact(s)).toBe(true);
    fs.writeFileSync(path.join(s.root, 'a/moved/c/file.txt'), 'edited after the rename\n');
    fs.mkdirSync(path.join(s.root, 'a/b'));
    fs.writeFileSync(path.join(s.root, 'a/b/again.txt'), 'a folder of the old name\n');
    await s.step('after');
    expect(await newestExact(s)).toBe(true);
  });

  it("stages the user's branch switch between steps exactly", async () => {
    const s = await session(['src']);
    s.sb.git(s.root, 'add', '-A');
    s.sb.git(s.root, 'commit', '-q', '-m', 'src');
    s.sb.git(s.root, 'checkout', '-q', '-b', 'other');
    for (let i = 0; i < 20; i++) fs.writeFileSync(path.join(s.root, 'src', `o${i}.txt`), `${i}\n`);
    fs.rmSync(path.join(s.root, 'src/file.txt'));
    fs.mkdirSync(path.join(s.root, 'lib'));
    fs.writeFileSync(path.join(s.root, 'lib/l.txt'), 'l\n');
    s.sb.git(s.root, 'add', '-A');
    s.sb.git(s.root, 'commit', '-q', '-m', 'other');
    await s.step('on other');
    expect(await newestExact(s)).toBe(true);
    s.sb.git(s.root, 'checkout', '-q', 'main');
    await s.step('back on main');
    expect(await newestExact(s)).toBe(true);
    expect(fs.existsSync(path.join(s.root, 'lib'))).toBe(false);
  });

  it('past the watch limit says so once, with the limit and how to raise it, and walks the whole tree', async () => {
    const s = await session(['a', 'b', 'c', 'd', 'e', 'f'], { limits: { 'watched-folders': 3 } });
    const full = s.notices.said.filter((notice) => /file watches/.test(notice.text));
    expect(full.map((notice) => notice.text)).toEqual([expect.stringMatching(/^out of file watches: 3 of the project's \d+ folders watched \(the system allows 3 per user: raise it with `sudo sysctl fs\.inotify\.max_user_watches=524288`\); every checkpoint walks the whole tree$/)]);
    for (const folder of ['a', 'f']) fs.writeFileSync(path.join(s.root, folder, 'file.txt'), 'changed\n');
    await s.step('edit');
    expect(await newestExact(s)).toBe(false);
    expect(s.notices.said.filter((notice) => /file watches/.test(notice.text))).toHaveLength(1);
  });

  it('a change the watcher never reported is found by the quiet-time walk, said, checkpointed, and the watcher not trusted again', async () => {
    const s = await session(['src'], { waits: { 'confirm-scan': 200 } });
    fs.writeFileSync(path.join(s.root, 'src/file.txt'), 'seen\n');
    await s.step('edit');
    expect(await newestExact(s)).toBe(true);
    // A write through a hard link in another folder: inotify reports it only to that folder's watch.
    const elsewhere = path.join(s.sb.base, 'link.txt');
    fs.linkSync(path.join(s.root, 'src/file.txt'), elsewhere);
    fs.writeFileSync(elsewhere, 'written where the watcher does not look\n');
    // A step after it: the walk at the next quiet moment is sure to come after the write (the
    // one after 'edit' may have run before it, on a busy machine).
    await s.step('after the missed write');
    await waitFor(() => s.engine.list().at(-1)?.label === 'files the watcher missed', 15_000, 'the missed change checkpointed');
    expect(s.notices.said.map((notice) => notice.text)).toContainEqual(expect.stringMatching(/^the file watcher missed changes to src\/file\.txt: checkpointed now/));
    expect(await newestExact(s)).toBe(false);
    fs.writeFileSync(path.join(s.root, 'src/other.txt'), 'new\n');
    await s.step('after');
    expect(await newestExact(s)).toBe(false);
  });

  it("stages the files a step's tool input names, though the watcher never saw them change; a name outside the project narrows nothing", async () => {
    const s = await session(['src'], { waits: { 'confirm-scan': 60_000 } });
    const live = triggers;
    if (!live) throw new Error('no session');
    const elsewhere = path.join(s.sb.base, 'link.txt');
    fs.linkSync(path.join(s.root, 'src/file.txt'), elsewhere);
    // As an Edit's payload names it (absolute), and a patch's (relative to the agent's folder).
    live.willWrite([path.join(s.root, 'src/file.txt'), '../../outside.txt', '/etc/passwd'], s.root);
    fs.writeFileSync(elsewhere, 'written where the watcher does not look\n');
    await s.step('after the edit');
    expect(await newestExact(s)).toBe(true);
    live.willWrite(['file.txt'], path.join(s.root, 'src'));
    fs.writeFileSync(elsewhere, 'again\n');
    await s.step('after the patch');
    expect(await newestExact(s)).toBe(true);
    // Without the name, the same write is not in the step's checkpoint (the quiet-time walk finds it).
    fs.writeFileSync(elsewhere, 'unnamed\n');
    await s.step('unnamed');
    const newest = s.engine.list().at(-1);
    const { record } = await s.walked.snapshot({ trigger: 'manual' });
    expect(newest?.fromChangedPaths).toBe(true);
    expect(newest?.tree).not.toBe(record.tree);
  });

  it('a step never waits for the confirming walk: the walk is stopped, and done again at the next quiet moment', async () => {
    // git as it is, but the first walk of the whole tree once armed takes 30 s (a big tree's).
    const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'rewind-slow-git-'));
    const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    const marks = path.join(bin, 'marks');
    fs.mkdirSync(marks);
    fs.writeFileSync(
      path.join(bin, 'git'),
      `#!/bin/sh\ncase " $* " in *" add -A -v --ignore-errors "*) case " $* " in *pathspec-from-file*) ;; *) if [ -e ${marks}/armed ] && mkdir ${marks}/slow 2>/dev/null; then touch ${marks}/walking; sleep 30; touch ${marks}/walked; fi ;; esac ;; esac\nexec ${real} "$@"\n`,
      { mode: 0o755 },
    );
    try {
      const s = await session(['src'], { waits: { 'confirm-scan': 200 } }, { PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}` });
      fs.writeFileSync(path.join(marks, 'armed'), '');
      fs.writeFileSync(path.join(s.root, 'src/file.txt'), 'edited\n');
      await s.step('edit');
      await waitFor(() => fs.existsSync(path.join(marks, 'walking')), 15_000, 'the confirming walk under way');
      fs.writeFileSync(path.join(s.root, 'src/file.txt'), 'edited again\n');
      await s.step('next');
      expect(fs.existsSync(path.join(marks, 'walked'))).toBe(false);
      expect(await newestExact(s)).toBe(true);
      const newest = s.engine.list().at(-1);
      await waitFor(() => s.engine.scanConfirmedThrough() === newest?.id, 15_000, 'the walk done again');
    } finally {
      fs.rmSync(bin, { recursive: true, force: true });
    }
  }, 30_000);
});
