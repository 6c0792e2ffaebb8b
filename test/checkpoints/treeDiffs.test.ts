// git's diff-tree reads the whole index though a diff of two trees needs none of it (the
// shadow's holds every file of the project: at 250,000 files that read was the longest step
// of a snapshot after write-tree). Every diff of trees alone Rewind runs, in the snapshot
// script and in the engine, is pointed at an index that does not exist.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';
import { gitFirstOnPath } from '../helpers/gitSpy.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-tree-diffs-');
});
afterEach(() => sb.cleanup());

/**
 * A `git` first on PATH that writes a line for each diff-tree it runs (`reads <index>` when
 * that diff would read an index: GIT_INDEX_FILE unset or naming a file that exists), then
 * runs the real git.
 */
function gitThatTellsDiffs(): { env: NodeJS.ProcessEnv; lines: () => string[] } {
  const log = path.join(sb.base, 'diffs.log');
  const env = gitFirstOnPath(
    sb.base,
    `for arg in "$@"; do
  if [ "$arg" = diff-tree ]; then
    if [ -n "$GIT_INDEX_FILE" ] && [ ! -e "$GIT_INDEX_FILE" ]; then echo none >>'${log}'; else echo "reads \${GIT_INDEX_FILE:-the index}" >>'${log}'; fi
    break
  fi
done`,
  );
  return { env, lines: () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n') : []) };
}

describe('diffs of trees', () => {
  it("the snapshot script's diffs (what changed, and a restore's diff to its target) read no index", async () => {
    const root = sb.repo('script');
    const spy = gitThatTellsDiffs();
    const engine = sb.open(root, {}, spy.env);
    const first = (await engine.snapshot({ label: 'first' })).record;
    write(root, 'a.txt', 'one\n');
    const second = (await engine.snapshot({ label: 'second' })).record;
    expect(second.changedPaths).toEqual(['a.txt']);
    write(root, 'a.txt', 'two\n');
    const restored = await engine.restore(first.id);
    expect(restored.deleted).toEqual(['a.txt']);
    expect(fs.existsSync(path.join(root, 'a.txt'))).toBe(false);
    const lines = spy.lines();
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.filter((line) => line !== 'none')).toEqual([]);
  });

  it("the engine's plan of a restore diffs trees without the index: a damaged one changes nothing", async () => {
    const root = sb.repo('plan');
    const engine = sb.open(root);
    const first = (await engine.snapshot({ label: 'first' })).record;
    write(root, 'a.txt', 'one\n');
    write(root, 'README.md', 'changed\n');
    const current = await engine.currentTree();
    fs.writeFileSync(engine.repo.indexFile, 'not an index');
    const plan = await engine.planFrom(current, first.id);
    expect(plan.writes.map((entry) => entry.path)).toEqual(['README.md']);
    expect(plan.deletes).toEqual(['a.txt']);
  });
});
