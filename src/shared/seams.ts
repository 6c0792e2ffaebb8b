// Where a test or the bench may act in Rewind's work, named here and nowhere acted on: a seam
// (a point a crash test kills the process at, or a race test pauses it at), a speed-up (one
// the bench turns off to measure what it buys), a wait a test shortens and the clock a test
// moves. Nothing happens unless something installs the handlers before Rewind acts: a
// module the process was started with (`node --import test/helpers/seams.mjs`), or the bench
// in its own process (bench/tricks.ts). Rewind never installs one, and reads no variable
// for them.

/** What a preloaded module installs on `globalThis[Symbol.for('rewind.injected')]`. */
export interface Injected {
  /** Called at each seam, by name (`staged:2`, `journal`, `applied`, `op` at each change to the project's files…). */
  at?: (seam: string) => void;
  /** The speed-ups turned off. */
  off?: ReadonlySet<string>;
  /** Waits shortened (ms), by name. */
  waits?: Readonly<Partial<Record<Wait, number>>>;
  /** Limits lowered, by name. */
  limits?: Readonly<Partial<Record<Limit, number>>>;
  /** A fixed clock (ms since the epoch): what retention measures ages from. */
  now?: number;
}

/** The waits a test may change: how long a hook reads its stdin, before progress shows, for
 * the project lock, the quiet before a walk of the whole tree confirms the checkpoints staged
 * from changed paths, the outer terminal's time to tell its colours, an agent's time to make
 * its first hook call after the first prompt. */
export type Wait = 'hook-stdin' | 'progress-after' | 'lock-wait' | 'confirm-scan' | 'colour-query' | 'no-hooks';

/** The limits a test may lower: how many folders the app's watcher watches (as if the system had no more watches). */
export type Limit = 'watched-folders';

/** The engine's speed-ups the bench measures with and without (README "Performance"). */
export type Trick =
  /** The first snapshot's shadow index starts as a copy of the project's (snapshot/seedIndex.ts). */
  | 'seed-index'
  /** The shadow repo's git processes keep their heap between the objects they write (git/gitEnv.ts). */
  | 'kept-heap';

const key = Symbol.for('rewind.injected');

function injected(): Injected | undefined {
  return (globalThis as { [key]?: Injected })[key];
}

/** Seam `name`: whatever was injected acts here (nothing, in the product). */
export function seam(name: string): void {
  injected()?.at?.(name);
}

/** Whether the speed-up `trick` is on (always, unless the bench turned it off). */
export function trickOn(trick: Trick): boolean {
  return injected()?.off?.has(trick) !== true;
}

/** How long `wait` lasts (ms): `otherwise`, unless a test shortened it. */
export function waitMs(wait: Wait, otherwise: number): number;
export function waitMs(wait: Wait, otherwise?: number): number | undefined;
export function waitMs(wait: Wait, otherwise?: number): number | undefined {
  return injected()?.waits?.[wait] ?? otherwise;
}

/** Limit `limit`: `otherwise`, unless a test lowered it. */
export function limitOf(limit: Limit, otherwise: number): number {
  return injected()?.limits?.[limit] ?? otherwise;
}

/** The clock: the real one, unless a test fixed it. */
export function clock(): () => number {
  const now = injected()?.now;
  return now === undefined ? Date.now : () => now;
}
