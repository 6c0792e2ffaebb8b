// Claude Code (the pinned release) inside Rewind's app: Rewind adds its hooks with
// `--settings` (no settings file edited); a checkpoint comes before the Write, the Edit and
// the Bash command, labelled by tool and target, holding the tree right before each.
import { describe, it } from 'vitest';
import { claudeSetup } from './harness.js';
import { proofPrompt } from './proof.js';
import { proveInApp } from './inApp.js';

describe('claude in the app', () => {
  it('gets a checkpoint before each file-changing tool call, labelled by tool and target', { timeout: 120_000 }, async () => {
    await proveInApp({
      // The user's own --settings (here: hooks of theirs, none) are merged with Rewind's,
      // and they end --allowedTools' list before the prompt.
      setup: (world) => claudeSetup(world, { allowedTools: ['Write', 'Edit', 'Bash'], hooks: {} }),
      prompt: proofPrompt,
      triggers: [/^PreToolUse:/],
      labels: [/^Write notes\.txt$/, /^Edit notes\.txt$/, /^Bash rm README\.md && echo made > made\.txt$/],
    });
  });
});
