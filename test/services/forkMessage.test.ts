// The message of `rewind fork --branch`'s commit: the step (as `rewind list` names it) and its prompt.
import { describe, expect, it } from 'vitest';
import type { CheckpointRecord } from '../../src/checkpoints/index.js';
import { forkCommitMessage } from '../../src/services/steps/forkMessage.js';

function record(id: number, trigger: string, label: string): CheckpointRecord {
  return { id, commit: `c${id}`, tree: `t${id}`, time: `2026-01-01T00:00:0${id}.000Z`, session: 's1', agent: 'claude', trigger, label, deduped: false, changedSincePrevious: 1, skipped: [], nested: [], projectHead: null, conversation: null };
}

const records = [record(1, 'UserPromptSubmit', 'make the tests pass'), record(2, 'PreToolUse:Edit', 'Edit src/db.ts'), record(3, 'manual', 'before lunch')];

describe('forkCommitMessage', () => {
  it("a tool step: subject 'before' it, the step and its turn's prompt in the body", () => {
    const message = forkCommitMessage(records, 2);
    expect(message.split('\n')[0]).toBe('Rewind checkpoint #2: before Edit src/db.ts');
    expect(message).toContain('taken 2026-01-01T00:00:02.000Z\njust before this step (trigger PreToolUse:Edit, agent claude, session s1):\n');
    expect(message).toContain('  Step: Edit src/db.ts\n  Prompt: make the tests pass\n');
  });

  it('a prompt: the prompt once; a mark: its own label, no "before"', () => {
    const prompt = forkCommitMessage(records, 1);
    expect(prompt.split('\n')[0]).toBe('Rewind checkpoint #1: before prompt: make the tests pass');
    expect(prompt).not.toContain('  Step:');
    expect(prompt).toContain('  Prompt: make the tests pass\n');
    expect(forkCommitMessage(records, 3).split('\n')[0]).toBe('Rewind checkpoint #3: before lunch');
  });

  it('a long title is cut to one 72-character subject line', () => {
    const long = forkCommitMessage([record(1, 'PreToolUse:Bash', `Bash ${'x'.repeat(200)}`)], 1);
    expect(long.split('\n')[0]).toHaveLength(72);
    expect(long.split('\n')[0]?.endsWith('…')).toBe(true);
  });
});
