// Gemini CLI (the pinned release) inside Rewind's app, told of a files-only restore at its
// next prompt through BeforeAgent's added context; a files-and-conversation restore tells it nothing.
import { describe, it } from 'vitest';
import { sentContents } from './geminiChats.js';
import { geminiSetup } from './harness.js';
import { proveRestoreNote } from './restoreNoteInApp.js';

describe('gemini in the app after a files-only restore', () => {
  it('the next request carries the note, once; after `b` none', { timeout: 300_000 }, async () => {
    await proveRestoreNote({ agent: 'gemini', setup: (world) => geminiSetup(world), ready: /Type your message/, writeRow: 'write_file a.txt', sent: sentContents });
  });
});
