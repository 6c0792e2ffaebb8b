// The files a tool call's input names as those it writes, read from the real payloads the
// pinned agents sent (test/fixtures/hooks): what the checkpoint after the step stages too.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeAgent } from '../../src/agents/claude/adapter.js';
import { codexAgent } from '../../src/agents/codex/adapter.js';
import { geminiAgent } from '../../src/agents/gemini/adapter.js';
import type { AgentAdapter } from '../../src/agents/agentAdapter.js';

const fixtures = path.resolve(import.meta.dirname, '../fixtures/hooks');
const payload = (agent: string, name: string): unknown => JSON.parse(fs.readFileSync(path.join(fixtures, agent, `${name}.json`), 'utf8'));
const filesOf = (adapter: AgentAdapter, agent: string, name: string) => adapter.hookEvent?.(name.split('.')[0] ?? '', payload(agent, name))?.files;

describe("a tool call's files", () => {
  it.each([
    ['claude', claudeAgent, 'PreToolUse.Edit'],
    ['claude', claudeAgent, 'PreToolUse.Write'],
    ['gemini', geminiAgent, 'BeforeTool.write_file'],
    ['gemini', geminiAgent, 'BeforeTool.replace'],
    ['codex', codexAgent, 'PreToolUse.apply_patch'],
  ] as const)('%s %s names the file it writes', (agent, adapter, name) => {
    const files = filesOf(adapter, agent, name) ?? [];
    expect(files.length).toBeGreaterThan(0);
    const input = JSON.stringify((payload(agent, name) as { tool_input: unknown }).tool_input);
    for (const file of files) expect(input).toContain(JSON.stringify(file).slice(1, -1));
  });

  it.each([
    ['claude', claudeAgent, 'PreToolUse.Bash'],
    ['gemini', geminiAgent, 'BeforeTool.run_shell_command'],
    ['codex', codexAgent, 'PreToolUse.Bash'],
    ['claude', claudeAgent, 'UserPromptSubmit'],
  ] as const)('%s %s names none', (agent, adapter, name) => {
    expect(filesOf(adapter, agent, name)).toBeUndefined();
  });
});
