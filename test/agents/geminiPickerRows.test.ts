// Gemini CLI (the pinned release) inside Rewind's app: the picker's rows after a three-turn
// session, the step it opens on, each mode's preview, and Enter + `f` undoing that step.
import { describe, it } from 'vitest';
import { geminiSetup } from './harness.js';
import { proveRows } from './pickerRowsInApp.js';

describe('gemini in the app: the picker tells the session as steps', () => {
  it('rows, the step selected at open, each mode previewed, Enter + f undoes exactly that step', { timeout: 300_000 }, async () => {
    await proveRows({
      setup: (world) => geminiSetup(world),
      ready: /Type your message/,
      labels: [
        ['write_file notes.txt', 'write_file scratch.txt'],
        ['replace notes.txt', 'run_shell_command rm scratch.txt'],
        ['write_file todo.txt', 'replace notes.txt'],
      ],
    });
  });
});
