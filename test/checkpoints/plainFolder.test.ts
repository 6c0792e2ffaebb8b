// A project without git: snapshots work, .gitignore files count, no .git appears.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { actualTree, expectedTree, treePaths } from '../helpers/shadow.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-plain-');
});
afterEach(() => sb.cleanup());

function findDotGit(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.name === '.git') found.push(path.relative(root, full));
      else if (entry.isDirectory()) walk(full);
    }
  };
  walk(root);
  return found;
}

describe('a plain folder (no git)', () => {
  it('snapshots exactly, honours .gitignore files, and never creates a .git', async () => {
    const root = sb.folder('plain');
    write(root, '.gitignore', 'node_modules/\n*.log\n');
    write(root, 'node_modules/dep/index.js', 'dep\n');
    write(root, 'debug.log', 'log\n');
    write(root, 'src/.gitignore', 'gen/\n');
    write(root, 'src/gen/out.js', 'generated\n');
    write(root, 'src/main.js', 'main\n');
    write(root, 'notes.txt', 'notes\n');
    const checkpoints = sb.open(root);
    expect(checkpoints.project).toEqual({ root });
    const ignored = (rel: string) => rel.startsWith('node_modules') || rel.endsWith('.log') || rel.startsWith('src/gen');
    const first = await checkpoints.snapshot();
    expect(first.warnings).toEqual([]);
    expect(treePaths(checkpoints.repo.gitDir, first.record.tree)).toEqual(['.gitignore', 'notes.txt', 'src/.gitignore', 'src/main.js']);
    expect(actualTree(checkpoints.repo.gitDir, first.record.tree)).toEqual(expectedTree(root, { skip: ignored }));
    expect(fs.existsSync(path.join(checkpoints.repo.gitDir, 'objects', 'info', 'alternates'))).toBe(false);

    write(root, 'notes.txt', 'more notes\n');
    write(root, 'other.log', 'ignored too\n');
    const second = await checkpoints.snapshot();
    expect(second.record).toMatchObject({ deduped: false, changedSincePrevious: 1, projectHead: null });
    expect(actualTree(checkpoints.repo.gitDir, second.record.tree)).toEqual(expectedTree(root, { skip: ignored }));

    // A file checkpointed, then ignored by a new .gitignore line, leaves the next checkpoint.
    fs.appendFileSync(path.join(root, '.gitignore'), 'notes.txt\n');
    const third = await checkpoints.snapshot();
    expect(treePaths(checkpoints.repo.gitDir, third.record.tree)).toEqual(['.gitignore', 'src/.gitignore', 'src/main.js']);
    expect(findDotGit(root)).toEqual([]);
  });

  it('a folder over checkpoint_warn_gb gets a warning with the first snapshot only', async () => {
    const root = sb.folder('big-plain');
    write(root, 'a.bin', Buffer.alloc(4096, 1));
    const settings = { checkpointWarnGb: 1e-9 };
    const first = await sb.open(root, settings).snapshot();
    expect(first.warnings).toHaveLength(1);
    expect(first.warnings[0]).toContain(root);
    expect(first.warnings[0]).toMatch(/not a git repository/);
    write(root, 'b.bin', Buffer.alloc(4096, 2));
    expect((await sb.open(root, settings).snapshot()).warnings).toEqual([]);
  });

  it('a git project never gets that warning (its files are borrowed, not copied)', async () => {
    const root = sb.repo('git-not-warned');
    write(root, 'a.bin', Buffer.alloc(4096, 1));
    expect((await sb.open(root, { checkpointWarnGb: 1e-9 }).snapshot()).warnings).toEqual([]);
  });
});
