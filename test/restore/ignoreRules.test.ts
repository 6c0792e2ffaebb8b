// A checkpoint says nothing about what its own ignore rules leave out: a restore or redo
// never deletes a path the TARGET checkpoint's rules ignore (its .gitignore files at every
// depth, read from its objects, plus the project's info/exclude and checkpoint_exclude),
// so undoing a restore that removed a .gitignore loses nothing. Real git, the CLI and the
// engine.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { redoLast } from '../../src/checkpoints/restore/redo.js';
import { restoreCheckpoint } from '../../src/checkpoints/restore/restore.js';
import { rewind } from '../helpers/io.js';
import { projectState, restoreJson, snapshotId } from '../helpers/restoreKit.js';
import { treePaths } from '../helpers/shadow.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-restore-ignore-');
});
afterEach(async () => {
  await sb.cleanup();
});

const snap = (root: string, label?: string) => snapshotId(rewind, sb.env, root, label);

/** The files a project ignores, as a user's tools make them. */
function writeIgnoredFiles(root: string, files: readonly string[]): void {
  for (const file of files) write(root, file, `ignored, on disk only: ${file}\n`);
}

describe('undoing a restore that removed a .gitignore (the command line)', () => {
  it('keeps node_modules/, .env and dist/ that the root .gitignore ignores: redo brings the tree back exactly', async () => {
    const root = sb.repo('root-rules');
    write(root, 'app.js', 'console.log(1);\n');
    const before = await snap(root, 'before the .gitignore');
    write(root, '.gitignore', 'node_modules/\n.env\ndist/\n');
    write(root, 'app.js', 'console.log(2);\n');
    writeIgnoredFiles(root, ['node_modules/express/index.js', 'node_modules/.bin/x', '.env', 'dist/bundle.js']);
    await snap(root, 'with the .gitignore');
    const stateNow = projectState(root);

    const restored = await restoreJson(rewind, sb.env, root, before);
    expect(restored.deleted).toEqual(['.gitignore']);
    expect(fs.readFileSync(path.join(root, 'node_modules/express/index.js'), 'utf8')).toMatch(/ignored/);

    const redo = await rewind(['redo', '--yes'], sb.env, root);
    expect(redo.stderr).toBe('');
    expect(redo.code).toBe(0);
    expect(projectState(root)).toEqual(stateNow);
  });

  it('a restore to a checkpoint whose .gitignore ignores files the current tree holds leaves them, and the plan, the dry run and diff say so', async () => {
    const root = sb.repo('target-rules');
    write(root, '.gitignore', 'cache/\n*.log\n');
    write(root, 'src/a.ts', 'a1\n');
    const target = await snap(root, 'ignores cache/ and *.log');
    // The rules go; what they ignored is now checkpointed.
    fs.rmSync(path.join(root, '.gitignore'));
    write(root, 'cache/big.bin', 'cache\n');
    write(root, 'server.log', 'log\n');
    write(root, 'src/a.ts', 'a2\n');
    await snap(root, 'no rules');
    const stateNow = projectState(root);

    const dry = await rewind(['restore', String(target), '--dry-run'], sb.env, root);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/^\s+write\s+src\/a\.ts$/m);
    expect(dry.stdout).toMatch(/^\s+create\s+\.gitignore$/m);
    expect(dry.stdout).not.toMatch(/delete/);
    expect(dry.stdout).toMatch(new RegExp(`^\\s+left alone\\s+cache/big\\.bin: ignored by the rules of checkpoint #${target}`, 'm'));
    expect(dry.stdout).toMatch(/^\s+left alone\s+server\.log: /m);
    const diff = await rewind(['diff', String(target), '--name-status'], sb.env, root);
    expect(diff.code).toBe(0);
    expect(diff.stdout).toBe('A\t.gitignore\nM\tsrc/a.ts\n');

    const restored = await restoreJson(rewind, sb.env, root, target);
    expect(restored.deleted).toEqual([]);
    expect([...restored.changed].sort()).toEqual(['.gitignore', 'src/a.ts']);
    expect(projectState(root)).toEqual({ ...stateNow, '.gitignore': expect.any(String) as string, 'src/a.ts': expect.any(String) as string });
    expect(fs.readFileSync(path.join(root, 'cache/big.bin'), 'utf8')).toBe('cache\n');
  });

  it("the rules of the shadow's info/exclude (checkpoint_exclude, the project's info/exclude) count as the target's", async () => {
    const root = sb.repo('exclude-rules');
    const target = await snap(root, 'before the files');
    // Tracked by the project, so checkpointed, and still checkpointed once the rules
    // leave them out (git keeps tracking what it tracks).
    write(root, 'keys.secret', 'k\n');
    write(root, 'settings.local', 's\n');
    sb.git(root, 'add', 'keys.secret', 'settings.local');
    sb.git(root, 'commit', '-q', '-m', 'track them');
    const tracked = await snap(root, 'tracked');
    fs.writeFileSync(path.join(sb.configDir, 'config.json'), JSON.stringify({ checkpoint_exclude: ['*.secret'] }));
    fs.appendFileSync(path.join(root, '.git', 'info', 'exclude'), '*.local\n');
    const engine = sb.open(root);
    expect(treePaths(engine.repo.gitDir, engine.get(tracked).tree)).toEqual(expect.arrayContaining(['keys.secret', 'settings.local']));
    const stateNow = projectState(root);
    const restored = await restoreJson(rewind, sb.env, root, target);
    expect(restored.deleted).toEqual([]);
    expect(projectState(root)).toEqual(stateNow);
  });
});

