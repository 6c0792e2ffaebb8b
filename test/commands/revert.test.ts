// `rewind revert` on the command line (issue 28 item 1): the plan with its conflicts and
// hunks, --dry-run byte-identical, nothing written on a conflict until it is chosen, the
// choices, a prompt's whole turn, --json, and the usage errors.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fingerprint } from '../helpers/fingerprint.js';
import { rewind } from '../helpers/io.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-revert-cli-');
});
afterEach(() => sb.cleanup());

const eight = ['l1', 'l2', 'l3', 'l4', 'l5', 'l6', 'l7', 'l8'];
const lines = (items: readonly string[]) => `${items.join('\n')}\n`;

/** #1 step 1 (f.txt line 1, g.txt, new.txt), #2 step 2 (f.txt line 1 again, line 8), #3 after. */
async function project(): Promise<string> {
  const root = sb.repo('p');
  write(root, 'f.txt', lines(eight));
  write(root, 'g.txt', 'g0\n');
  const step = async (label: string, change: () => void) => {
    expect((await rewind(['snapshot', '--label', label], sb.env, root)).code).toBe(0);
    change();
  };
  await step('step 1', () => {
    write(root, 'f.txt', lines(['ONE', ...eight.slice(1)]));
    write(root, 'g.txt', 'g1\n');
    write(root, 'new.txt', 'new\n');
  });
  await step('step 2', () => write(root, 'f.txt', lines(['one later', ...eight.slice(1, 7), 'eight later'])));
  expect((await rewind(['snapshot', '--label', 'after'], sb.env, root)).code).toBe(0);
  return root;
}

describe('rewind revert', () => {
  it('--dry-run prints each file and each conflict with its hunks, and changes nothing', async () => {
    const root = await project();
    const before = fingerprint(root);
    const listed = (await rewind(['list', '--json'], sb.env, root)).stdout;
    const shown = await rewind(['revert', '1', '--dry-run'], sb.env, root);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toBe(
      [
        'Reverting the step of #1 (step 1: #1 -> #2), keeping what came after: 2 file(s) change, 1 conflict(s):',
        '  restore   g.txt  (as it was before the step)',
        '  delete    new.txt  (the step created it)',
        '  conflict  f.txt  (the step and a later change changed the same lines; keep: it stays as it is now; markers: git conflict markers around each hunk)',
        '      <<<<<<< now',
        '      one later',
        '      =======',
        '      l1',
        '      >>>>>>> before-#1',
        '  1 conflict(s): nothing is written until you choose (--conflicts keep or --conflicts markers)',
        '  your files as they are now are checkpointed first, so `rewind redo` undoes it',
        '',
      ].join('\n'),
    );
    const json = await rewind(['revert', '1', '--dry-run', '--json'], sb.env, root);
    expect(JSON.parse(json.stdout)).toEqual({
      checkpoint: 1,
      to: 2,
      changes: [
        { path: 'g.txt', how: 'restored' },
        { path: 'new.txt', how: 'deleted' },
      ],
      conflicts: [{ path: 'f.txt', kind: 'content', withMarkers: 'markers', hunks: ['<<<<<<< now\none later\n=======\nl1\n>>>>>>> before-#1'] }],
      dryRun: true,
    });
    expect(fingerprint(root)).toEqual(before);
    expect((await rewind(['list', '--json'], sb.env, root)).stdout).toBe(listed);
  });

  it('with a conflict and no choice writes nothing; without a terminal it says to choose', async () => {
    const root = await project();
    const before = fingerprint(root);
    const yes = await rewind(['revert', '1', '--yes'], sb.env, root);
    expect(yes.code).toBe(1);
    expect(yes.stderr).toMatch(/conflicts in 1 file\(s\) \(f\.txt\): nothing was written; choose --conflicts keep or --conflicts markers/);
    const asked = await rewind(['revert', '1'], sb.env, root);
    expect(asked.code).toBe(1);
    expect(asked.stderr).toMatch(/there is no terminal to ask in; pass --conflicts keep or --conflicts markers with --yes/);
    expect(fingerprint(root)).toEqual(before);
  });

  it('--conflicts markers writes the markers, --json says what it did, and redo undoes it', async () => {
    const root = await project();
    const before = fingerprint(root);
    const done = await rewind(['revert', '1', '--yes', '--conflicts', 'markers', '--json'], sb.env, root);
    expect(done.code, done.stderr).toBe(0);
    const result = JSON.parse(done.stdout) as { written: string; result: number; changed: string[]; deleted: string[]; redo: number };
    expect(result).toMatchObject({ written: 'markers', changed: ['f.txt', 'g.txt'], deleted: ['new.txt'] });
    expect(fs.readFileSync(path.join(root, 'f.txt'), 'utf8')).toBe(lines(['<<<<<<< now', 'one later', '=======', 'l1', '>>>>>>> before-#1', ...eight.slice(1, 7), 'eight later']));
    expect(fs.readFileSync(path.join(root, 'g.txt'), 'utf8')).toBe('g0\n');
    expect(fs.existsSync(path.join(root, 'new.txt'))).toBe(false);
    const list = JSON.parse((await rewind(['list', '--json'], sb.env, root)).stdout) as { id: number; label: string; trigger: string }[];
    expect(list.find((entry) => entry.id === result.result)).toMatchObject({ trigger: 'revert', label: 'after reverting #1: f.txt, g.txt, new.txt' });
    expect(list.find((entry) => entry.id === result.redo)).toMatchObject({ label: 'before reverting #1' });
    expect((await rewind(['redo', '--dry-run'], sb.env, root)).stdout).toMatch(/^Undoing the revert of the step of #1 \(made /);
    expect((await rewind(['redo', '--yes'], sb.env, root)).code).toBe(0);
    expect(fingerprint(root)).toEqual(before);
  });

  it('of a prompt takes back its whole turn', async () => {
    const root = sb.repo('turn');
    write(root, 'a.txt', 'a0\n');
    write(root, 'b.txt', 'b0\n');
    const engine = sb.open(root);
    await engine.snapshot({ trigger: 'UserPromptSubmit', label: 'fix both' });
    await engine.snapshot({ trigger: 'PreToolUse:Edit', label: 'Edit a.txt' });
    write(root, 'a.txt', 'a1\n');
    await engine.snapshot({ trigger: 'PreToolUse:Edit', label: 'Edit b.txt' });
    write(root, 'b.txt', 'b1\n');
    await engine.snapshot({ trigger: 'UserPromptSubmit', label: 'next prompt' });
    write(root, 'c.txt', 'c\n');
    const done = await rewind(['revert', '1', '--yes'], sb.env, root);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toMatch(/^reverted the step of #1: 2 file\(s\) changed \(2 written, 0 deleted\)\n/);
    expect(fs.readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('a0\n');
    expect(fs.readFileSync(path.join(root, 'b.txt'), 'utf8')).toBe('b0\n');
    expect(fs.readFileSync(path.join(root, 'c.txt'), 'utf8')).toBe('c\n');
  });

  it('refuses a bad --conflicts, an unknown checkpoint and a step with nothing to take back', async () => {
    const root = await project();
    const bad = await rewind(['revert', '1', '--conflicts', 'theirs'], sb.env, root);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--conflicts takes keep or markers, not "theirs"/);
    const unknown = await rewind(['revert', '99', '--dry-run'], sb.env, root);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/#99/);
    const nothing = await rewind(['revert', '3', '--dry-run'], sb.env, root);
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toMatch(/the step of #3 changed no files .*nothing to revert/);
  });
});
