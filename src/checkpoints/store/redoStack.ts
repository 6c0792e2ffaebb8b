import { refsUnder } from '../git/refs.js';
import type { ShadowRepo } from './shadowRepo.js';

/**
 * The redo stack: refs `refs/rewind/redo/<seq>-<checkpoint id>-<restored id>`, one per
 * restore, each pinning the checkpoint that holds the files as they were just before that
 * restore (and naming the checkpoint it restored; older stores lack that part).
 * `rewind redo` takes the top one.
 */
export interface RedoPoint {
  seq: number;
  checkpoint: number;
  /** The checkpoint that restore put back, when the ref says. */
  restored?: number;
  ref: string;
}

const prefix = 'refs/rewind/redo/';

export async function readRedoStack(repo: ShadowRepo): Promise<RedoPoint[]> {
  const points: RedoPoint[] = [];
  // Read from the ref files (loose and packed) without a git process.
  for (const ref of refsUnder(repo.gitDir, prefix)) {
    const match = /^refs\/rewind\/redo\/(\d+)-(\d+)(?:-(\d+))?$/.exec(ref);
    if (match) points.push({ seq: Number(match[1]), checkpoint: Number(match[2]), ...(match[3] ? { restored: Number(match[3]) } : {}), ref });
  }
  return points.sort((a, b) => a.seq - b.seq);
}

/** The ref of a redo point. */
export function redoRef(seq: number, checkpoint: number, restored: number): string {
  return `${prefix}${seq}-${checkpoint}-${restored}`;
}

/** The next sequence number on the stack. */
export async function nextRedoSeq(repo: ShadowRepo): Promise<number> {
  return ((await readRedoStack(repo)).at(-1)?.seq ?? 0) + 1;
}

export async function dropRedoPoint(repo: ShadowRepo, point: RedoPoint): Promise<void> {
  await repo.storeGit(['update-ref', '-d', point.ref]);
}

/** A redo point's push whose git is started ahead (a restore starts it before it stages). */
export interface RedoPush {
  /** Pushes the redo point: its ref, pinning the checkpoint's commit. */
  push(point: RedoPoint, commit: string): Promise<void>;
  /** Ends it having pushed nothing (the restore stopped before its journal). */
  cancel(): Promise<void>;
}

/** Starts `update-ref --stdin` now; `push` gives it the ref (one transaction at its end of input), `cancel` none. */
export function startRedoPush(repo: ShadowRepo): RedoPush {
  const started = repo.startStoreGit(['update-ref', '--stdin']);
  let ended = false;
  const end = (input: string) => {
    if (ended) throw new Error('a redo push ends once');
    ended = true;
    return started.finish({ input });
  };
  return {
    push: async (point, commit) => {
      await end(`update ${point.ref} ${commit}\n`);
    },
    cancel: async () => {
      if (!ended) await end('').catch(() => undefined);
    },
  };
}

/** Pushes a redo point now: its ref, pinning the checkpoint's commit (startRedoPush's, started and given at once). */
export function pushRedoPoint(repo: ShadowRepo, point: RedoPoint, commit: string): Promise<void> {
  return startRedoPush(repo).push(point, commit);
}

/**
 * Moves a redo point to another checkpoint (its commit): one ref transaction, so the stack
 * never holds both or neither (`update-ref --stdin` makes all its updates together or none;
 * no `start`/`commit`, which git before 2.27 does not know).
 */
export async function moveRedoPoint(repo: ShadowRepo, from: RedoPoint, to: RedoPoint, commit: string): Promise<void> {
  await repo.storeGit(['update-ref', '--stdin'], { input: `create ${to.ref} ${commit}\ndelete ${from.ref}\n` });
}
