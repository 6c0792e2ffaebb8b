// Where a test or the bench may act in Rewind's work, named here and nowhere acted on: a seam
// (a point a crash test kills the process at, or a race test pauses it at) and a speed-up
// (one the bench turns off to measure what it buys). Nothing happens unless the process was
// started with a module that installs the handlers before Rewind runs (`node --import`:
// test/helpers/seams.mjs, bench/tricksOff.mjs). Rewind never installs one, and reads no
// variable for them.

/** What a preloaded module installs on `globalThis[Symbol.for('rewind.injected')]`. */
export interface Injected {
  /** Called at each seam, by name (`staged:2`, `journal`, `applied`, `op` at each change to the project's files…). */
  at?: (seam: string) => void;
  /** The speed-ups turned off. */
  off?: ReadonlySet<string>;
}

/** The engine's speed-ups the bench measures with and without (README "Performance"). */
export type Trick =
  /** The first snapshot's shadow index starts as a copy of the project's (snapshot/seedIndex.ts). */
  | 'seed-index'
  /** The first snapshot's commit and ref are written by git/looseCommit.ts, not by its script. */
  | 'loose-commit';

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
