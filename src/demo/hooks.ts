// Hooks as Claude Code runs them (docs/agents.md): settings `{hooks: {Event: [{matcher?, hooks:
// [{type: 'command', command, timeout}]}]}}` from --settings (JSON or a file); each command
// run through sh with the JSON payload on stdin, waited for; exit 2 blocks a tool call, and a
// prompt hook's stdout can add context to the prompt.
import { spawn } from 'node:child_process';
import fs from 'node:fs';

interface HookCommand {
  type: string;
  command: string;
  timeout?: number;
}

type Settings = { hooks?: Record<string, { matcher?: string; hooks?: HookCommand[] }[]> };

/** All `--settings` given (later ones add their hooks to the earlier ones'). */
export function readSettings(values: readonly string[]): Settings {
  const hooks: NonNullable<Settings['hooks']> = {};
  for (const value of values) {
    const parsed = JSON.parse(value.trim().startsWith('{') ? value : fs.readFileSync(value, 'utf8')) as Settings;
    for (const [event, groups] of Object.entries(parsed.hooks ?? {})) hooks[event] = [...(hooks[event] ?? []), ...groups];
  }
  return { hooks };
}

/** A hook's exit code and what it printed on stdout. */
interface HookRun {
  code: number;
  stdout: string;
}

function runOne(command: string, payload: object, cwd: string, timeoutMs: number): Promise<HookRun> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', command], { cwd, env: { ...process.env, CLAUDE_PROJECT_DIR: cwd }, stdio: ['pipe', 'pipe', 'inherit'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.on('error', () => resolve({ code: 1, stdout: '' }));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, stdout });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(JSON.stringify(payload));
  });
}

/** The context a hook's stdout adds, as Claude Code reads it: `{"hookSpecificOutput": {"additionalContext": …}}`. */
function addedContext(stdout: string): string | undefined {
  try {
    const context = (JSON.parse(stdout) as { hookSpecificOutput?: { additionalContext?: unknown } }).hookSpecificOutput?.additionalContext;
    return typeof context === 'string' && context !== '' ? context : undefined;
  } catch {
    return undefined;
  }
}

/** What the hooks of an event said: whether the step may go on (no exit 2), and the context they added. */
export interface HooksOutcome {
  allowed: boolean;
  context: string[];
}

/** Runs the hooks of `event` (matched on `tool` for tool events): blocked when one exits 2; the context they print is kept. */
export async function runHooks(settings: Settings, event: string, payload: object, cwd: string, tool?: string): Promise<HooksOutcome> {
  const outcome: HooksOutcome = { allowed: true, context: [] };
  for (const group of settings.hooks?.[event] ?? []) {
    if (group.matcher && tool !== undefined && !new RegExp(`^(?:${group.matcher})$`).test(tool)) continue;
    for (const hook of group.hooks ?? []) {
      if (hook.type !== 'command') continue;
      const run = await runOne(hook.command, payload, cwd, (hook.timeout ?? 600) * 1000);
      if (run.code === 2) outcome.allowed = false;
      const context = run.code === 0 ? addedContext(run.stdout) : undefined;
      if (context !== undefined) outcome.context.push(context);
    }
  }
  return outcome;
}
