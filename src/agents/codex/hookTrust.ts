// Whether Codex trusts the hooks Rewind gives it (launch.ts). Codex runs a hook of the user's
// (not its administrator's) only once the user trusted it, and records that trust in its user
// config.toml, one table per hook, as its hook review's "Trust all" writes it:
//
//   [hooks.state."/<session-flags>/config.toml:pre_tool_use:0:0"]
//   trusted_hash = "sha256:…"
//
// keyed by where the hook came from (`-c` overrides: "/<session-flags>/config.toml"), its
// event, and the places of its group and handler there; holding a hash of the hook's
// normalized definition. A hook whose definition no longer hashes to it counts as changed and
// is skipped as an untrusted one is; `enabled = false` there turns it off. The hash is
// computed here as Codex computes it: SHA-256 of the compact JSON, keys sorted, of the
// event's snake_case name, the group's matcher and its one handler with its timeout and
// `async`. test/agents/codexHookTrust.test.ts proves it against the pinned real Codex (its
// own list of hooks with their hashes, and a real "Trust all").
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { messageOf } from '../../shared/errors.js';
import { codexHome } from './home.js';
import { codexHookEvents, ourGroupValue } from './launch.js';
import { tomlScalars } from './tomlScalars.js';

/** How Codex stands towards one of Rewind's hooks: `modified` = trusted as another definition. */
export type HookTrust = 'trusted' | 'untrusted' | 'modified' | 'disabled';

export interface EventTrust {
  event: string;
  trust: HookTrust;
  /** For `modified`: the hook script whose definition the recorded trust is for, when it is one of those asked about. */
  trustedFor?: string;
}

/** `PreToolUse` as Codex names events in its keys: `pre_tool_use`. */
const eventLabel = (event: string) => event.replace(/(?<=[a-z0-9])([A-Z])/g, '_$1').toLowerCase();

/** The key of Rewind's hook for `event` in Codex's hook state (its only group in the `-c` overrides, handler 0). */
export function codexHookKey(event: string): string {
  return `/<session-flags>/config.toml:${eventLabel(event)}:0:0`;
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sortedKeys((value as Record<string, unknown>)[key])]));
}

/** The hash Codex gives Rewind's hook for `event` running `script`, as its trust records it (`sha256:<hex>`). */
export function codexHookHash(event: string, script: string): string {
  const { matcher, hooks } = ourGroupValue(event, script);
  const identity = { event_name: eventLabel(event), ...(matcher === undefined ? {} : { matcher }), hooks: hooks.map((hook) => ({ ...hook, async: false })) };
  return `sha256:${createHash('sha256').update(JSON.stringify(sortedKeys(identity))).digest('hex')}`;
}

/** Codex's hook state in `configText` (a config.toml): key to what is recorded for it. */
function hookStates(configText: string): Map<string, { trustedHash?: string; enabled?: boolean }> {
  const states = new Map<string, { trustedHash?: string; enabled?: boolean }>();
  for (const { path: keys, value } of tomlScalars(configText)) {
    const [hooks, state, key, field] = keys;
    if (keys.length !== 4 || hooks !== 'hooks' || state !== 'state' || key === undefined) continue;
    const entry = states.get(key.trim()) ?? {};
    if (field === 'trusted_hash' && typeof value === 'string') entry.trustedHash = value;
    else if (field === 'enabled' && typeof value === 'boolean') entry.enabled = value;
    else continue;
    states.set(key.trim(), entry);
  }
  return states;
}

/**
 * How Codex stands towards each of Rewind's hooks given to it as running `scripts[0]`, by the
 * config.toml `configText` (undefined: there is none). A trust recorded for the same hooks
 * running one of the other `scripts` is `modified`, naming that script. Throws when the text is not TOML.
 */
export function codexHookTrust(configText: string | undefined, scripts: readonly [string, ...string[]]): EventTrust[] {
  const states = configText === undefined ? new Map<string, never>() : hookStates(configText);
  return codexHookEvents.map((event): EventTrust => {
    const state = states.get(codexHookKey(event));
    if (state?.enabled === false) return { event, trust: 'disabled' };
    if (state?.trustedHash === undefined) return { event, trust: 'untrusted' };
    const matching = scripts.find((script) => codexHookHash(event, script) === state.trustedHash);
    if (matching === scripts[0]) return { event, trust: 'trusted' };
    return { event, trust: 'modified', ...(matching === undefined ? {} : { trustedFor: matching }) };
  });
}

/** Codex's config.toml for `env` (the one Codex, and so Rewind's sessions, use) and how it stands towards Rewind's hooks; or why it cannot be read. */
export function readCodexHookTrust(env: NodeJS.ProcessEnv, scripts: readonly [string, ...string[]]): { file: string; events: EventTrust[] } | { file: string; error: string } {
  const file = path.join(codexHome(env), 'config.toml');
  let text: string | undefined;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return { file, error: messageOf(error) };
  }
  try {
    return { file, events: codexHookTrust(text, scripts) };
  } catch (error) {
    return { file, error: messageOf(error) };
  }
}
