// The session's story as steps: the one model the picker, `rewind list` and `rewind show`
// speak in. A checkpoint is taken BEFORE a step, so the step of checkpoint N is what changed
// from N to the next checkpoint (record N+1 says so), or to the files now for the newest.
import type { CheckpointRecord } from '../../checkpoints/index.js';
import { TURN_END_TRIGGER } from '../../agents/hookSteps.js';
import { REVERT_TRIGGER, REWOUND_TRIGGER } from '../../shared/triggers.js';

/**
 * What a step is: a prompt and its whole turn, a tool call the agent's hook announced, edits
 * made outside any step (the user's, a build, an agent without hooks), the session's start,
 * or a mark of another kind (`/checkpoint`, `rewind snapshot`, the point a restore left).
 */
export type StepKind = 'turn' | 'tool' | 'outside' | 'start' | 'mark';

/** The record fields the model reads. */
export type StepRecord = Pick<CheckpointRecord, 'id' | 'time' | 'session' | 'trigger' | 'label' | 'changedSincePrevious' | 'changedPaths' | 'changes' | 'imported'>;

/** What changed in the work tree since the newest checkpoint: the newest step's end. */
export interface StepNow {
  changedSinceNewest: number | null;
  changedPathsSinceNewest: readonly string[];
}

export interface SessionStep {
  /** The checkpoint taken just before the step: choosing the step restores it. */
  id: number;
  kind: StepKind;
  /** What the row says the step was. */
  title: string;
  time: string;
  session: string | null;
  trigger: string;
  /** Files the step changed (a turn: its whole turn); null while unknown. */
  files: number | null;
  /** `files` is a lower bound: a change recorded no more than its first paths. */
  more: boolean;
  /** The paths it changed, as far as the records name them. */
  paths: string[];
  /** The checkpoint its step ends at; null: the files as they are now. */
  to: number | null;
  /** A step of a turn: the turn's id. */
  turn?: number;
  /** A turn: its steps' ids, in order. */
  steps?: number[];
  /** Checkpoints inside this step (no row of their own): where a burst of its writes settled, where its turn ended. */
  folded: number[];
  /** The step spans more than one checkpoint's change: its counts are a union until a diff makes them exact (stepCounts.ts). */
  spans?: boolean;
}

/** The prompt events of the agents' hooks (Claude Code, Codex and the demo; Gemini CLI). */
const PROMPT_EVENTS = new Set(['UserPromptSubmit', 'BeforeAgent']);

type Kind = 'prompt' | 'tool' | 'watch' | 'end' | 'start' | 'mark';

/** A hook's tool step is triggered `<event>:<tool>`; `hook:<event>` is a hook the adapter could not read. */
function kindOf(trigger: string): Kind {
  if (PROMPT_EVENTS.has(trigger) || trigger === 'enter') return 'prompt';
  if (trigger === 'start') return 'start';
  // The files as a rewind left them: where its step ends when nothing changed after, else
  // the start of the edits made after it (as a watch checkpoint's).
  if (trigger === 'watch' || trigger === REVERT_TRIGGER || trigger === REWOUND_TRIGGER) return 'watch';
  if (trigger === TURN_END_TRIGGER) return 'end';
  if (/^[^:]+:./.test(trigger) && !trigger.startsWith('hook:')) return 'tool';
  return 'mark';
}

interface Interval {
  files: number | null;
  paths: readonly string[];
  changes?: CheckpointRecord['changes'];
  to: number | null;
}

/** The step of record `index`: up to the next record, or to now for the newest. */
function intervalOf(records: readonly StepRecord[], index: number, now: StepNow | undefined): Interval {
  const next = records[index + 1];
  if (next) return { files: next.changedSincePrevious, paths: next.changedPaths ?? [], changes: next.changes, to: next.id };
  return { files: now ? now.changedSinceNewest : null, paths: now?.changedPathsSinceNewest ?? [], to: null };
}

const kinds = [
  { key: 'deleted', word: 'deleted' },
  { key: 'added', word: 'added' },
  { key: 'modified', word: 'edited' },
] as const;

/** `2 edited, 1 added: a.ts, b.ts, …`: a change by kind, biggest first, and its first names. */
export function describeChange(change: Pick<Interval, 'files' | 'paths' | 'changes'>): string {
  const shown = change.paths.slice(0, 3);
  const names = shown.length > 0 ? `: ${shown.join(', ')}${(change.files ?? 0) > shown.length ? ', …' : ''}` : '';
  const { changes } = change;
  const present = changes ? kinds.filter((kind) => changes[kind.key] > 0).sort((a, b) => changes[b.key] - changes[a.key]) : [];
  const counts = changes && present.length > 0 ? present.map((kind) => `${changes[kind.key]} ${kind.word}`).join(', ') : `${change.files ?? '?'} file(s)`;
  return `${counts}${names}`;
}

