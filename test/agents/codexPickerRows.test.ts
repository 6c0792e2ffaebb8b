// Codex (the pinned release) inside Rewind's app: the picker's rows after a three-turn
// session, the step it opens on, each mode's preview, and Enter + `f` undoing that step.
import { describe, it } from 'vitest';
import { codexSetup } from './harness.js';
import { proveRows } from './pickerRowsInApp.js';

describe('codex in the app: the picker tells the session as steps', () => {
  it('rows, the step selected at open, each mode previewed, Enter + f undoes exactly that step', { timeout: 300_000 }, async () => {
    await proveRows({
      setup: (world) => codexSetup(world, { hooks: {}, hookTrust: 'bypass' }),
      ready: /Ask Codex to do anything/,
      labels: [
        ['apply_patch notes.txt', 'apply_patch scratch.txt'],
        ['apply_patch notes.txt', 'Bash rm scratch.txt'],
        ['apply_patch todo.txt', 'apply_patch notes.txt'],
      ],
    });
  });
});
