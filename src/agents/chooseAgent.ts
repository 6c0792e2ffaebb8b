import path from 'node:path';
import { UsageError } from '../shared/errors.js';
import type { AgentAdapter } from './agentAdapter.js';
import { aiderAgent } from './aider.js';
import { claudeAgent } from './claude/adapter.js';
import { codexAgent } from './codex/adapter.js';
import { demoAgent } from './demo/adapter.js';
import { geminiAgent } from './gemini/adapter.js';
import { genericAgent } from './generic.js';

/** Every adapter, the generic one last (it handles any command). */
const adapters: readonly AgentAdapter[] = [claudeAgent, codexAgent, geminiAgent, aiderAgent, demoAgent, genericAgent];

/** The names `--agent` takes. */
export function agentNames(): string[] {
  return adapters.map((adapter) => adapter.name);
}

/** The adapter of this name (a hook names its agent), else the generic one. */
export function agentNamed(name: string): AgentAdapter {
  return adapters.find((adapter) => adapter.name === name) ?? genericAgent;
}

/**
 * The adapter for a session: the one `--agent` names, else the first that handles the
 * command (by its file name), else the generic one.
 */
export function chooseAgent(command: string, requested?: string): AgentAdapter {
  if (requested !== undefined) {
    const named = adapters.find((adapter) => adapter.name === requested);
    if (!named) throw new UsageError(`unknown agent '${requested}' for --agent: rewind knows ${agentNames().join(', ')} (see \`rewind run --help\`)`);
    return named;
  }
  const name = path.basename(command);
  return adapters.find((adapter) => adapter.handles(name)) ?? genericAgent;
}
