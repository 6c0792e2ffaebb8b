// After a snapshot that walked the whole tree, the walk for heavy files starts in the
// background from the snapshot's own script (snapshot.sh): the snapshot never waits for it,
// it carries no owner mark (it outlives its starter on purpose), one runs at a time, and
// one starts at most every 5 seconds (snapshots taken back to back do not each start one).
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { running } from '../helpers/children.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';
import { waitFor } from '../helpers/waitFor.js';
import { gitFirstOnPath } from '../helpers/gitSpy.js';

let sb: Sandbox;
let release: string;
beforeEach(() => {
  sb = createSandbox('rewind-heavy-scan-');
  release = path.join(sb.base, 'release');
});
afterEach(async () => {
  fs.writeFileSync(release, '');
  await sb.cleanup();
});

/**
 * A `git` first on PATH that, once `block` exists, holds every `ls-files -o` (the walk's
 * first step) until `release` exists (at most 30 s), then runs the real git.
 */
function gitThatHoldsTheWalk(): { env: NodeJS.ProcessEnv; block: () => void } {
  const block = path.join(sb.base, 'block');
  const env = gitFirstOnPath(
    sb.base,
    `if [ -e '${block}' ]; then
  for arg in "$@"; do
    if [ "$arg" = ls-files ]; then
      n=0
      while [ ! -e '${release}' ] && [ $n -lt 600 ]; do sleep 0.05; n=$((n + 1)); done
      break
    fi
  done
fi`,
  );
  return { env, block: () => fs.writeFileSync(block, '') };
}

/** Moves the walk's start stamp `seconds` into the past (as if it had started then). */
function startedAgo(stamp: string, seconds: number): void {
  const then = new Date(Date.now() - seconds * 1000);
  fs.utimesSync(stamp, then, then);
}

describe('the background walk for heavy files', () => {
  it.runIf(process.platform === 'linux')('starts from the snapshot script: the snapshot ends while it runs, it has no owner mark, a second waits for it to end, and none starts within 5 s of the last', async () => {
    const root = sb.repo('project');
    const spy = gitThatHoldsTheWalk();
    const engine = sb.open(root, {}, spy.env);
    await engine.snapshot({ label: 'first' });
    const stamp = path.join(engine.store.root, 'heavy-scan.started');
    expect(fs.existsSync(stamp)).toBe(false);
    spy.block();

    write(root, 'a.txt', 'one\n');
    const second = await engine.snapshot({ label: 'second' });
    expect(second.record.changedPaths).toEqual(['a.txt']);
    const walker = Number(fs.readFileSync(stamp, 'utf8'));
    expect(running(walker)).toBe(true);
    expect(fs.readFileSync(`/proc/${walker}/environ`, 'latin1').split('\0').some((entry) => entry.startsWith('REWIND_OWNER='))).toBe(false);

    // Started long enough ago, but still running: no second one.
    startedAgo(stamp, 10);
    write(root, 'a.txt', 'two\n');
    await engine.snapshot({ label: 'third' });
    expect(Number(fs.readFileSync(stamp, 'utf8'))).toBe(walker);

    fs.writeFileSync(release, '');
    await waitFor(() => !running(walker), 20_000, 'the walk to end');
    // Ended, but started under 5 s ago: none yet.
    startedAgo(stamp, 2);
    write(root, 'a.txt', 'three\n');
    await engine.snapshot({ label: 'fourth' });
    expect(Number(fs.readFileSync(stamp, 'utf8'))).toBe(walker);

    startedAgo(stamp, 6);
    write(root, 'a.txt', 'four\n');
    await engine.snapshot({ label: 'fifth' });
    expect(Number(fs.readFileSync(stamp, 'utf8'))).not.toBe(walker);
  });
});
