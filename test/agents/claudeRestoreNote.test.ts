// Claude Code (the pinned release) inside Rewind's app, told of a files-only restore at its
// next prompt through UserPromptSubmit's added context; a files-and-conversation restore tells it nothing.
import { describe, it } from 'vitest';
import { sentText } from './conversationScript.js';
import { claudeSetup } from './harness.js';
import { proveRestoreNote } from './restoreNoteInApp.js';

describe('claude in the app after a files-only restore', () => {
  it('the next request carries the note, once; after `b` none', { timeout: 300_000 }, async () => {
    await proveRestoreNote({ agent: 'claude', setup: (world) => claudeSetup(world, { hooks: {} }), ready: /^❯/m, writeRow: 'Write a.txt', sent: sentText });
  });
});
