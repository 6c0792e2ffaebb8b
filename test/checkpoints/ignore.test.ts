// A checkpoint holds what `git status` in the project sees: tracked files and untracked
// files that are not ignored; never ignored files, never .git.
import fs from 'node:fs';
import path from 'node:path';
import { commit } from '../helpers/repoShapes.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { treePaths } from '../helpers/shadow.js';
import { createSandbox, runGitSync, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-ignore-');
});
afterEach(() => sb.cleanup());

/** The files `git status` in the project reports (tracked + untracked, not ignored), sorted. */
function gitStatusView(root: string, env: NodeJS.ProcessEnv = sb.gitEnv): string[] {
  const list = (...args: string[]) => runGitSync({ ...env, GIT_OPTIONAL_LOCKS: '0' }, root, ['ls-files', '-z', ...args]).toString('utf8').split('\0').filter(Boolean);
  return [...new Set([...list('-c'), ...list('-o', '--exclude-standard')])].filter((file) => fs.existsSync(path.join(root, file))).sort();
}

async function snapshotPaths(root: string, settings = {}, extraEnv: NodeJS.ProcessEnv = {}): Promise<string[]> {
  const checkpoints = sb.open(root, settings, extraEnv);
  const { record } = await checkpoints.snapshot();
  return treePaths(checkpoints.repo.gitDir, record.tree);
}

