// Claude Code started again on a rebuilt conversation: the user's own arguments, without
// what picks a conversation (-r/--resume [id], -c/--continue, --session-id X,
// --fork-session, --from-pr [n]) or sends a prompt (a word that is no option's value), then
// `--resume <new id>`. Which options take values is what tells a value from the prompt.
import { describe, expect, it } from 'vitest';
import { claudeResumeArgs } from '../../src/agents/claude/resume.js';

const id = '0b7e3a52-3c1e-4f7a-9d51-2f4c8e6a1b90';
const resumed = (...args: string[]) => claudeResumeArgs(args, id);

describe("claude's arguments to resume a rebuilt conversation", () => {
  it('adds --resume <id> to no arguments, and nothing when no message was left (a new conversation)', () => {
    expect(resumed()).toEqual(['--resume', id]);
    expect(claudeResumeArgs(['--model', 'opus', 'the prompt'], undefined)).toEqual(['--model', 'opus']);
  });

  it('drops -r/--resume with or without its id, inline or not', () => {
    expect(resumed('-r')).toEqual(['--resume', id]);
    expect(resumed('--resume')).toEqual(['--resume', id]);
    expect(resumed('-r', 'old-id', '--model', 'opus')).toEqual(['--model', 'opus', '--resume', id]);
    expect(resumed('--resume', 'old-id', '--verbose')).toEqual(['--verbose', '--resume', id]);
    expect(resumed('--resume=old-id', '--verbose')).toEqual(['--verbose', '--resume', id]);
    // An option after a bare -r is no id of it.
    expect(resumed('-r', '--model', 'opus')).toEqual(['--model', 'opus', '--resume', id]);
  });

  it('drops -c/--continue, --session-id X (either form), --fork-session and --from-pr [n]', () => {
    expect(resumed('-c', '--verbose')).toEqual(['--verbose', '--resume', id]);
    expect(resumed('--continue')).toEqual(['--resume', id]);
    expect(resumed('--session-id', '11111111-1111-4111-8111-111111111111', '--verbose')).toEqual(['--verbose', '--resume', id]);
    expect(resumed('--session-id=11111111-1111-4111-8111-111111111111')).toEqual(['--resume', id]);
    expect(resumed('--resume', 'old-id', '--fork-session')).toEqual(['--resume', id]);
    expect(resumed('--from-pr', '12', '--verbose')).toEqual(['--verbose', '--resume', id]);
    expect(resumed('--from-pr')).toEqual(['--resume', id]);
  });

  it('drops the prompt (a positional that is no option value), wherever it stands', () => {
    expect(resumed('fix the bug')).toEqual(['--resume', id]);
    expect(resumed('fix the bug', '--model', 'opus')).toEqual(['--model', 'opus', '--resume', id]);
    expect(resumed('--verbose', 'fix the bug')).toEqual(['--verbose', '--resume', id]);
    // After `--` everything is a prompt.
    expect(resumed('--model', 'opus', '--', '--not-an-option')).toEqual(['--model', 'opus', '--resume', id]);
  });

  it("keeps every option's value, even one that looks like a prompt or an option", () => {
    expect(resumed('--model', 'fix', 'the prompt')).toEqual(['--model', 'fix', '--resume', id]);
    expect(resumed('--append-system-prompt', '-be brief-', 'prompt')).toEqual(['--append-system-prompt', '-be brief-', '--resume', id]);
    expect(resumed('--settings', '{"hooks":{}}', '--permission-mode', 'default', 'prompt')).toEqual(['--settings', '{"hooks":{}}', '--permission-mode', 'default', '--resume', id]);
    expect(resumed('--model=opus', 'prompt')).toEqual(['--model=opus', '--resume', id]);
  });

  it('takes every value of a variadic option up to the next option (--allowedTools A B), as Claude does', () => {
    expect(resumed('--allowedTools', 'Write', 'Edit', '--model', 'opus', 'prompt')).toEqual(['--allowedTools', 'Write', 'Edit', '--model', 'opus', '--resume', id]);
    expect(resumed('--allowedTools', 'Write,Edit,Bash', '--permission-mode', 'default', '-r', 'old')).toEqual(['--allowedTools', 'Write,Edit,Bash', '--permission-mode', 'default', '--resume', id]);
    expect(resumed('--add-dir', '../a', '../b', '-c')).toEqual(['--add-dir', '../a', '../b', '--resume', id]);
    // Claude itself reads a word after a variadic option as one of its values, not as the prompt.
    expect(resumed('--disallowedTools', 'Bash', 'Write')).toEqual(['--disallowedTools', 'Bash', 'Write', '--resume', id]);
    // `--` ends a variadic option: what follows is the prompt.
    expect(resumed('--allowedTools', 'Write', '--', 'prompt')).toEqual(['--allowedTools', 'Write', '--resume', id]);
  });

  it('keeps an optional value only when it is not an option (-d [filter])', () => {
    expect(resumed('-d', 'api', 'prompt')).toEqual(['-d', 'api', '--resume', id]);
    expect(resumed('-d', '--verbose')).toEqual(['-d', '--verbose', '--resume', id]);
    expect(resumed('--debug=api')).toEqual(['--debug=api', '--resume', id]);
  });

  it("a whole command line as a user types it", () => {
    expect(resumed('--model', 'opus', '--allowedTools', 'Write', 'Edit', '--resume', 'abc', '--fork-session', '--permission-mode', 'acceptEdits', 'refactor the parser')).toEqual([
      '--model', 'opus', '--allowedTools', 'Write', 'Edit', '--permission-mode', 'acceptEdits', '--resume', id,
    ]);
  });
});
