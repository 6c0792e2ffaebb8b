// `rewind fork <id> --branch NAME`: the checkpoint as one new commit on a new branch of the
// user's repository, in a new linked worktree; the rest of .git as it was, no program of the
// user's run, and each refusal writing nothing.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fingerprint } from '../helpers/fingerprint.js';
import { rewind } from '../helpers/io.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-cmd-fork-branch-');
});
afterEach(() => sb.cleanup());

/** The fingerprint of a folder's files without .git. */
function filesOf(root: string): Record<string, string> {
  return Object.fromEntries(Object.entries(fingerprint(root)).filter(([rel]) => !/^\.git(\/|$)/.test(rel)));
}

/** The keys whose value differs between two fingerprints (added and removed ones too). */
function changed(before: Record<string, string>, after: Record<string, string>): string[] {
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((key) => before[key] !== after[key]).sort();
}

/**
 * Every kind of program a git call could run in the project, each leaving a file in
 * `markers` if it runs: hooks (post-checkout, reference-transaction, post-index-change), an
 * fsmonitor, a smudge and clean filter for every path, a gpg that signs every commit.
 */
function armTraps(root: string): string {
  const markers = sb.folder('markers');
  const script = (name: string) => `#!/bin/sh\ntouch '${path.join(markers, name)}'\ncat\n`;
  for (const hook of ['post-checkout', 'reference-transaction', 'post-index-change']) write(root, `.git/hooks/${hook}`, script(hook), 0o755);
  write(root, '.git/trap-fsmonitor', script('fsmonitor'), 0o755);
  write(root, '.git/trap-filter', script('filter'), 0o755);
  write(root, '.git/trap-gpg', script('gpg'), 0o755);
  // (commit-tree reads no commit.gpgSign in git 2.39; rewind passes --no-gpg-sign so no git version signs.)
  sb.git(root, 'config', 'commit.gpgSign', 'true');
  sb.git(root, 'config', 'gpg.program', path.join(root, '.git/trap-gpg'));
  sb.git(root, 'config', 'core.fsmonitor', path.join(root, '.git/trap-fsmonitor'));
  sb.git(root, 'config', 'filter.trap.smudge', path.join(root, '.git/trap-filter'));
  sb.git(root, 'config', 'filter.trap.clean', path.join(root, '.git/trap-filter'));
  sb.git(root, 'config', 'filter.trap.required', 'true');
  write(root, '.git/info/attributes', '* filter=trap\n');
  return markers;
}

/** A repository whose checkpoint #2 is a tool step of a prompt's turn, taken on top of commit `first`; then more commits, a stash, a staged change. */
async function project(): Promise<{ root: string; first: string; atTwo: Record<string, string> }> {
  const root = sb.repo('proj');
  const first = sb.git(root, 'rev-parse', 'HEAD').trim();
  write(root, 'src/app.js', 'console.log(1);\n');
  write(root, 'bin/run.sh', '#!/bin/sh\necho hi\n', 0o755);
  write(root, 'data.bin', Buffer.from([0, 1, 2, 255, 0]));
  fs.symlinkSync('bin/run.sh', path.join(root, 'link-to-run'));
  const env = { ...sb.env, REWIND_SESSION: 's1' };
  expect((await rewind(['snapshot', '--trigger', 'UserPromptSubmit', '--label', 'make the tests pass'], env, root)).code).toBe(0);
  write(root, 'src/app.js', 'console.log(2);\n');
  expect((await rewind(['snapshot', '--trigger', 'PreToolUse:Edit', '--label', 'Edit src/app.js'], env, root)).code).toBe(0);
  const atTwo = filesOf(root);
  sb.git(root, 'add', '-A');
  sb.git(root, 'commit', '-q', '-m', 'second');
  write(root, 'README.md', '# stashed\n');
  sb.git(root, 'stash', '-q');
  write(root, 'staged.txt', 'staged\n');
  sb.git(root, 'add', 'staged.txt');
  write(root, 'src/app.js', 'console.log(3);\n');
  return { root, first, atTwo };
}

