// The harness for the real agents: a hermetic world (world.ts), each agent configured in it
// (setup/), a headless runner, and the recording hook (test/fixtures/hooks/record.sh) in each
// agent's own hook format.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { repoRoot, type HookGroups, type Invocation } from './world.js';

export { createWorld, type AgentSetup, type AgentWorld, type HookGroups, type Invocation } from './world.js';
export { claudeSetup } from './setup/claude.js';
export { geminiSetup } from './setup/gemini.js';
export { codexSetup } from './setup/codex.js';

export type AgentName = 'claude' | 'gemini' | 'codex';

export const recordHook = path.join(repoRoot, 'test', 'fixtures', 'hooks', 'record.sh');

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs `run` to its end with stdin from /dev/null; kills it (and fails) after `timeoutMs`. */
export function runHeadless(run: Invocation, timeoutMs = 90_000): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(run.command, run.args, { cwd: run.cwd, env: run.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${path.basename(run.args.at(-1) ?? run.command)}: no exit after ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** One event to record, with the agent's matcher for it (tool events). */
export interface RecordedEvent {
  event: string;
  matcher?: string;
}

/** `text` quoted for sh. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

/**
 * How long record.sh holds each call before it copies the project: were the agent not to
 * wait for its hook, the tool would run inside this window and show in the copy.
 */
export const holdSeconds = 0.3;

/**
 * Hook settings that run record.sh for each of `events`, writing under `out` and copying
 * `project` as it was at the end of the call. Gemini counts hook timeouts in ms, the others in s.
 */
export function recordingHooks(agent: AgentName, out: string, project: string, events: readonly RecordedEvent[]): HookGroups {
  const timeout = agent === 'gemini' ? 30_000 : 30;
  const command = (event: string) => ['sh', recordHook, out, event, project, String(holdSeconds)].map(shellQuote).join(' ');
  return Object.fromEntries(events.map(({ event, matcher }) => [event, [{ ...(matcher === undefined ? {} : { matcher }), hooks: [{ type: 'command' as const, command: command(event), timeout }] }]]));
}
