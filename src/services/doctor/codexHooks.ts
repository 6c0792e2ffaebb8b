// `rewind doctor` on Codex's trust in Rewind's hooks: Codex skips hooks nobody trusted without
// a word, so a session whose hooks never ran looks like one with nothing to checkpoint.
import { readCodexHookTrust, type EventTrust, type HookTrust } from '../../agents/codex/hookTrust.js';
import { hookScriptPath, packagedHookScript } from '../../agents/hookCommand.js';
import { passed, warned, type Check } from './check.js';
import { onPath } from './programs.js';

const name = 'codex hooks';
const review = 'at the next `rewind -- codex` choose "Trust all and continue" in Codex\'s hook review (or pass --dangerously-bypass-hook-trust yourself)';

/** The events whose hooks stand as `trust`, comma-separated. */
const eventsIn = (events: readonly EventTrust[], trust: HookTrust) =>
  events
    .filter((event) => event.trust === trust)
    .map((event) => event.event)
    .join(', ');

/** Where a trust recorded for another definition came from, as far as can be told. */
function otherDefinition(events: readonly EventTrust[], script: string): string {
  const known = events.find((event) => event.trust === 'modified')?.trustedFor;
  return known ? `naming ${known}, not ${script}` : "another rewind install's hook path, or an older rewind's";
}

/**
 * Whether the hooks `rewind -- codex` gives Codex are trusted in the config.toml Codex reads
 * (`$CODEX_HOME`, else ~/.codex); nothing when codex is not on PATH.
 */
export function codexHooksCheck(env: NodeJS.ProcessEnv): Check | undefined {
  if (!onPath('codex', env)) return undefined;
  const script = hookScriptPath(env);
  const read = readCodexHookTrust(env, [script, packagedHookScript()]);
  if ('error' in read) return warned(name, `${read.file} cannot be read: ${read.error}`, 'fix it (Codex reads it too), then run `rewind doctor` again');
  const { file, events } = read;
  if (events.every((event) => event.trust === 'trusted')) return passed(name, `trusted (${eventsIn(events, 'trusted')}) in ${file}`);
  const parts = [
    ['trusted', eventsIn(events, 'trusted')],
    ['not trusted yet', eventsIn(events, 'untrusted')],
    [`trusted for another definition (${otherDefinition(events, script)})`, eventsIn(events, 'modified')],
    ["turned off in Codex's /hooks", eventsIn(events, 'disabled')],
  ].filter(([, list]) => list !== '');
  const detail = `${parts.map(([what, list]) => `${what}: ${list}`).join('; ')} in ${file}; Codex skips untrusted hooks silently`;
  const toTrust = events.some((event) => event.trust === 'untrusted' || event.trust === 'modified');
  const toEnable = events.some((event) => event.trust === 'disabled');
  const fix = [toTrust ? review : '', toEnable ? "turn them on again in Codex's /hooks" : ''].filter((step) => step !== '').join('; ');
  return warned(name, detail, fix);
}
