/**
 * Environments for the git processes Rewind starts. Built from an allowlist, never from
 * `...process.env`: an inherited GIT_DIR, GIT_INDEX_FILE or GIT_WORK_TREE (set when an
 * agent runs inside a git hook, say) would point our commands at the user's repository.
 */

import { trickOn } from '../../shared/seams.js';

const passThrough = ['PATH', 'HOME', 'TMPDIR', 'TMP', 'TEMP', 'SYSTEMROOT', 'USER', 'LOGNAME', 'TZ'];

/**
 * GLIBC_TUNABLES (any other C library ignores it): git deflates every object it writes with a
 * fresh ~270 KB zlib state, which glibc by default gives back at each free and asks for again
 * for the next object. glibc raises both thresholds as a process runs; these values are where
 * it stops (32 MB is the most mmap_threshold takes on a 64-bit system: a larger one is ignored).
 */
const keptHeap = 'glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=67108864';

/** `env` without keptHeap: for the background gc, whose threads would each keep their freed memory, off any path a user waits on. */
export function withoutKeptHeap(env: Record<string, string>): Record<string, string> {
  const { GLIBC_TUNABLES: _dropped, ...rest } = env;
  return rest;
}

/** Rewind's own identity on every shadow commit. */
export const shadowIdentity = { name: 'rewind', email: 'rewind@localhost' };

function pick(source: NodeJS.ProcessEnv, names: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of names) {
    const value = source[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/** Config as GIT_CONFIG_COUNT/KEY/VALUE: command-line strength, and inherited by child gits. */
function configEnv(entries: readonly (readonly [string, string])[]): Record<string, string> {
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(entries.length) };
  entries.forEach(([key, value], index) => {
    env[`GIT_CONFIG_KEY_${index}`] = key;
    env[`GIT_CONFIG_VALUE_${index}`] = value;
  });
  return env;
}

/**
 * For commands on the shadow repo: no system or global config (the user's signing,
 * hooks, fsmonitor or showUntrackedFiles settings must not reach it), C locale so output
 * parses the same everywhere, our identity, no prompts.
 */
export function shadowGitEnv(source: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return {
    ...pick(source, passThrough),
    LC_ALL: 'C',
    ...(trickOn('kept-heap') ? { GLIBC_TUNABLES: keptHeap } : {}),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    // add -A asks each nested repository and submodule for its status, which would
    // otherwise refresh and rewrite THEIR index: never touch a .git that is not ours.
    GIT_OPTIONAL_LOCKS: '0',
    // Config given through the environment reaches every git that ours starts, a nested
    // repository's status included (git passes it on): should one ever run, its own
    // fsmonitor and hooks do not. (Snapshots keep git out of nested repositories anyway:
    // see nestedLinks in snapshot.ts.)
    ...configEnv([
      ['core.fsmonitor', 'false'],
      ['core.hooksPath', '/dev/null'],
    ]),
    GIT_AUTHOR_NAME: shadowIdentity.name,
    GIT_AUTHOR_EMAIL: shadowIdentity.email,
    GIT_COMMITTER_NAME: shadowIdentity.name,
    GIT_COMMITTER_EMAIL: shadowIdentity.email,
  };
}

/**
 * For read-only questions to the user's own repository (where its excludes file is):
 * the user's global config is wanted here, so HOME and XDG_CONFIG_HOME pass through.
 */
export function projectGitEnv(source: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return {
    ...pick(source, [...passThrough, 'XDG_CONFIG_HOME', 'GIT_CONFIG_NOSYSTEM', 'GIT_CONFIG_GLOBAL']),
    LC_ALL: 'C',
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
  };
}

/**
 * Options for every git command run in the user's own repository: their config may name
 * programs (an fsmonitor hook, say) that git would run on reading the index, and no
 * program of the user's ever runs from a Rewind git call.
 */
export const projectGitOptions: readonly string[] = ['-c', 'core.fsmonitor=false', '-c', 'core.hooksPath=/dev/null'];

/** An environment as `NAME=VALUE` arguments (for `env -i`). */
export function envArguments(env: Record<string, string>): string[] {
  return Object.entries(env).map(([name, value]) => `${name}=${value}`);
}
