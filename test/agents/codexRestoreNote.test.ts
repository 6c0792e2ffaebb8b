// Codex (the pinned release) inside Rewind's app, told of a files-only restore at its next
// prompt through UserPromptSubmit's added context; a files-and-conversation restore tells it nothing.
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'vitest';
import { waitFor } from '../helpers/waitFor.js';
import { codexSetup } from './harness.js';
import { proveRestoreNote } from './restoreNoteInApp.js';

const sentInput = (body: unknown) => JSON.stringify((body as { input?: unknown }).input ?? []);

describe('codex in the app after a files-only restore', () => {
  it('the next request carries the note, once; after `b` none', { timeout: 300_000 }, async () => {
    await proveRestoreNote({
      agent: 'codex',
      setup: (world) => codexSetup(world, { hooks: {}, hookTrust: 'bypass' }),
      ready: /Ask Codex to do anything/,
      writeRow: 'apply_patch a.txt',
      // Codex's TUI writes its rollout late: the step must be in it before its conversation can be cut there.
      stepWritten: async (world) => {
        const sessions = path.join(world.agentDir, 'codex', 'sessions');
        const rollout = () => (fs.readdirSync(sessions, { recursive: true }) as string[]).filter((file) => file.endsWith('.jsonl')).map((file) => fs.readFileSync(path.join(sessions, file), 'utf8')).join('');
        await waitFor(() => rollout().includes('echo two > b.txt'), 30_000, 'the step in the rollout');
      },
      sent: sentInput,
    });
  });
});
