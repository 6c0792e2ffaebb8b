import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../../shared/errors.js';
import type { Engine } from '../snapshot/engine.js';
import { bisectRange, nextProbe, runsLeft, scanBreaks, testable, type ScanBreak, type Verdict } from './bisectSearch.js';
import { compareLooks, describeChanges, lookAtProject, type ProjectChanges, type ProjectLook, type WatchedDir } from './bisectWatch.js';
import type { CheckpointRecord } from '../store/record.js';
import { runUserCommand, type TestOutcome } from './testRun.js';
import { TreeFolder } from '../git/treeFolder.js';
import { makeScratch, removeScratch } from '../store/scratchFolders.js';

export type { ScanBreak, Verdict } from './bisectSearch.js';
export type { ProjectChanges } from './bisectWatch.js';

export interface BisectOptions {
  /** The test: one word is a shell command line, more a program and its arguments. */
  command: readonly string[];
  good?: number;
  bad?: number;
  /** Test every checkpoint in range in order instead of searching. */
  scan?: boolean;
  /** A shell command run before each test (`npm ci`); its failure counts as skip. */
  setup?: string;
  /** The environment of the test (the user's). */
  env: NodeJS.ProcessEnv;
  /** Where in the project the test runs (project-relative; the root when absent at a checkpoint). */
  cwd?: string;
  /** Stops the test under way and the search (the scratch folder is removed all the same). */
  signal?: AbortSignal;
  /** Told before each run and after each verdict. */
  onStep?: (event: BisectEvent) => void;
}

/** One checkpoint tested. */
export interface BisectStep {
  id: number;
  verdict: Verdict;
  code: number | null;
  /** Why it was skipped when the test itself did not say so (a failing setup). */
  note?: string;
}

/** The project changed between the look before checkpoint `id`'s test (its setup included) and the one after. */
export interface ProjectChange extends ProjectChanges {
  id: number;
  /** The changes in one line (`changed a; removed b and 3 more`). */
  summary: string;
}

export type BisectEvent =
  | { kind: 'testing'; id: number; run: number; left: number }
  | { kind: 'tested'; step: BisectStep }
  | { kind: 'changed'; change: ProjectChange };

export interface BisectResult {
  mode: 'bisect' | 'scan';
  /** The range searched, as given or defaulted. */
  good: CheckpointRecord;
  bad: CheckpointRecord;
  /** The first checkpoint where the test fails after passing, and the one before it. */
  firstBad: CheckpointRecord;
  lastGood: CheckpointRecord;
  /** The checkpoint just before firstBad, whose step broke it (lastGood when unsure): restoring it undoes the break. */
  before: CheckpointRecord;
  /** Checkpoints that could not be tested (skip) between lastGood and firstBad: the first bad may be any of these. */
  maybe: CheckpointRecord[];
  /** How many times the test ran. */
  runs: number;
  steps: BisectStep[];
  /** With --scan: every break, and where it passed again. */
  breaks: ScanBreak[];
  /** What the failing run printed last. */
  badOutput: string;
  /** Nested repositories: empty folders in the test folder. */
  nested: string[];
  /** What changed in the project (its files, ignored ones included, and its git dirs) while each test ran. */
  projectChanges: ProjectChange[];
  /** Folders of the project that could not be read, so were not checked. */
  notChecked: string[];
}

/** Exit code 125 is "cannot test this one", as with `git bisect run`. */
const skipCode = 125;

class BisectStop extends UserError {}

function verdictOf(outcome: TestOutcome, id: number): Verdict {
  if (outcome.code === 0) return 'good';
  if (outcome.code === skipCode) return 'skip';
  if (outcome.code !== null && outcome.code < 128) return 'bad';
  const how = outcome.signal ? `was killed by ${outcome.signal}` : `exited with ${outcome.code}`;
  throw new BisectStop(`the test command ${how} at checkpoint #${id}: bisect stopped (as with git bisect run, exit codes above 127 and signals stop it; 1-127 mean bad, 125 skip)`);
}

/** One test folder for the whole search: each step switches it to a checkpoint's files. */
class Prober {
  readonly steps: BisectStep[] = [];
  readonly outputs = new Map<number, string>();
  readonly changes: ProjectChange[] = [];
  runs = 0;
  #look: ProjectLook | undefined;
  readonly #unreadable = new Set<string>();

  constructor(
    readonly folder: TreeFolder,
    readonly options: BisectOptions,
    readonly watch: { dirs: WatchedDir[]; skip: string[] },
  ) {}

