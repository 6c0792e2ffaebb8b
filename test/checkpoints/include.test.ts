// checkpoint_include: ignored files that match are checkpointed all the same, so deleting
// them can be undone; the size cap, checkpoint_exclude and the heavy patterns still hold.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { blobOid, hasObject, shadowGit, treePaths } from '../helpers/shadow.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-include-');
});
afterEach(() => sb.cleanup());

/** A project whose .gitignore ignores .env, *.sqlite, cache/ and node_modules/. */
function project(name: string): string {
  const root = sb.repo(name);
  write(root, '.gitignore', '.env\n*.sqlite\ncache/\nnode_modules/\n');
  sb.git(root, 'add', '.gitignore');
  sb.git(root, 'commit', '-q', '-m', 'ignores');
  write(root, '.env', 'SECRET=1\n');
  write(root, 'data.sqlite', Buffer.from([0, 1, 2, 255, 254, 10, 0]));
  write(root, 'cache/.env', 'NESTED=1\n');
  write(root, 'cache/blob.bin', 'not included\n');
  write(root, 'node_modules/pkg/index.js', 'module.exports = 1;\n');
  write(root, 'src/a.ts', 'export const a = 1;\n');
  return root;
}

const include = { checkpointInclude: ['.env', '*.sqlite'] };

