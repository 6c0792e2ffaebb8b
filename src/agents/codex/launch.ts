// How Rewind adds its hooks to a Codex run without touching any file of the user's: one
// per-run override per event, `-c hooks.<Event>=[…]` (a layer of its own in Codex: the hooks
// of the user's config.toml still run too). Codex runs a hook only once the user trusted it,
// and remembers that by a hash of its definition: the overrides are the same on every run
// (the per-run channel travels in the environment, REWIND_SOCKET).
import type { Launch } from '../agentAdapter.js';
import { hookCommand, installedHookScript, packagedHookScript } from '../hookCommand.js';

/** The tools that can change files (the shell reaches hooks as `Bash`, edits as `apply_patch`). */
const fileTools = 'apply_patch|Bash';
export const codexHookEvents = ['PreToolUse', 'UserPromptSubmit', 'Stop', 'Interrupt'] as const;
/** Seconds Codex waits for the hook: as long as the hook client's own watchdog (Codex clamps Interrupt hooks to 3 s, with a warning). */
const timeoutSeconds = (event: string) => (event === 'Interrupt' ? 3 : 120);
const bypassFlag = '--dangerously-bypass-hook-trust';

/** What Rewind says once at the start of a Codex session whose hooks may not be trusted yet. */
export const trustNotice = `Trust Rewind's hooks in Codex's hook review ("Trust all") or pass ${bypassFlag}`;

/** `text` as a TOML basic string (every control character escaped). */
export function tomlString(text: string): string {
  const escape = (char: string) => {
    const code = char.charCodeAt(0);
    if (char === '"' || char === '\\') return `\\${char}`;
    return code < 0x20 || code === 0x7f ? `\\u${code.toString(16).padStart(4, '0')}` : char;
  };
  return `"${Array.from(text, escape).join('')}"`;
}

/** Rewind's hook group for one event, as data: one group, one command. */
export interface CodexHookGroup {
  matcher?: string;
  hooks: [{ type: 'command'; command: string; timeout: number }];
}

/** Rewind's hook group for `event`, running `script`: what the override says, and what Codex's trust is given to (hookTrust.ts). */
export function ourGroupValue(event: string, script: string): CodexHookGroup {
  const hooks: CodexHookGroup['hooks'] = [{ type: 'command', command: hookCommand('codex', event, script), timeout: timeoutSeconds(event) }];
  return event === 'PreToolUse' ? { matcher: fileTools, hooks } : { hooks };
}

/** The inside of the TOML array of Rewind's hook group for `event`. */
function ourGroup(event: string, script: string): string {
  const { matcher, hooks } = ourGroupValue(event, script);
  const hook = hooks[0];
  const matcherField = matcher === undefined ? '' : `matcher = ${tomlString(matcher)}, `;
  return `{ ${matcherField}hooks = [{ type = ${tomlString(hook.type)}, command = ${tomlString(hook.command)}, timeout = ${hook.timeout} }] }`;
}

/** The override for one event: `hooks.<event>=[…]`, running `script`. */
export function hookOverride(event: string, script = packagedHookScript()): string {
  return `hooks.${event}=[${ourGroup(event, script)}]`;
}

/**
 * The user's own array for an event with Rewind's group added after theirs (on a line of
 * its own: a comment at the end of theirs cannot swallow it); undefined when their value is
 * not an array (Codex then takes theirs as it is).
 */
function mergedValue(theirs: string, event: string, script: string): string | undefined {
  const value = theirs.trim();
  if (!value.startsWith('[') || !value.endsWith(']')) return undefined;
  const inner = value.slice(1, -1);
  const separator = inner.trim() === '' || inner.trimEnd().endsWith(',') ? '' : ',';
  return `[${inner}${separator}\n${ourGroup(event, script)}]`;
}

/** A `-c`/`--config` option at `args[i]`: its value and how many args it takes, if it is one. */
function configOption(args: readonly string[], i: number): { value: string; width: number; prefix: string } | undefined {
  const arg = args[i] ?? '';
  if ((arg === '-c' || arg === '--config') && i + 1 < args.length) return { value: args[i + 1] ?? '', width: 2, prefix: '' };
  if (arg.startsWith('--config=')) return { value: arg.slice('--config='.length), width: 1, prefix: '--config=' };
  if (arg.startsWith('-c') && arg.length > 2 && !arg.startsWith('--')) return { value: arg.slice(2), width: 1, prefix: '-c' };
  return undefined;
}

/**
 * `codex …` with Rewind's hooks: an override per event in front of the user's arguments
 * (`-c` is an option of every subcommand), or, where the user gave their own
 * `-c hooks.<Event>=[…]`, Rewind's group added to theirs in its place (theirs kept whole).
 * It never passes --dangerously-bypass-hook-trust; unless the user did, it carries the
 * notice that tells them how to trust the hooks.
 */
export function codexLaunch(launch: Launch): Launch {
  const script = installedHookScript(launch.env);
  const args: string[] = [];
  const merged = new Set<string>();
  let bypassed = false;
  let i = 0;
  for (; i < launch.args.length; i++) {
    if (launch.args[i] === '--') break;
    if (launch.args[i] === bypassFlag) bypassed = true;
    const option = configOption(launch.args, i);
    const at = option?.value.indexOf('=') ?? -1;
    const event = option && at > 0 ? codexHookEvents.find((name) => option.value.slice(0, at).trim() === `hooks.${name}`) : undefined;
    const value = option && event && !merged.has(event) ? mergedValue(option.value.slice(at + 1), event, script) : undefined;
    if (!option || !event || value === undefined) {
      args.push(launch.args[i] ?? '');
      continue;
    }
    merged.add(event);
    const combined = `hooks.${event}=${value}`;
    args.push(...(option.width === 2 ? [launch.args[i] ?? '-c', combined] : [`${option.prefix}${combined}`]));
    i += option.width - 1;
  }
  const ours = codexHookEvents.filter((event) => !merged.has(event)).flatMap((event) => ['-c', hookOverride(event, script)]);
  return { ...launch, args: [...ours, ...args, ...launch.args.slice(i)], ...(bypassed ? {} : { notice: trustNotice }) };
}