describe('ignore rules are the project’s own', () => {
  it('.gitignore files (root and nested) and the project’s .git/info/exclude keep files out; .git never goes in', async () => {
    const root = sb.repo('gitignore');
    write(root, '.gitignore', '*.log\nbuild/\n');
    write(root, 'pkg/.gitignore', 'generated.ts\n');
    write(root, 'app.log', 'log\n');
    write(root, 'build/out.js', 'out\n');
    write(root, 'pkg/generated.ts', 'gen\n');
    write(root, 'pkg/kept.ts', 'kept\n');
    write(root, 'secret.env', 'TOKEN=1\n');
    write(root, 'notes/secret.env', 'TOKEN=2\n');
    fs.appendFileSync(path.join(root, '.git', 'info', 'exclude'), 'secret.env\n');
    write(root, 'src/main.ts', 'main\n');
    const paths = await snapshotPaths(root);
    expect(paths).toEqual(['.gitignore', 'README.md', 'pkg/.gitignore', 'pkg/kept.ts', 'src/main.ts']);
    expect(paths).toEqual(gitStatusView(root));
  });

  it('a pattern only in the global excludes file named by core.excludesFile (GIT_CONFIG_GLOBAL) keeps files out', async () => {
    const root = sb.repo('global');
    const globalConfig = path.join(sb.home, 'custom-gitconfig');
    const excludes = path.join(sb.home, 'my-excludes');
    fs.writeFileSync(globalConfig, `[core]\n\texcludesFile = ${excludes}\n`);
    fs.writeFileSync(excludes, '*.swp\n.idea/\n');
    write(root, 'main.c.swp', 'swap\n');
    write(root, '.idea/workspace.xml', '<x/>\n');
    write(root, 'main.c', 'int main;\n');
    const env = { GIT_CONFIG_GLOBAL: globalConfig };
    const paths = await snapshotPaths(root, {}, env);
    expect(paths).toEqual(['README.md', 'main.c']);
    expect(paths).toEqual(gitStatusView(root, { ...sb.gitEnv, ...env }));

    // A new pattern in that file applies to the next checkpoint: the swap file written meanwhile is out.
    fs.appendFileSync(excludes, '*.orig\n');
    write(root, 'main.c.orig', 'backup\n');
    expect(await snapshotPaths(root, {}, env)).toEqual(['README.md', 'main.c']);
  });

  it('a pattern only in $XDG_CONFIG_HOME/git/ignore keeps files out', async () => {
    const root = sb.repo('xdg');
    const xdg = path.join(sb.base, 'xdg');
    write(xdg, 'git/ignore', '*.cache\n');
    write(root, 'x.cache', 'c\n');
    write(root, 'x.txt', 't\n');
    const env = { XDG_CONFIG_HOME: xdg };
    const paths = await snapshotPaths(root, {}, env);
    expect(paths).toEqual(['README.md', 'x.txt']);
    expect(paths).toEqual(gitStatusView(root, { ...sb.gitEnv, ...env }));
  });

  it('a pattern only in $HOME/.config/git/ignore (git’s default, HOME from the env given) keeps files out', async () => {
    const root = sb.repo('home-xdg');
    write(sb.home, '.config/git/ignore', '*.homecache\n');
    write(root, 'y.homecache', 'c\n');
    write(root, 'y.txt', 't\n');
    // git in the project, with the same HOME, ignores it:
    expect(gitStatusView(root)).toEqual(['README.md', 'y.txt']);
    expect(await snapshotPaths(root)).toEqual(['README.md', 'y.txt']);
  });

  it('core.excludesFile set in $HOME/.gitconfig (HOME from the env given), changed between snapshots, is followed', async () => {
    const root = sb.repo('home-gitconfig');
    const first = path.join(sb.home, 'ignore-one');
    const second = path.join(sb.home, 'ignore-two');
    fs.writeFileSync(first, '*.one\n');
    fs.writeFileSync(second, '*.two\n');
    fs.writeFileSync(path.join(sb.home, '.gitconfig'), `[core]\n\texcludesFile = ${first}\n`);
    write(root, 'a.one', '1\n');
    write(root, 'a.two', '2\n');
    const env = { GIT_CONFIG_GLOBAL: undefined };
    const gitEnv = { ...sb.gitEnv, GIT_CONFIG_GLOBAL: path.join(sb.home, '.gitconfig') };
    expect(gitStatusView(root, gitEnv)).toEqual(['README.md', 'a.two']);
    expect(await snapshotPaths(root, {}, env)).toEqual(['README.md', 'a.two']);
    fs.writeFileSync(path.join(sb.home, '.gitconfig'), `[core]\n\texcludesFile = ${second}\n`);
    expect(gitStatusView(root, gitEnv)).toEqual(['README.md', 'a.one']);
    expect(await snapshotPaths(root, {}, env)).toEqual(['README.md', 'a.one']);
  });

  it('checkpoint_exclude patterns keep files out, also once added later', async () => {
    const root = sb.repo('config-exclude');
    write(root, 'db.sqlite', 'db\n');
    write(root, 'tmp/scratch.txt', 'tmp\n');
    write(root, 'dist/bundle.js', 'bundle\n');
    write(root, 'src/a.ts', 'a\n');
    expect(await snapshotPaths(root, { checkpointExclude: ['*.sqlite', 'tmp/'] })).toEqual(['README.md', 'dist/bundle.js', 'src/a.ts']);
    expect(await snapshotPaths(root, { checkpointExclude: ['*.sqlite', 'tmp/', 'dist/'] })).toEqual(['README.md', 'src/a.ts']);
  });

  it('a file snapshotted, then ignored by a new .gitignore line, leaves the next checkpoint; a tracked file matching .gitignore stays', async () => {
    const root = sb.repo('newly-ignored');
    commit(sb, root, { 'tracked.log': 'tracked on purpose\n' }, 'a tracked log');
    write(root, 'debug.log', 'debug\n');
    write(root, 'out/a.o', 'object\n');
    write(root, 'keep.txt', 'keep\n');
    expect(await snapshotPaths(root)).toEqual(['README.md', 'debug.log', 'keep.txt', 'out/a.o', 'tracked.log']);
    write(root, '.gitignore', '*.log\nout/\n');
    const paths = await snapshotPaths(root);
    expect(paths).toEqual(['.gitignore', 'README.md', 'keep.txt', 'tracked.log']);
    expect(paths).toEqual(gitStatusView(root));
  });

  it('a file snapshotted, then excluded by a new line in .git/info/exclude, leaves the next checkpoint', async () => {
    const root = sb.repo('newly-excluded');
    write(root, 'local.env', 'A=1\n');
    write(root, 'keep.txt', 'keep\n');
    expect(await snapshotPaths(root)).toEqual(['README.md', 'keep.txt', 'local.env']);
    fs.appendFileSync(path.join(root, '.git', 'info', 'exclude'), 'local.env\n');
    expect(await snapshotPaths(root)).toEqual(['README.md', 'keep.txt']);
  });
});