describe('checkpoint_include', () => {
  it('checkpoints the ignored files that match, and a restore brings a deleted one back byte-identical', async () => {
    const root = project('inc');
    const checkpoints = sb.open(root, include);
    const shadow = checkpoints.repo.gitDir;
    const first = await checkpoints.snapshot({ label: 'first' });
    expect(treePaths(shadow, first.record.tree)).toEqual(['.env', '.gitignore', 'README.md', 'cache/.env', 'data.sqlite', 'src/a.ts']);

    const env = fs.readFileSync(path.join(root, '.env'));
    const db = fs.readFileSync(path.join(root, 'data.sqlite'));
    fs.rmSync(path.join(root, '.env'));
    fs.rmSync(path.join(root, 'data.sqlite'));
    const after = await checkpoints.snapshot({ label: 'rm .env data.sqlite' });
    expect(treePaths(shadow, after.record.tree)).toEqual(['.gitignore', 'README.md', 'cache/.env', 'src/a.ts']);
    expect(after.record.changes).toEqual({ added: 0, modified: 0, deleted: 2 });

    await checkpoints.restore(first.record.id);
    expect(fs.readFileSync(path.join(root, '.env')).equals(env)).toBe(true);
    expect(fs.readFileSync(path.join(root, 'data.sqlite')).equals(db)).toBe(true);
    // Still ignored by the project: its own git status shows only src/, as before.
    expect(sb.git(root, 'status', '--porcelain')).toBe('?? src/\n');
  });

  it('a restore to a checkpoint from before an included file existed leaves it alone (never deletes an ignored file)', async () => {
    const root = project('older');
    fs.rmSync(path.join(root, '.env'));
    const checkpoints = sb.open(root, include);
    const before = await checkpoints.snapshot({ label: 'no .env yet' });
    write(root, '.env', 'MADE=later\n');
    await checkpoints.snapshot({ label: '.env made' });
    await checkpoints.restore(before.record.id);
    expect(fs.readFileSync(path.join(root, '.env'), 'utf8')).toBe('MADE=later\n');
  });

  it('works in a folder without git too (its .gitignore files apply)', async () => {
    const root = sb.folder('plain');
    write(root, '.gitignore', '.env\n');
    write(root, '.env', 'PLAIN=1\n');
    write(root, 'a.txt', 'a\n');
    const checkpoints = sb.open(root, include);
    const first = await checkpoints.snapshot();
    expect(treePaths(checkpoints.repo.gitDir, first.record.tree)).toEqual(['.env', '.gitignore', 'a.txt']);
    fs.rmSync(path.join(root, '.env'));
    await checkpoints.snapshot();
    await checkpoints.restore(first.record.id);
    expect(fs.readFileSync(path.join(root, '.env'), 'utf8')).toBe('PLAIN=1\n');
  });

  it('leaves the ignored files out by default, as before', async () => {
    const root = project('default');
    const checkpoints = sb.open(root);
    const { record } = await checkpoints.snapshot();
    expect(treePaths(checkpoints.repo.gitDir, record.tree)).toEqual(['.gitignore', 'README.md', 'src/a.ts']);
    fs.rmSync(path.join(root, '.env'));
    const second = await checkpoints.snapshot({ onlyIfChanged: true });
    expect(second.unchanged).toBe(true);
  });

  it('takes an included file edited later at its new content, and one created after the first checkpoint', async () => {
    const root = project('edit');
    const checkpoints = sb.open(root, include);
    const shadow = checkpoints.repo.gitDir;
    await checkpoints.snapshot();
    write(root, '.env', 'SECRET=2\n');
    write(root, 'src/.env', 'NEW=1\n');
    const second = await checkpoints.snapshot();
    expect(treePaths(shadow, second.record.tree)).toContain('src/.env');
    expect(shadowGit(shadow, 'show', `${second.record.tree}:.env`)).toBe('SECRET=2\n');
    expect(second.record.changes).toEqual({ added: 1, modified: 1, deleted: 0 });
    // Narrowed to the paths the app says changed: an edit of an included file is staged; a
    // new included file (the app's filter drops ignored paths) is found all the same.
    write(root, '.env', 'SECRET=3\n');
    write(root, 'lib/.env', 'NEWER=1\n');
    const scoped = await checkpoints.snapshot({ paths: ['.env'] });
    expect(scoped.fromChangedPaths).toBe(true);
    expect(shadowGit(shadow, 'show', `${scoped.record.tree}:.env`)).toBe('SECRET=3\n');
    expect(treePaths(shadow, scoped.record.tree)).toContain('lib/.env');
    // Only a new included file: the app's filter leaves no path at all.
    write(root, 'docs/.env', 'DOCS=1\n');
    const none = await checkpoints.snapshot({ paths: [], onlyIfChanged: true });
    expect(none.fromChangedPaths).toBe(true);
    expect(none.unchanged).toBeUndefined();
    expect(treePaths(shadow, none.record.tree)).toContain('docs/.env');
    // Deleted: the app names it (the shadow tracks it, so check-ignore does not drop it).
    fs.rmSync(path.join(root, 'lib/.env'));
    expect([...(await checkpoints.ignored(['lib/.env']))]).toEqual([]);
    const gone = await checkpoints.snapshot({ paths: ['lib/.env'] });
    expect(treePaths(shadow, gone.record.tree)).not.toContain('lib/.env');
  });

  it('leaves out an included file over checkpoint_max_file_mb and reports it as skipped', async () => {
    const root = project('cap');
    const large = Buffer.alloc(5000, 'q');
    write(root, 'big.sqlite', large);
    const checkpoints = sb.open(root, { ...include, checkpointMaxFileMb: 0.001 });
    const { record } = await checkpoints.snapshot();
    expect(treePaths(checkpoints.repo.gitDir, record.tree)).not.toContain('big.sqlite');
    expect(treePaths(checkpoints.repo.gitDir, record.tree)).toContain('data.sqlite');
    expect(record.skipped).toEqual([{ path: 'big.sqlite', bytes: 5000, reason: expect.stringContaining('checkpoint_max_file_mb') }]);
    expect(hasObject(checkpoints.repo.gitDir, blobOid(large))).toBe(false);

    // An included file that grows over the cap later leaves the checkpoint, and is reported.
    write(root, '.env', Buffer.alloc(3000, 'e'));
    const second = await checkpoints.snapshot();
    expect(treePaths(checkpoints.repo.gitDir, second.record.tree)).not.toContain('.env');
    expect(second.record.skipped.map((file) => file.path)).toEqual(['.env', 'big.sqlite']);
  });

  it('never overrides checkpoint_exclude or the heavy patterns', async () => {
    const root = project('excluded');
    write(root, 'model.gguf', 'weights\n');
    write(root, 'secret/.env', 'X=1\n');
    fs.appendFileSync(path.join(root, '.gitignore'), '*.gguf\n');
    const checkpoints = sb.open(root, { checkpointInclude: ['.env', '*.gguf'], checkpointExclude: ['secret/'] });
    const { record } = await checkpoints.snapshot();
    expect(treePaths(checkpoints.repo.gitDir, record.tree)).toEqual(['.env', '.gitignore', 'README.md', 'cache/.env', 'src/a.ts']);
  });

  it('drops the files from the next checkpoint once the pattern is removed from checkpoint_include', async () => {
    const root = project('removed');
    const first = await sb.open(root, include).snapshot();
    expect(treePaths(sb.open(root).repo.gitDir, first.record.tree)).toContain('.env');
    const checkpoints = sb.open(root, { checkpointInclude: ['*.sqlite'] });
    const { record } = await checkpoints.snapshot();
    expect(treePaths(checkpoints.repo.gitDir, record.tree)).toEqual(['.gitignore', 'README.md', 'data.sqlite', 'src/a.ts']);
  });

  it('keeps included files when a .gitignore changes', async () => {
    const root = project('gitignore');
    const checkpoints = sb.open(root, include);
    await checkpoints.snapshot();
    fs.appendFileSync(path.join(root, '.gitignore'), 'src/\n');
    const { record } = await checkpoints.snapshot();
    expect(treePaths(checkpoints.repo.gitDir, record.tree)).toEqual(['.env', '.gitignore', 'README.md', 'cache/.env', 'data.sqlite']);
  });
});
