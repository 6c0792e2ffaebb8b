// What you do right after a rewind is a step of its own: the app checkpoints the files as the
// rewind left them (when exactly known), so the rewind's row holds only what it changed.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pickerCheckpoints } from '../../src/runtime/restore/pickerData.js';
import { sessionSandbox } from '../helpers/session.js';
import { write } from '../helpers/tempRepo.js';
import { chooseInPicker, idleShSession } from '../helpers/pickerChoice.js';

const sessions = sessionSandbox('rewind-rewound-step-');

describe('an edit right after a rewind', () => {
  it("is a row of its own, not the rewind's; the rewind's row counts what it changed; rewinding to just before the edit keeps the rewind", async () => {
    const root = sessions.sandbox().repo('edit-after');
    write(root, 'a.txt', 'a0\n');
    const { current, engine } = await idleShSession(sessions, root);
    const edit = (await engine.snapshot({ trigger: 'PreToolUse:Edit', label: 'Edit a.txt', session: 'test-session' })).record.id;
    write(root, 'a.txt', 'a1\n');
    await chooseInPicker(current, { kind: 'restore', id: edit, mode: 'files' }, /^restored the files to just before “Edit a.txt”/);
    expect(fs.readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('a0\n');

    // Your own edit after it, checkpointed as the watcher does.
    write(root, 'b.txt', 'mine\n');
    await engine.snapshot({ trigger: 'watch', label: 'files changed', session: 'test-session' });
    const rows = pickerCheckpoints(engine.list()).slice(-2);
    expect(rows.map((row) => [row.label, row.files, row.paths])).toEqual([
      ['rewind to just before Edit a.txt', 1, ['a.txt']],
      ['edits outside any step: 1 added: b.txt', 1, ['b.txt']],
    ]);

    // Rewinding to just before your edit: the files as the rewind left them (a0, no b.txt).
    const before = rows[1]?.id ?? 0;
    await chooseInPicker(current, { kind: 'restore', id: before, mode: 'files' }, /^restored the files to just before “edits outside any step/);
    expect(fs.readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('a0\n');
    expect(fs.existsSync(path.join(root, 'b.txt'))).toBe(false);
  }, 60_000);

  it('after a rewind of chosen files nothing is recorded: the files are not exactly its target', async () => {
    const root = sessions.sandbox().repo('chosen');
    write(root, 'a.txt', 'a0\n');
    write(root, 'b.txt', 'b0\n');
    const { current, engine } = await idleShSession(sessions, root);
    write(root, 'a.txt', 'a1\n');
    write(root, 'b.txt', 'b1\n');
    const before = engine.list().length;
    await chooseInPicker(current, { kind: 'restore', id: 1, mode: 'files', only: ['b.txt'] }, /restored 1 chosen file/);
    // The redo point alone.
    expect(engine.list().length).toBe(before + 1);
    expect(engine.list().at(-1)?.trigger).toBe('restore');
  }, 60_000);
});
