// Issue 11 item 8: what the snapshot script prints is framed so that no file name can
// forge a part of it: names with the old marker byte (0x01), newlines, quotes and
// "add '…'" look-alikes are checkpointed, listed and counted exactly.
import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { restoreCheckpoint } from '../../src/checkpoints/restore/restore.js';
import { parseScriptOutput } from '../../src/checkpoints/snapshot/snapshotScript.js';
import { projectState } from '../helpers/restoreKit.js';
import { treePaths } from '../helpers/shadow.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-framing-');
});
afterEach(() => sb.cleanup());

/** Names that look like the script's own output. */
const forgers = [
  'evil\x01result\x01',
  '\x01diff\x01\nadd \'x\'',
  "q'\nremove 'README.md",
  'new 4b825dc642cb6eb9a060e54bf8d69288fbee4904 -',
  'tab\there',
  '\x01',
];

describe('snapshot output framing', () => {
  it('checkpoints files whose names mimic its markers and lines, and counts exactly what changed', async () => {
    const root = sb.repo('forge');
    const engine = sb.open(root);
    await engine.snapshot({ label: 'start' });
    for (const [index, name] of forgers.entries()) write(root, name, `content ${index}\n`);
    const { record } = await engine.snapshot({ label: 'forged names' });
    expect(record.changedSincePrevious).toBe(forgers.length);
    expect([...(record.changedPaths ?? [])].sort()).toEqual([...forgers].sort());
    expect(record.changes).toEqual({ added: forgers.length, modified: 0, deleted: 0 });
    expect(treePaths(engine.repo.gitDir, record.tree)).toEqual(['README.md', ...forgers].sort());
    // The list entry was written (the commit and ref alone are not a checkpoint).
    expect(engine.list().map((entry) => entry.label)).toEqual(['start', 'forged names']);

    const before = projectState(root);
    for (const name of forgers) fs.rmSync(`${root}/${name}`);
    const { record: removed } = await engine.snapshot({ label: 'removed' });
    expect(removed.changes).toEqual({ added: 0, modified: 0, deleted: forgers.length });
    await restoreCheckpoint(engine, record.id);
    expect(projectState(root)).toEqual(before);
  });

  it('reads sections after -z output whose last record ends in a NUL', () => {
    const diff = Buffer.from(':100644 100644 aaaa bbbb M\0a\x01b\0', 'latin1');
    const out = Buffer.concat([Buffer.from("add 'x'\n"), Buffer.from('\0\0\0result\0new t c\n'), Buffer.from('\0\0\0diff\0'), diff, Buffer.from('\0\0\0target\0'), diff]);
    const parsed = parseScriptOutput(out);
    expect(parsed).toMatchObject({ kind: 'new', tree: 't', commit: 'c', staged: [{ action: 'add', path: 'x' }] });
    expect(parsed.diff).toEqual(diff);
    expect(parsed.toTarget).toEqual(diff);
  });
});