  /** What some look could not read. */
  get notChecked(): string[] {
    return [...this.#unreadable].sort();
  }

  /** Looks at the project; after a test, tells what differs from the look before it. */
  async lookAtProject(id?: number): Promise<void> {
    const look = await lookAtProject(this.watch.dirs, this.watch.skip);
    const changes = this.#look && id !== undefined ? compareLooks(this.#look, look) : undefined;
    this.#look = look;
    for (const folder of look.unreadable) this.#unreadable.add(folder);
    if (!changes || id === undefined) return;
    const change = { id, ...changes, summary: describeChanges(changes) };
    this.changes.push(change);
    this.options.onStep?.({ kind: 'changed', change });
  }

  get env(): NodeJS.ProcessEnv {
    // The test's own git commands must not find a repository above the scratch folder.
    return { ...this.options.env, GIT_CEILING_DIRECTORIES: path.dirname(path.dirname(this.folder.work)) };
  }

  cwd(): string {
    const sub = this.options.cwd ? path.join(this.folder.work, this.options.cwd) : this.folder.work;
    return fs.existsSync(sub) ? sub : this.folder.work;
  }

  async test(record: CheckpointRecord, left: number): Promise<Verdict> {
    const { signal } = this.options;
    this.runs++;
    this.options.onStep?.({ kind: 'testing', id: record.id, run: this.runs, left });
    await this.folder.checkout(record.tree).catch((error: unknown) => {
      // Objects gone meanwhile (the project's own gc, a prune): a clear stop, not a crash.
      throw new BisectStop(`checkpoint #${record.id}'s files could not be written to the test folder: ${(error as Error).message}`, { cause: error });
    });
    if (signal?.aborted) throw new BisectStop('bisect stopped: interrupted', { exitCode: 130 });
    let step: BisectStep;
    try {
      step = await this.run(record, signal);
    } finally {
      // Also when the test was stopped or could not start: whatever ran may have written.
      await this.lookAtProject(record.id);
    }
    this.steps.push(step);
    this.options.onStep?.({ kind: 'tested', step });
    return step.verdict;
  }

  private async run(record: CheckpointRecord, signal: AbortSignal | undefined): Promise<BisectStep> {
    const env = { ...this.env, REWIND_BISECT_CHECKPOINT: String(record.id) };
    const interrupted = () => new BisectStop('bisect stopped: interrupted', { exitCode: 130 });
    if (this.options.setup) {
      const setup = await runUserCommand([this.options.setup], { cwd: this.cwd(), env, signal }).catch((error: unknown) => {
        throw signal?.aborted ? interrupted() : error;
      });
      if (signal?.aborted) throw interrupted();
      if (setup.code !== 0) return { id: record.id, verdict: 'skip', code: setup.code, note: `the setup command failed (${setup.signal ?? `exit ${setup.code}`})` };
    }
    const outcome = await runUserCommand(this.options.command, { cwd: this.cwd(), env, signal }).catch((error: unknown) => {
      if (signal?.aborted) throw interrupted();
      throw new UserError(`the test command could not be started: ${(error as Error).message}`);
    });
    if (signal?.aborted) throw interrupted();
    this.outputs.set(record.id, outcome.tail);
    return { id: record.id, verdict: verdictOf(outcome, record.id), code: outcome.code };
  }
}

function notTestable(prober: Prober, record: CheckpointRecord, end: string): BisectStop {
  const step = prober.steps[prober.steps.length - 1];
  const why = step?.note ?? 'the test exited with 125 (skip)';
  return new BisectStop(`checkpoint #${record.id} (the ${end} end) could not be tested: ${why}; name another with --${end} ID`);
}

interface Found {
  /** Indexes into the candidates: the last good one before the first bad one, and it. */
  lo: number;
  hi: number;
  /** Indexes of the candidates that could not be tested. */
  skipped: Set<number>;
  breaks: ScanBreak[];
}

function failsAtGood(prober: Prober, record: CheckpointRecord): BisectStop {
  const code = prober.steps[0]?.code;
  const hint = code === 127 ? ': command not found? check the test command' : ': name an older one with --good ID, or check the test command';
  return new BisectStop(`the test already fails at the good end, checkpoint #${record.id} (exit ${code})${hint}`);
}

async function search(prober: Prober, candidates: CheckpointRecord[]): Promise<Found> {
  const first = candidates[0] as CheckpointRecord;
  const last = candidates[candidates.length - 1] as CheckpointRecord;
  let lo = 0;
  let hi = candidates.length - 1;
  const atGood = await prober.test(first, runsLeft(lo, hi) + 1);
  if (atGood === 'skip') throw notTestable(prober, first, 'good');
  if (atGood === 'bad') throw failsAtGood(prober, first);
  const atBad = await prober.test(last, runsLeft(lo, hi));
  if (atBad === 'skip') throw notTestable(prober, last, 'bad');
  if (atBad === 'good') throw new BisectStop(`the test passes at the bad end, checkpoint #${last.id}: nothing broke between #${first.id} and #${last.id} (name another with --bad ID, or try --scan)`);
  const skipped = new Set<number>();
  for (let probe = nextProbe(lo, hi, skipped); probe !== undefined; probe = nextProbe(lo, hi, skipped)) {
    const verdict = await prober.test(candidates[probe] as CheckpointRecord, runsLeft(lo, hi) - 1);
    if (verdict === 'good') lo = probe;
    else if (verdict === 'bad') hi = probe;
    else skipped.add(probe);
  }
  return { lo, hi, skipped, breaks: [] };
}

async function scan(prober: Prober, candidates: CheckpointRecord[]): Promise<Found> {
  const verdicts: Verdict[] = [];
  for (const [index, record] of candidates.entries()) {
    const verdict = await prober.test(record, candidates.length - index - 1);
    if (index === 0 && verdict === 'skip') throw notTestable(prober, record, 'good');
    if (index === 0 && verdict === 'bad') throw failsAtGood(prober, record);
    verdicts.push(verdict);
  }
  const breaks = scanBreaks(prober.steps);
  if (breaks.length === 0) throw new BisectStop(`the test passes at every checkpoint from #${candidates[0]?.id} to #${candidates[candidates.length - 1]?.id} it could test`);
  const hi = candidates.findIndex((record) => record.id === breaks[0]?.bad);
  const lo = verdicts.findLastIndex((verdict, index) => index < hi && verdict === 'good');
  const skipped = new Set(verdicts.flatMap((verdict, index) => (verdict === 'skip' ? [index] : [])));
  return { lo, hi, skipped, breaks };
}

/**
 * The project's folders a test may reach by path: its root, and its git dirs where they
 * lie outside it (a worktree's); the store (and so the scratch folder) left out.
 */
function watchedDirs(engine: Engine, scratch: string): { dirs: WatchedDir[]; skip: string[] } {
  const root = engine.project.root;
  const inside = (dir: string, parent: string) => {
    const relative = path.relative(parent, dir);
    return !relative.startsWith('..') && !path.isAbsolute(relative);
  };
  const dirs: WatchedDir[] = [{ dir: root, label: '' }];
  const git = engine.project.git;
  const gitDirs = git ? [git.commonDir, ...(inside(git.gitDir, git.commonDir) ? [] : [git.gitDir])] : [];
  for (const dir of gitDirs) if (!inside(dir, root)) dirs.push({ dir, label: dir });
  return { dirs, skip: [engine.store.root, scratch] };
}

/**
 * `rewind bisect`: runs the user's test on checkpoints in a scratch folder made from the
 * shadow repo (never the project), to find the first checkpoint where it fails. Reads the
 * list and objects only: no lock is held while tests run. The project is looked at before
 * the first test and after each one: what a test changed there (writing by absolute path)
 * is told as it is seen and in the result. The folder is removed whatever happens (an
 * error, an abort); if this process dies first, the next command removes it.
 */
export async function bisectCheckpoints(engine: Engine, options: BisectOptions): Promise<BisectResult> {
  if (!engine.repo.exists()) throw new UserError('no checkpoints yet in this project: there is nothing to bisect');
  const range = bisectRange(engine.list(), options.good, options.bad);
  const candidates = testable(range);
  const scratch = makeScratch(engine);
  // Rewind leaving mid-test (the app's /quit): the folder goes too.
  const onExit = () => removeScratch(scratch);
  process.on('exit', onExit);
  try {
    const work = path.join(scratch, 'work');
    fs.mkdirSync(work);
    const prober = new Prober(new TreeFolder(engine.repo, work, path.join(scratch, 'index')), options, watchedDirs(engine, scratch));
    await prober.lookAtProject();
    const { lo, hi, skipped, breaks } = options.scan ? await scan(prober, candidates) : await search(prober, candidates);
    const firstBad = candidates[hi] as CheckpointRecord;
    const lastGood = candidates[lo] as CheckpointRecord;
    const maybe = candidates.filter((_, index) => index > lo && index < hi && skipped.has(index));
    const previous = range[range.indexOf(firstBad) - 1];
    return {
      mode: options.scan ? 'scan' : 'bisect',
      good: range[0] as CheckpointRecord,
      bad: range[range.length - 1] as CheckpointRecord,
      firstBad,
      lastGood,
      before: maybe.length === 0 && previous && !previous.unrestorable ? previous : lastGood,
      maybe,
      runs: prober.runs,
      steps: prober.steps,
      breaks,
      badOutput: prober.outputs.get(firstBad.id) ?? '',
      nested: [...new Set(range.flatMap((record) => record.nested))],
      projectChanges: prober.changes,
      notChecked: prober.notChecked,
    };
  } finally {
    process.off('exit', onExit);
    removeScratch(scratch);
  }
}
