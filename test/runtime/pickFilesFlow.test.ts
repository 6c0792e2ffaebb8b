// Files picked in the picker (Tab) in a running session: only those are restored, and the
// notice says how many were chosen.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pickerCheckpoints } from '../../src/runtime/restore/pickerData.js';
import { sessionSandbox } from '../helpers/session.js';
import { write } from '../helpers/tempRepo.js';
import { chooseInPicker, idleSessionWithCheckpoints } from '../helpers/pickerChoice.js';

const sessions = sessionSandbox('rewind-pick-files-');

describe('files picked in the picker', () => {
  it('are restored alone; the rest stay as they are', async () => {
    const root = sessions.sandbox().repo('pick');
    write(root, 'a.txt', 'a0\n');
    write(root, 'b.txt', 'b0\n');
    const current = await idleSessionWithCheckpoints(() => sessions.start(root, 'sh', ['-c', 'while :; do sleep 1; done']));
    write(root, 'a.txt', 'a1\n');
    write(root, 'b.txt', 'b1\n');
    const notice = await chooseInPicker(current, { kind: 'restore', id: 1, mode: 'files', only: ['b.txt'] }, /restored 1 chosen file/);
    expect(notice).toMatch(/^restored 1 chosen file\(s\) to just before “session start” \(tell the agent its edits to those files after it are gone\): 1 file\(s\) changed \(1 written, 0 deleted\)/);
    expect([fs.readFileSync(path.join(root, 'a.txt'), 'utf8'), fs.readFileSync(path.join(root, 'b.txt'), 'utf8')]).toEqual(['a1\n', 'b0\n']);
    // Its row is no whole rewind, and says so; so does the undo's notice.
    const engine = current.checkpoints?.engine;
    if (!engine) throw new Error('no checkpoints');
    expect(pickerCheckpoints(engine.list()).at(-1)?.label).toBe('rewind of chosen files to just before session start');
    const undone = await chooseInPicker(current, { kind: 'undo' }, /^undid /);
    expect(undone).toMatch(/^undid the rewind of chosen files to just before “session start”/);
    expect(fs.readFileSync(path.join(root, 'b.txt'), 'utf8')).toBe('b1\n');
  }, 30_000);
});
