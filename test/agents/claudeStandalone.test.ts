// `claude -p` (the pinned release) with the hooks Rewind adds, and no app: its checkpoints
// come from the standalone hook, one before each step.
import { describe, it } from 'vitest';
import { claudeSetup } from './harness.js';
import { builtAdapter, proveStandalone } from './standalone.js';

describe('claude headless with Rewind’s hooks and no app', () => {
  it('gets a checkpoint before each file-changing tool call from the standalone hook', { timeout: 120_000 }, async () => {
    await proveStandalone({
      adapter: await builtAdapter('claude/adapter.js', 'claudeAgent'),
      setup: (world) => claudeSetup(world, { hooks: {} }),
      triggers: [/^PreToolUse:/],
      labels: [/^Write notes\.txt$/, /^Edit notes\.txt$/, /^Bash rm README\.md && echo made > made\.txt$/],
    });
  });
});