describe('rewind fork --branch', () => {
  it("makes one commit of exactly the checkpoint's tree on top of the HEAD it recorded, in a new worktree; the rest of .git untouched, no user program run", async () => {
    const { root, first, atTwo } = await project();
    const markers = armTraps(root);
    const gitBefore = fingerprint(path.join(root, '.git'));
    const filesBefore = filesOf(root);
    const result = await rewind(['fork', '2', '--branch', 'keep/green', '--json'], sb.env, root);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(fs.readdirSync(markers)).toEqual([]);
    const out = JSON.parse(result.stdout) as Record<string, unknown>;
    const dir = `${root}-keep-green`;
    const tree = sb.project(root).get(2).tree;
    expect(out).toMatchObject({ id: 2, branch: 'keep/green', dir, tree, parent: first, parentFrom: 'checkpoint', label: 'Edit src/app.js' });
    // The worktree: HEAD is the branch, its tree the checkpoint's, its files the checkpoint's, its index clean.
    expect(sb.git(dir, 'rev-parse', 'HEAD^{tree}').trim()).toBe(tree);
    expect(sb.git(dir, 'rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('keep/green');
    expect(sb.git(root, 'rev-parse', 'keep/green').trim()).toBe(out.commit);
    expect(sb.git(root, 'log', '-1', '--format=%P', 'keep/green').trim()).toBe(first);
    expect(sb.git(root, 'rev-list', '--count', 'keep/green').trim()).toBe('2');
    expect(filesOf(dir)).toEqual(atTwo);
    // (The test's own git, with the traps off: diff-index reads the fsmonitor.)
    expect(sb.git(dir, '-c', 'core.fsmonitor=false', 'diff-index', '--cached', 'HEAD')).toBe('');
    const message = sb.git(root, 'log', '-1', '--format=%B', 'keep/green');
    expect(message).toMatch(/^Rewind checkpoint #2: before Edit src\/app\.js\n/);
    expect(message).toContain('  Step: Edit src/app.js\n');
    expect(message).toContain('  Prompt: make the tests pass\n');
    // No program of the user's ran: no hook, fsmonitor or filter.
    expect(fs.readdirSync(markers)).toEqual([]);
    // The project: files as they were; .git as it was but the new objects, the branch (and its reflog), the worktree's entry.
    expect(filesOf(root)).toEqual(filesBefore);
    const gitAfter = fingerprint(path.join(root, '.git'));
    const allowed = /^(objects\/|worktrees($|\/)|refs\/heads\/keep($|\/green$)|logs\/refs\/heads\/keep($|\/green$))/;
    const moved = changed(gitBefore, gitAfter);
    expect(moved.filter((key) => !allowed.test(key))).toEqual([]);
    expect(moved).toEqual(expect.arrayContaining(['refs/heads/keep/green', 'worktrees/proj-keep-green/HEAD']));
    for (const kept of ['HEAD', 'index', 'config', 'refs/heads/main', 'refs/stash', 'logs/refs/stash', 'hooks/post-checkout', 'info/attributes']) {
      expect(gitAfter[kept], kept).toBeDefined();
      expect(gitAfter[kept], kept).toBe(gitBefore[kept]);
    }
    // Objects came only as added files (nothing of the store rewritten).
    expect(moved.filter((key) => key.startsWith('objects/') && gitBefore[key] !== undefined && !fs.statSync(path.join(root, '.git', key)).isDirectory())).toEqual([]);
  });

  it('says the parent in words: on top of the recorded HEAD, HEAD now when none was recorded, no parent in a repository with no commit', async () => {
    const root = sb.folder('fresh');
    sb.git(root, 'init', '-q', '-b', 'main');
    write(root, 'a.txt', 'a\n');
    expect((await rewind(['snapshot'], sb.env, root)).code).toBe(0);
    const none = await rewind(['fork', '1', '--branch', 'first'], sb.env, root);
    expect(none.code).toBe(0);
    expect(none.stdout).toContain("Branch first: commit ");
    expect(none.stdout).toContain("holds checkpoint #1's files, no parent (the repository has no commit yet)");
    expect(sb.git(root, 'rev-list', '--count', 'first').trim()).toBe('1');
    sb.git(root, 'commit', '-q', '--allow-empty', '-m', 'now');
    const head = sb.git(root, 'rev-parse', 'HEAD').trim();
    const now = await rewind(['fork', '1', '--branch', 'second', '--json'], sb.env, root);
    expect(JSON.parse(now.stdout)).toMatchObject({ parent: head, parentFrom: 'now' });
    expect(sb.git(`${root}-second`, 'rev-parse', 'HEAD^{tree}').trim()).toBe(sb.project(root).get(1).tree);
    const recorded = await rewind(['fork', '1', '--branch', 'third'], sb.env, root);
    expect(recorded.stdout).toMatch(/^Branch third: commit [0-9a-f]{12} holds checkpoint #1's files, on top of [0-9a-f]{12}, the project's HEAD now \(the checkpoint recorded none/);
    expect(recorded.stdout).toContain(`Checked out in ${root}-third`);
  });

  it('HEAD now when the repository no longer has the commit the checkpoint recorded', async () => {
    const root = sb.repo('rewritten');
    const first = sb.git(root, 'rev-parse', 'HEAD').trim();
    sb.git(root, 'commit', '-q', '--allow-empty', '-m', 'to be dropped');
    const dropped = sb.git(root, 'rev-parse', 'HEAD').trim();
    write(root, 'new.txt', 'not committed\n');
    expect((await rewind(['snapshot'], sb.env, root)).code).toBe(0);
    sb.git(root, 'reset', '-q', '--hard', first);
    sb.git(root, 'reflog', 'expire', '--expire=now', '--all');
    sb.git(root, 'gc', '-q', '--prune=now');
    expect(() => sb.git(root, 'cat-file', '-e', dropped)).toThrow();
    const result = await rewind(['fork', '1', '--branch', 'kept', '--json'], sb.env, root);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ parent: first, parentFrom: 'now' });
    expect(sb.git(`${root}-kept`, 'rev-parse', 'HEAD^{tree}').trim()).toBe(sb.project(root).get(1).tree);
  });

  it('refuses, writing nothing: a branch that exists, an invalid name, a folder that is not empty, a project outside git', async () => {
    const { root } = await project();
    sb.git(root, 'branch', 'feature/x');
    const markers = armTraps(root);
    const taken = sb.folder('taken');
    write(taken, 'mine.txt', 'mine\n');
    const gitBefore = fingerprint(path.join(root, '.git'));
    const refusals: [string[], number, RegExp][] = [
      [['--branch', 'main'], 1, /^rewind: branch 'main' already exists: fork never moves a branch; name a new one with --branch NAME\n$/],
      [['--branch', 'feature'], 1, /^rewind: branch 'feature' cannot be made next to the branch 'feature\/x'/],
      [['--branch', 'bad..name'], 2, /^rewind: 'bad\.\.name' is not a valid branch name/],
      [['--branch=-x'], 2, /^rewind: '-x' is not a valid branch name/],
      [['--branch', 'HEAD'], 2, /^rewind: 'HEAD' is not a valid branch name/],
      [['--branch', 'ok', '--dir', taken], 1, /exists and is not empty: the branch is checked out in a new or empty folder; name one with --dir DIR\n$/],
      [['--branch', 'ok', '--dir', path.join(root, 'inside')], 1, /is inside the project: fork into a folder outside it/],
    ];
    for (const [args, code, said] of refusals) {
      const result = await rewind(['fork', '2', ...args], sb.env, root);
      expect(result.code, args.join(' ')).toBe(code);
      expect(result.stderr, args.join(' ')).toMatch(said);
      expect(result.stderr.split('\n').filter(Boolean), args.join(' ')).toHaveLength(1);
      expect(result.stdout).toBe('');
    }
    expect(fingerprint(path.join(root, '.git'))).toEqual(gitBefore);
    expect(fs.readdirSync(taken)).toEqual(['mine.txt']);
    expect(fs.existsSync(`${root}-ok`)).toBe(false);
    expect(fs.readdirSync(markers)).toEqual([]);
    // An empty folder is taken.
    const empty = sb.folder('empty');
    expect((await rewind(['fork', '2', '--branch', 'ok', '--dir', empty], sb.env, root)).code).toBe(0);
    expect(sb.git(empty, 'rev-parse', 'HEAD^{tree}').trim()).toBe(sb.project(root).get(2).tree);
    // A project outside git: the plain folder fork is named, and works.
    const plain = sb.folder('plain');
    write(plain, 'a.txt', 'a\n');
    expect((await rewind(['snapshot'], sb.env, plain)).code).toBe(0);
    const outside = await rewind(['fork', '1', '--branch', 'x'], sb.env, plain);
    expect(outside).toMatchObject({ code: 1, stdout: '' });
    expect(outside.stderr).toBe(`rewind: ${plain} is not a git repository, so it has no branches: \`rewind fork 1\` (without --branch) writes the checkpoint's files into a new folder\n`);
    expect(fs.existsSync(`${plain}-x`)).toBe(false);
    expect((await rewind(['fork', '1'], sb.env, plain)).code).toBe(0);
  });
  it('from a linked worktree: the objects and the branch go to the shared repository; that worktree and the main one are untouched', async () => {
    const main = sb.repo('main');
    const linked = path.join(sb.base, 'p', 'linked');
    sb.git(main, 'worktree', 'add', '-q', '-b', 'side', linked);
    write(linked, 'side.txt', 'side\n');
    expect((await rewind(['snapshot'], sb.env, linked)).code).toBe(0);
    const commonBefore = fingerprint(path.join(main, '.git'));
    const mainFiles = filesOf(main);
    const result = await rewind(['fork', '1', '--branch', 'from-side', '--json'], sb.env, linked);
    expect(result.code).toBe(0);
    const out = JSON.parse(result.stdout) as { dir: string; parent: string; parentFrom: string };
    expect(out).toMatchObject({ dir: `${linked}-from-side`, parentFrom: 'checkpoint', parent: sb.git(linked, 'rev-parse', 'HEAD').trim() });
    expect(sb.git(out.dir, 'rev-parse', 'HEAD^{tree}').trim()).toBe(sb.project(linked).get(1).tree);
    expect(sb.git(main, 'rev-parse', 'from-side^{tree}').trim()).toBe(sb.project(linked).get(1).tree);
    const moved = changed(commonBefore, fingerprint(path.join(main, '.git')));
    expect(moved.filter((key) => !/^(objects\/|worktrees\/linked-from-side($|\/)|refs\/heads\/from-side$|logs\/refs\/heads\/from-side$)/.test(key))).toEqual([]);
    expect(filesOf(main)).toEqual(mainFiles);
  });

  it('a failure after the branch is made takes the branch back and says so in one line', async () => {
    const { root } = await project();
    // git cannot make the worktree's entry: `.git/worktrees` is a file.
    fs.writeFileSync(path.join(root, '.git', 'worktrees'), 'not a folder\n');
    const refsBefore = sb.git(root, 'for-each-ref');
    const result = await rewind(['fork', '2', '--branch', 'doomed'], sb.env, root);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^rewind: checkpoint #2 could not be forked into branch 'doomed' \(no branch or worktree was left\): git .*worktree add/);
    expect(result.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(sb.git(root, 'for-each-ref')).toBe(refsBefore);
    expect(fs.existsSync(`${root}-doomed`)).toBe(false);
  });
});