export const OUTSIDE_TITLE = 'edits outside any step';

/**
 * For each record: whether its turn's end is recorded after it (an `end` checkpoint of the
 * same session before the next prompt or session start). Inside such a turn every write is
 * the agent's.
 */
function endsLater(records: readonly StepRecord[]): boolean[] {
  const ahead: boolean[] = new Array<boolean>(records.length).fill(false);
  let seen = false;
  let session: string | null | undefined;
  for (let i = records.length - 1; i >= 0; i -= 1) {
    const record = records[i] as StepRecord;
    if (record.session !== session) {
      seen = false;
      session = record.session;
    }
    ahead[i] = seen;
    const kind = kindOf(record.trigger);
    if (kind === 'end') seen = true;
    else if (kind === 'prompt' || kind === 'start') seen = false;
  }
  return ahead;
}

/**
 * The session's steps from its checkpoint records (oldest first) and, for the newest, what
 * changed since it (`now`). Pure.
 *
 * Each checkpoint is the start of a step; its label and counts are that step's. A prompt
 * starts a turn: the tool steps after it (up to its end, the next prompt, session start or
 * session) are its steps, and it counts the files its whole turn changed. A hooked agent
 * marks each turn's end with an `end` checkpoint: a `watch` checkpoint (taken once a burst of
 * writes settled) inside a turn whose end is recorded is the agent's, folded into the step it
 * is part of. An `end` or `watch` checkpoint after which nothing changed only marks where the
 * step before it ended: folded too, as is an Enter checkpoint right before its agent's prompt
 * hook. One after which files did change starts a step of edits made outside any step (the
 * user's, a build, an agent without hooks), a row of its own, never a turn's.
 */
export function sessionSteps(records: readonly StepRecord[], now?: StepNow): SessionStep[] {
  const steps: SessionStep[] = [];
  const insideTurn = endsLater(records);
  let owner: SessionStep | undefined;
  let turn: SessionStep | undefined;
  // Each step's title as another step names it (a restore's redo point names what it went back to).
  const named = new Map<number, string>();
  const byId = new Map(records.map((record) => [record.id, record]));
  records.forEach((record, index) => {
    const kind = kindOf(record.trigger);
    const interval = intervalOf(records, index, now);
    const next = records[index + 1];
    const sameSession = owner !== undefined && owner.session === record.session;
    // The newest before the files now are known: a watch there most likely marks the end of its step's writes.
    const quiet = interval.files === 0 || (interval.to === null && now === undefined);
    const enterBeforePrompt = record.trigger === 'enter' && quiet && next !== undefined && next.session === record.session && PROMPT_EVENTS.has(next.trigger);
    // The watcher's own (a rewind's result is no write of the agent's, whatever turn it falls in).
    const agentsWrites = record.trigger === 'watch' && insideTurn[index] === true && turn !== undefined && turn.session === record.session;
    // A revert's result, after which nothing changed, is where the revert (its redo point's row) ended;
    // followed by writes that raced the revert, it is in the redo point's row too (as a restore's has none).
    const revertDone = record.trigger === REVERT_TRIGGER && (quiet || rewindLabel(next, byId)?.what === 'raced revert');
    if (sameSession && owner && (((kind === 'watch' || kind === 'end') && quiet) || enterBeforePrompt || agentsWrites || revertDone)) {
      owner.folded.push(record.id);
      owner.to = interval.to;
      if (!quiet) mergeInto(owner, interval);
      if (kind === 'end') turn = undefined;
      return;
    }
    if (turn && (turn.session !== record.session || kind === 'prompt' || kind === 'start' || kind === 'end')) turn = undefined;
    const step: SessionStep = {
      id: record.id,
      kind: kind === 'prompt' ? 'turn' : kind === 'watch' || kind === 'end' ? 'outside' : kind,
      title: titleOf(record, kind, interval, named, records.slice(index + 1, index + 3), byId),
      time: record.time,
      session: record.session,
      trigger: record.trigger,
      files: interval.files,
      more: interval.files !== null && interval.files > interval.paths.length,
      paths: [...interval.paths],
      to: interval.to,
      folded: [],
    };
    if (kind === 'prompt') {
      step.steps = [];
      turn = step;
    } else if (turn && kind !== 'start') {
      step.turn = turn.id;
      turn.steps?.push(step.id);
    }
    steps.push(step);
    named.set(step.id, step.kind === 'turn' ? `prompt "${step.title}"` : step.kind === 'start' ? record.label.trim() || record.trigger : step.title);
    owner = step;
  });
  return liftTrailingEdits(steps).map((step) => (step.kind === 'turn' ? withTurnCounts(step, steps) : step));
}

