// Hooks as Claude Code runs them (docs/agents.md): settings `{hooks: {Event: [{matcher?, hooks:
// [{type: 'command', command, timeout}]}]}}` from --settings (JSON or a file); each command
// run through sh with the JSON payload on stdin, waited for; exit 2 blocks a tool call.
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

function runOne(command: string, payload: object, cwd: string, timeoutMs: number): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', command], { cwd, env: { ...process.env, CLAUDE_PROJECT_DIR: cwd }, stdio: ['pipe', 'ignore', 'inherit'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', () => resolve(1));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code ?? 1);
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(JSON.stringify(payload));
  });
}

/** Runs the hooks of `event` (matched on `tool` for tool events); false when one blocked it (exit 2). */
export async function runHooks(settings: Settings, event: string, payload: object, cwd: string, tool?: string): Promise<boolean> {
  let allowed = true;
  for (const group of settings.hooks?.[event] ?? []) {
    if (group.matcher && tool !== undefined && !new RegExp(`^(?:${group.matcher})$`).test(tool)) continue;
    for (const hook of group.hooks ?? []) {
      if (hook.type !== 'command') continue;
      if ((await runOne(hook.command, payload, cwd, (hook.timeout ?? 600) * 1000)) === 2) allowed = false;
    }
  }
  return allowed;
}
