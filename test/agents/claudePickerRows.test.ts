// Claude Code (the pinned release) inside Rewind's app: the picker's rows after a three-turn
// session, the step it opens on, each mode's preview, and Enter + `f` undoing that step.
import { describe, it } from 'vitest';
import { claudeSetup } from './harness.js';
import { proveRows } from './pickerRowsInApp.js';

describe('claude in the app: the picker tells the session as steps', () => {
  it('rows, the step selected at open, each mode previewed, Enter + f undoes exactly that step', { timeout: 300_000 }, async () => {
    await proveRows({
      setup: (world) => claudeSetup(world, { hooks: {} }),
      ready: /^❯/m,
      labels: [
        ['Write notes.txt', 'Write scratch.txt'],
        ['Edit notes.txt', 'Bash rm scratch.txt'],
        ['Write todo.txt', 'Edit notes.txt'],
      ],
    });
  });
});
