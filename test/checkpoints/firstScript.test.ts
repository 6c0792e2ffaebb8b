// The first snapshot's script is started before its arguments are known: it answers the
// project's git config early, lists the untracked files ahead, snapshots with the
// arguments it is given later, and exits untouched when it is let go.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFirstScript } from '../../src/checkpoints/snapshot/firstScript.js';
import { projectGitEnv } from '../../src/checkpoints/git/gitEnv.js';
import { parseScriptOutput } from '../../src/checkpoints/snapshot/snapshotScript.js';
import { shadowGit, treePaths } from '../helpers/shadow.js';
import { waitFor } from '../helpers/waitFor.js';
import { commit } from '../helpers/repoShapes.js';
import { running } from '../helpers/children.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-first-');
});
afterEach(() => sb.cleanup());

function scanFiles(name: string) {
  const dir = sb.folder(`scan-${name}`);
  return { standardExclude: path.join(dir, 'standard.exclude'), result: path.join(dir, 'heavy-scan') };
}

describe('first snapshot script', () => {
  it('the first checkpoint, made by it, has the commit message the engine wrote', async () => {
    const root = sb.repo('message');
    const checkpoints = sb.open(root);
    const { record } = await checkpoints.snapshot({ label: "a label with 'quotes', $dollars and\nlines", trigger: 'manual' });
    expect(shadowGit(checkpoints.repo.gitDir, 'log', '-1', '--format=%B', record.commit)).toBe(
      "a label with 'quotes', $dollars and lines\n\nRewind-Checkpoint: 1\nRewind-Trigger: manual\n\n",
    );
  });

  it("answers the project's git config before it has arguments, then commits with the ones it is given", async () => {
    const root = sb.repo('run');
    sb.git(root, 'config', 'core.autocrlf', 'input');
    const checkpoints = sb.open(root);
    const first = await checkpoints.snapshot();
    const gitDir = checkpoints.repo.gitDir;
    write(root, 'new.txt', 'new\n');
    const script = startFirstScript(checkpoints.repo, projectGitEnv(sb.env), scanFiles('run'));
    expect((await script.config)?.toString()).toContain('core.autocrlf\ninput');

    const message = 'subject\n\nbody with $HOME and `ticks`\n';
    const run = script.run({ prevCommit: first.record.commit, prevTree: first.record.tree, ref: 'refs/checkpoints/2', mode: 'commit', diff: false, list: false, message });
    const output = parseScriptOutput((await run).stdout);
    expect(output.kind).toBe('new');
    expect(output.staged).toEqual([{ action: 'add', path: 'new.txt' }]);
    expect(shadowGit(gitDir, 'rev-parse', 'refs/checkpoints/2').trim()).toBe(output.commit);
    expect(shadowGit(gitDir, 'rev-parse', `${output.commit}^`).trim()).toBe(first.record.commit);
    expect(shadowGit(gitDir, 'log', '-1', '--format=%B', output.commit ?? '')).toBe(`${message}\n`);
    expect(script.untracked()).toEqual(['new.txt']);
  });

  it('stages the tracked files, then the untracked ones it listed; a listed file gone meanwhile makes it walk instead', async () => {
    const root = sb.repo('listed');
    const checkpoints = sb.open(root);
    const first = await checkpoints.snapshot();
    const gitDir = checkpoints.repo.gitDir;
    write(root, 'README.md', 'changed\n');
    write(root, 'kept.txt', 'kept\n');
    write(root, '[g]lob*.txt', 'a name with pathspec magic\n');
    write(root, 'gone.txt', 'deleted before the staging\n');
    const scan = scanFiles('listed');
    const script = startFirstScript(checkpoints.repo, projectGitEnv(sb.env), scan);
    const listing = `${scan.result}.untracked`;
    await waitFor(() => fs.existsSync(listing) && fs.readFileSync(listing, 'utf8').includes('gone.txt'), 10_000, 'the listing');
    fs.rmSync(path.join(root, 'gone.txt'));
    // Only a walk at staging time finds a file made after the listing.
    write(root, 'late.txt', 'made after the listing\n');
    const run = script.run({ prevCommit: first.record.commit, prevTree: first.record.tree, ref: 'refs/checkpoints/2', mode: 'commit', diff: false, list: false, trackedThenListed: true, message: 'm\n' });
    const output = parseScriptOutput((await run).stdout);
    expect(treePaths(gitDir, output.tree)).toEqual(['README.md', '[g]lob*.txt', 'kept.txt', 'late.txt']);
    expect(shadowGit(gitDir, 'show', `${output.tree}:README.md`)).toBe('changed\n');
  });

  it('with nothing gone, the listed files are all it stages beside the tracked ones', async () => {
    const root = sb.repo('listed-fast');
    const checkpoints = sb.open(root);
    const first = await checkpoints.snapshot();
    write(root, 'a.txt', 'a\n');
    write(root, 'sub dir/-b.txt', 'b\n');
    const scan = scanFiles('listed-fast');
    const script = startFirstScript(checkpoints.repo, projectGitEnv(sb.env), scan);
    const listing = `${scan.result}.untracked`;
    await waitFor(() => fs.existsSync(listing) && fs.readFileSync(listing, 'utf8').includes('sub dir/-b.txt'), 10_000, 'the listing');
    // Made after the listing: only a walk would stage it, and with nothing gone there is none.
    write(root, 'late.txt', 'made after the listing\n');
    const run = script.run({ prevCommit: first.record.commit, prevTree: first.record.tree, ref: 'refs/checkpoints/2', mode: 'commit', diff: false, list: false, trackedThenListed: true, message: 'm\n' });
    const output = parseScriptOutput((await run).stdout);
    expect(output.staged).toEqual([
      { action: 'add', path: 'a.txt' },
      { action: 'add', path: 'sub dir/-b.txt' },
    ]);
    expect(treePaths(checkpoints.repo.gitDir, output.tree)).toEqual(['README.md', 'a.txt', 'sub dir/-b.txt']);
  });

  it('let go without arguments, it exits, changes nothing and leaves no listing behind', async () => {
    const root = sb.repo('cancel');
    const checkpoints = sb.open(root);
    await checkpoints.snapshot();
    const gitDir = checkpoints.repo.gitDir;
    write(root, 'new.txt', 'new\n');
    const refsBefore = shadowGit(gitDir, 'for-each-ref');
    const indexBefore = shadowGit(gitDir, 'ls-files', '-s');
    const scan = scanFiles('cancel');
    const script = startFirstScript(checkpoints.repo, projectGitEnv(sb.env), scan);
    await script.config;
    await script.cancel();
    expect(shadowGit(gitDir, 'for-each-ref')).toBe(refsBefore);
    expect(shadowGit(gitDir, 'ls-files', '-s')).toBe(indexBefore);
    expect(fs.readdirSync(path.dirname(scan.result))).toEqual([]);
  });

  it('refuses arguments that would not survive its one line', async () => {
    const root = sb.repo('spaces');
    const checkpoints = sb.open(root);
    const script = startFirstScript(checkpoints.repo, projectGitEnv(sb.env), scanFiles('spaces'));
    expect(() => script.run({ ref: 'refs/checkpoints/a b', mode: 'commit', diff: false, list: false, message: '' })).toThrow(/white space/);
    await script.cancel();
  });

  it('the first checkpoint reports the heavy files the later walks report, and no others', async () => {
    const root = sb.repo('heavy');
    commit(sb, root, { 'tracked.iso': 'tracked image\n' }, 'an image on purpose');
    write(root, '.gitignore', 'ignored/\n');
    write(root, 'ignored/big.iso', 'ignored image\n');
    write(root, 'disk.iso', 'untracked image\n');
    write(root, 'models/weights.safetensors', 'weights\n');
    write(root, 'models/readme.md', 'about the weights\n');
    write(root, 'global.gguf', 'globally excluded\n');
    write(root, 'configured.onnx', 'excluded by checkpoint_exclude\n');
    const excludes = path.join(sb.home, 'global-excludes');
    fs.writeFileSync(excludes, 'global.gguf\n');
    const globalConfig = path.join(sb.home, 'global-gitconfig');
    fs.writeFileSync(globalConfig, `[core]\n\texcludesFile = ${excludes}\n`);
    const checkpoints = sb.open(root, { checkpointExclude: ['*.onnx'] }, { GIT_CONFIG_GLOBAL: globalConfig });

    const first = await checkpoints.snapshot();
    const heavy = [
      { path: 'disk.iso', bytes: 16, reason: expect.stringMatching(/heavy/) },
      { path: 'models/weights.safetensors', bytes: 8, reason: expect.stringMatching(/heavy/) },
    ];
    expect(first.record.skipped).toEqual(heavy);
    expect(treePaths(checkpoints.repo.gitDir, first.record.tree)).toEqual(['.gitignore', 'README.md', 'models/readme.md', 'tracked.iso']);
    expect(fs.readdirSync(checkpoints.store.root).filter((name) => name.startsWith('heavy-scan.'))).toEqual([]);

    // The second snapshot starts the ordinary background walk; the third reports what it found.
    await checkpoints.snapshot();
    const walker = Number(fs.readFileSync(path.join(checkpoints.store.root, 'heavy-scan.started'), 'utf8'));
    await waitFor(() => !running(walker), 10_000, 'the background walk');
    const third = await checkpoints.snapshot();
    expect(third.record.skipped).toEqual(heavy);
  });

  it('in a plain folder (nothing to list ahead with) the walk beside the add finds the heavy files', async () => {
    const root = sb.folder('plain');
    write(root, 'notes.txt', 'notes\n');
    write(root, 'disk.iso', 'iso bytes\n');
    const { record } = await sb.open(root).snapshot();
    expect(record.skipped).toEqual([{ path: 'disk.iso', bytes: 10, reason: expect.stringMatching(/heavy/) }]);
  });

  it('a first snapshot that has to stage again (a nested repo without a commit) still reports heavy files', async () => {
    const root = sb.repo('retry');
    write(root, 'disk.iso', 'iso bytes\n');
    fs.mkdirSync(path.join(root, 'fresh'));
    sb.git(path.join(root, 'fresh'), 'init', '-q');
    write(root, 'fresh/draft.txt', 'draft\n');
    const { record } = await sb.open(root).snapshot();
    expect(record.skipped).toEqual([
      { path: 'disk.iso', bytes: 10, reason: expect.stringMatching(/heavy/) },
      { path: 'fresh/', bytes: 0, reason: expect.stringMatching(/without a commit/) },
    ]);
  });
});