describe('nested .gitignore files (the engine)', () => {
  it('rules at every depth, and odd names (newline, spaces, leading dash, unicode, a colon), are read from the target', async () => {
    const root = sb.repo('nested-rules');
    const odd = 'we\nird -dir é';
    write(root, 'keep.txt', 'keep\n');
    const engine = sb.open(root);
    const before = (await engine.snapshot({ label: 'no rules yet' })).record.id;
    write(root, 'pkg/.gitignore', 'build/\n*.o\n');
    write(root, `${odd}/.gitignore`, 'secret file\n-x*\n:colon\n');
    write(root, 'pkg/deep/er/.gitignore', '/only-here.txt\n');
    writeIgnoredFiles(root, [
      'pkg/build/out/main.js',
      'pkg/deep/x.o',
      'pkg/deep/er/only-here.txt',
      `${odd}/secret file`,
      `${odd}/-xyz`,
      `${odd}/:colon`,
      `${odd}/sub/-x\nnewline`,
    ]);
    // Not ignored: the rules only work where they are.
    write(root, 'pkg/deep/only-here.txt', 'checkpointed\n');
    await engine.snapshot({ label: 'nested rules' });
    const stateNow = projectState(root);

    const restored = await restoreCheckpoint(engine, before);
    expect([...restored.deleted].sort()).toEqual([`${odd}/.gitignore`, 'pkg/.gitignore', 'pkg/deep/er/.gitignore', 'pkg/deep/only-here.txt'].sort());
    const undone = await redoLast(engine);
    expect(undone.leftAlone.map((item) => item.path).sort()).toEqual(
      [`${odd}/-xyz`, `${odd}/:colon`, `${odd}/secret file`, `${odd}/sub/-x\nnewline`, 'pkg/build/out/main.js', 'pkg/deep/er/only-here.txt', 'pkg/deep/x.o'].sort(),
    );
    expect(undone.deleted).toEqual([]);
    expect(projectState(root)).toEqual(stateNow);
  });

  it('a file under a folder the target ignores counts as ignored, but a folder-only rule does not ignore a file of that name', async () => {
    const root = sb.repo('folder-rules');
    write(root, '.gitignore', 'out/\n');
    const engine = sb.open(root);
    const target = (await engine.snapshot({ label: 'ignores out/' })).record.id;
    fs.rmSync(path.join(root, '.gitignore'));
    write(root, 'out/a/b/c.txt', 'deep in an ignored folder\n');
    write(root, 'sub/out', 'a file named out: `out/` does not ignore it\n');
    await engine.snapshot({ label: 'no rules' });
    const restored = await restoreCheckpoint(engine, target);
    expect(restored.deleted).toEqual(['sub/out']);
    expect(restored.leftAlone.map((item) => item.path)).toEqual(['out/a/b/c.txt']);
    expect(fs.existsSync(path.join(root, 'out/a/b/c.txt'))).toBe(true);
  });
});
