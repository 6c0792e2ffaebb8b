// Issue 11 item 2: the first checkpoint starts from a copy of the project's index, and must
// keep git's protection for "racily clean" entries: a file staged and then changed to other
// bytes of the same size in the same second is checkpointed as it is on disk, never as the
// project staged it. Many fresh stores, files in subfolders too.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileInTree } from '../helpers/shadow.js';
import { createSandbox, type Sandbox } from '../helpers/tempRepo.js';
import { waitFor } from '../helpers/waitFor.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-racy-');
});
afterEach(() => sb.cleanup());

const files = ['g.txt', 'sub/h.txt', 'sub/deeper/i.txt'];

describe('the first checkpoint of a freshly staged project', () => {
  it('holds the bytes on disk, not what the index staged, for same-size edits in the same second', async () => {
    for (let round = 0; round < 5; round++) {
      const root = sb.repo(`racy-${round}`);
      let second = 0;
      // Stage and edit within one second (retried if the clock ticks over in between).
      for (;;) {
        second = Math.floor(Date.now() / 1000);
        for (const file of files) {
          fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
          fs.writeFileSync(path.join(root, file), `same-size-x ${round}\n`);
        }
        sb.git(root, 'add', '-A');
        for (const file of files) fs.writeFileSync(path.join(root, file), `same-size-y ${round}\n`);
        if (Math.floor(Date.now() / 1000) === second) break;
      }
      // The copy of the index is made in a later second than the entries were written: only
      // the original's timestamp tells git they are racily clean.
      await waitFor(() => Math.floor(Date.now() / 1000) > second, 2_000, 'the next second');
      const engine = sb.open(root);
      const { record } = await engine.snapshot({ label: 'first' });
      for (const file of files) {
        expect(fileInTree(engine.repo.gitDir, record.tree, file)?.bytes.toString(), `${file} in round ${round}`).toBe(`same-size-y ${round}\n`);
      }
    }
  });
});
