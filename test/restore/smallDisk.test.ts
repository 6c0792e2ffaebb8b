// A restore on a project whose disk is full, or read-only: a one-line error that says what
// to do (never "no longer restorable": the checkpoint is fine), the staged copies and the
// redo point of the failed attempt removed, nothing changed. The project lives on a small
// tmpfs mounted in a private mount namespace (`unshare -m`), the store on the normal disk,
// so the restore stages its copies in the project and runs out of room there.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { builtCli, redoRefs, requireBuiltCli } from '../helpers/restoreKit.js';
import { createSandbox, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeAll(() => {
  requireBuiltCli();
});
beforeEach(() => {
  sb = createSandbox('rewind-restore-disk-');
});
afterEach(async () => {
  await sb.cleanup();
});

/** Checkpoint #1 holds a 300 KB file, since deleted; README.md edited after it. */
const setup = `
cd "$P"
git init -q -b main . && printf '# project\\n' > README.md && git add -A && git commit -q -m first
head -c 300000 /dev/urandom > big.bin
"$NODE" "$CLI" snapshot --json > /dev/null
rm big.bin
printf 'edited after #1\\n' > README.md
`;

/** Every entry of the project (.git included) with its size, mode and bytes, written to $OUT/<name>. */
const fingerprint = (name: string) => `find . | LC_ALL=C sort | while IFS= read -r f; do if [ -f "$f" ]; then printf '%s %s\\n' "$f" "$(sha256sum < "$f")"; else printf '%s\\n' "$f"; fi; done > "$OUT/${name}"`;

/** Runs setup, then `before`, then the restore of #1, on a tmpfs of `size`; what it said, and whether the project changed. */
function restoreOnSmallDisk(size: string, before: string) {
  const project = sb.folder('small');
  const out = sb.folder('out');
  const script = [
    `mount -t tmpfs -o size=${size},mode=0755 tmpfs "$P"`,
    setup,
    before,
    fingerprint('before'),
    // (In an `if`, a failing restore does not stop the script: its exit code is the answer.)
    `if "$NODE" "$CLI" restore 1 --yes > "$OUT/stdout" 2> "$OUT/stderr"; then echo 0; else echo $?; fi > "$OUT/code"`,
    fingerprint('after'),
    'ls -A "$P" > "$OUT/listing"',
  ].join('\n');
  const env = { ...sb.env, ...sb.gitEnv, P: project, OUT: out, NODE: process.execPath, CLI: builtCli };
  const run = spawnSync('unshare', ['-m', 'sh', '-ec', script], { env, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  const read = (name: string) => fs.readFileSync(path.join(out, name), 'utf8');
  return { project, code: Number(read('code')), stdout: read('stdout'), stderr: read('stderr'), before: read('before'), after: read('after'), listing: read('listing').split('\n').filter(Boolean) };
}

/** The checkpoint list and redo stack in the store (on the normal disk): as before the attempt. */
function expectStoreUnchanged(project: string): void {
  const checkpoints = sb.open(project);
  expect(checkpoints.list().map((record) => record.id)).toEqual([1]);
  expect(redoRefs(checkpoints.repo.gitDir)).toEqual([]);
  expect(fs.readdirSync(checkpoints.store.root).filter((name) => name === 'journal' || name.startsWith('staging-') || name.startsWith('scratch-'))).toEqual([]);
}

describe('a restore on a small disk', () => {
  it('that fills up while staging says the disk is full, not that the checkpoint is gone, and changes nothing', () => {
    const result = restoreOnSmallDisk('1m', 'dd if=/dev/zero of=filler bs=4k 2>/dev/null || true');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^rewind: cannot restore checkpoint #1: the disk is full where its files are staged \(.*\); free some space there and run it again; nothing was changed\n$/);
    expect(result.stderr).not.toMatch(/no longer restorable/);
    expect(result.after).toBe(result.before);
    expect(result.listing.filter((name) => name.startsWith('.rewind-staging-'))).toEqual([]);
    expectStoreUnchanged(result.project);
  });

  it('that is read-only says so in one line and changes nothing', () => {
    const result = restoreOnSmallDisk('2m', 'mount -o remount,ro "$P"');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')).toHaveLength(2);
    expect(result.stderr).toMatch(/^rewind: cannot restore checkpoint #1: .*read-only.*nothing was changed\n$/);
    expect(result.after).toBe(result.before);
    expectStoreUnchanged(result.project);
  });
});