/** A later change folded into `step` (the agent's writes that settled in two bursts): counted as a union until diffed. */
function mergeInto(step: SessionStep, interval: Interval): void {
  const paths = new Set([...step.paths, ...interval.paths]);
  const unknown = step.files === null || interval.files === null;
  const biggest = Math.max(step.files ?? 0, interval.files ?? 0);
  step.more = step.more || (interval.files ?? 0) > interval.paths.length || paths.size < biggest;
  step.files = unknown ? null : Math.max(paths.size, biggest);
  step.paths = [...paths];
  step.spans = true;
}

function titleOf(record: StepRecord, kind: Kind, interval: Interval, named: ReadonlyMap<number, string>, after: readonly StepRecord[], byId: ReadonlyMap<number, StepRecord>): string {
  const label = record.label.trim() || record.trigger;
  if (kind === 'watch' || kind === 'end') return `${OUTSIDE_TITLE}: ${describeChange(interval)}`;
  if (kind === 'start' && (interval.files ?? 0) > 0) return `${label}, then ${OUTSIDE_TITLE}: ${describeChange(interval)}`;
  return (kind === 'mark' && rewindTitle(record, named, after, byId)) || label;
}

/** The labels the engine gives the checkpoints a rewind takes (restore/, tools/revert.ts): what was done, to which checkpoint, and whether to chosen files only (chosenFilesMark). */
const REWIND_LABEL = /^(?:before (restoring|reverting|redo \(back to|finishing the restore of) #(\d+)\)?( \(chosen files\))?|written (while restoring|during the undo \(back to) #(\d+)\)?( \(chosen files\))?: (.*))$/s;

export interface RewindLabel {
  what: 'restoring' | 'reverting' | 'redo' | 'finishing' | 'raced' | 'raced undo' | 'raced revert';
  id: number;
  /** Of the writes that raced it: their names, as the label lists them. */
  paths?: string;
  /** A restore of chosen files only (`--only`, the picker's Tab), not of every file. */
  chosen?: boolean;
}

/** Whether a step's title is a rewind's own (`rewind to just before …`, `revert of …`). */
export function isRewindTitle(title: string | undefined): boolean {
  return title !== undefined && /^(rewind (of chosen files )?to|revert of) /.test(title);
}

/**
 * What rewind the checkpoint a restore, a revert or an undo took first was taken for, and to
 * which checkpoint (undefined for any other); `records` tells writes that raced a revert
 * (whose label names the revert's result) from those that raced a restore.
 */
export function rewindOf(record: StepRecord | undefined, records: readonly StepRecord[]): RewindLabel | undefined {
  return rewindLabel(record, new Map(records.map((each) => [each.id, each])));
}

/** The label of the writes that raced each kind of rewind. */
const racedOf: Partial<Record<RewindLabel['what'], RewindLabel['what']>> = { restoring: 'raced', redo: 'raced undo', reverting: 'raced revert' };

/** A revert's result checkpoint: `after reverting #N`, N the checkpoint whose step it took back. */
const REVERT_RESULT = /^after reverting #(\d+)$/;

function rewindLabel(record: StepRecord | undefined, byId: ReadonlyMap<number, StepRecord>): RewindLabel | undefined {
  if (!record || (record.trigger !== 'restore' && record.trigger !== 'redo') || record.imported) return undefined;
  const match = REWIND_LABEL.exec(record.label.trim());
  if (!match) return undefined;
  if (match[1] !== undefined) {
    const what = match[1] === 'restoring' ? 'restoring' : match[1] === 'reverting' ? 'reverting' : match[1].startsWith('redo') ? 'redo' : 'finishing';
    return { what, id: Number(match[2]), ...(match[3] !== undefined ? { chosen: true } : {}) };
  }
  const id = Number(match[5]);
  if (match[4] !== 'while restoring') return { what: 'raced undo', id, paths: match[7] };
  const chosen = match[6] !== undefined ? { chosen: true } : {};
  // A revert restores its result: the writes that raced it name that checkpoint.
  const result = byId.get(id);
  const reverted = result?.trigger === REVERT_TRIGGER ? REVERT_RESULT.exec(result.label.trim()) : null;
  return reverted ? { what: 'raced revert', id: Number(reverted[1]), paths: match[7] } : { what: 'raced', id, paths: match[7], ...chosen };
}

/**
 * The checkpoint a restore, a revert or an undo takes first is the start of the step that
 * rewind made (its files as the rewind left them): the row says which rewind, naming the
 * step it went back to as that step's row does (`rewind to just before prompt "fix it"`),
 * not the checkpoint id the label records (rows show none). Writes that raced a rewind are
 * a checkpoint on top of that one (the rewind's step starts there, the one before is those
 * writes). Null for any other label, and for an imported checkpoint (its label names ids of
 * the project it came from).
 */
function rewindTitle(record: StepRecord, named: ReadonlyMap<number, string>, [next, afterNext]: readonly StepRecord[], byId: ReadonlyMap<number, StepRecord>): string | null {
  const label = rewindLabel(record, byId);
  if (!label) return null;
  const step = (id: number) => named.get(id);
  const rewindTo = (id: number) => `rewind ${label.chosen ? 'of chosen files ' : ''}to ${step(id) ? `just before ${step(id)}` : `#${id}`}`;
  const undoOf = (id: number) => (isRewindTitle(step(id)) ? `undo of the ${step(id)}` : `undo of a rewind (back to #${id})`);
  const done = (what: RewindLabel['what'], id: number) => (what === 'reverting' || what === 'raced revert' ? `revert of ${step(id) ?? `#${id}`}` : what === 'redo' || what === 'raced undo' ? undoOf(id) : rewindTo(id));
  // A revert's writes that raced it come after its result.
  const raced = rewindLabel(label.what === 'reverting' && next?.trigger === REVERT_TRIGGER ? afterNext : next, byId);
  if (raced && raced.what === racedOf[label.what] && raced.id === label.id) {
    return `written during the ${done(label.what, label.id)}: ${raced.paths ?? ''}`;
  }
  if (label.what === 'finishing') {
    // A cut-off undo is finished by restoring the redo point, whose row names the rewind it undoes.
    return isRewindTitle(step(label.id)) ? `finishing the undo of the ${step(label.id)}` : `finishing the ${rewindTo(label.id)}`;
  }
  return done(label.what, label.id);
}

/**
 * Edits outside any step after a turn's last tool step (and marks after it) are not the
 * turn's: they leave it, in place (the rows stay in time order).
 */
function liftTrailingEdits(steps: SessionStep[]): SessionStep[] {
  const byId = new Map(steps.map((step) => [step.id, step]));
  for (const turn of steps) {
    const own = turn.steps;
    if (!own) continue;
    while (own.length > 0) {
      const last = byId.get(own.at(-1) as number);
      if (!last || last.kind === 'tool') break;
      delete last.turn;
      own.pop();
    }
  }
  return steps;
}

/** A turn counts the files of its own step and of each of its steps, and ends where its last one does. */
function withTurnCounts(turn: SessionStep, steps: readonly SessionStep[]): SessionStep {
  const own = new Set(turn.steps);
  const parts = [turn, ...steps.filter((step) => own.has(step.id))];
  const paths = new Set(parts.flatMap((part) => part.paths));
  const unknown = parts.some((part) => part.files === null);
  const more = parts.some((part) => part.more);
  const biggest = Math.max(0, ...parts.map((part) => part.files ?? 0));
  return {
    ...turn,
    files: unknown ? null : Math.max(paths.size, biggest),
    more: more || (paths.size < biggest),
    paths: [...paths],
    to: (parts.at(-1) as SessionStep).to,
    ...(parts.length > 1 || turn.spans ? { spans: true } : {}),
  };
}

/** One part of a step as a diff shows it: from checkpoint `id`, through the later checkpoints folded into it. */
export interface StepPart {
  id: number;
  /** The last checkpoint folded into this part (its step ends at the one after): `id` if none. */
  through: number;
}

/**
 * The parts that make up step `id`: a turn's own and each of its steps', in order, each
 * taking in the checkpoints folded into it. What `rewind show` and the picker's `d` show
 * for it, one diff after the other.
 */
export function partsOf(steps: readonly SessionStep[], id: number): StepPart[] {
  const byId = new Map(steps.map((step) => [step.id, step]));
  const step = byId.get(id);
  const part = (of: number): StepPart => ({ id: of, through: Math.max(of, ...(byId.get(of)?.folded ?? [])) });
  return step ? [step.id, ...(step.steps ?? [])].map(part) : [{ id, through: id }];
}
