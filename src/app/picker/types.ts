import type { ModeState, RestoreMode } from '../../shared/restoreModes.js';
import type { KeyEvent } from '../../pty/keys.js';
import type { ConversationRestored } from '../../shared/conversation.js';

/** A row's step: a prompt's whole turn, a tool call, edits outside any step, the session's start, another mark. */
export type PickerStepKind = 'turn' | 'tool' | 'outside' | 'start' | 'mark';

/**
 * One step of the session as the picker shows it (built by the session from the checkpoint
 * list, runtime/sessionSteps.ts): choosing it restores `id`, the checkpoint taken just
 * before the step, so it undoes the step and everything after it.
 */
export interface PickerCheckpoint {
  id: number;
  /** ISO 8601. */
  time: string;
  /** What the step was (a turn: its prompt). */
  label: string;
  trigger: string;
  /** Rows of one session are grouped; a change of session is shown as a separator. */
  session: string | null;
  /** Brought in by `rewind import` (from the project of that folder name): its session's separator says so. */
  importedFrom?: string;
  /** Default `tool` (a step of its own). */
  kind?: PickerStepKind;
  /** A step of a turn: the turn's checkpoint id (folded under it). */
  turn?: number;
  /** A turn: how many steps it has. */
  steps?: number;
  /** Files its step changed (a turn: its whole turn), from its checkpoint to the next
   * step's (to now for the newest); null while unknown or not computable. */
  files: number | null;
  /** `files` is a lower bound (a step's change named only its first paths). */
  more?: boolean;
  /** Paths its step edited, when known: typing filters rows by label or by these. */
  paths?: readonly string[];
  /** Its files can no longer be restored (objects pruned by the project's own gc). */
  unrestorable?: boolean;
  /** Why, in the engine's words (whyUnrestorable), when it is. */
  unrestorableReason?: string;
}

/** What restoring the selected checkpoint would do, loaded lazily for the selected row. */
export interface PickerPreview {
  files: { path: string; status: 'A' | 'M' | 'D' | 'T'; added: number | null; removed: number | null }[];
  /** Files the checkpoint left out (too big, heavy): a restore leaves them alone. */
  skipped: { path: string; bytes: number; reason: string }[];
  /** Files edited after the newest checkpoint that this restore would overwrite (kept in
   * the redo point). */
  unsaved: string[];
  /** Set when the preview could not be computed (e.g. no longer restorable). */
  error?: string;
}

export type { ModeState, RestoreMode } from '../../shared/restoreModes.js';

/** What `u` shows for a step: reverting it (taking back that step alone, keeping what came after). */
export interface PickerRevertPlan {
  /** The plan as `rewind revert --dry-run` prints it. */
  lines: string[];
  /** Conflicted files: with any, `k` or `m` chooses what they get. */
  conflicts: number;
  /** Set when the step cannot be reverted (it changed nothing, git is too old…). */
  error?: string;
}

/** `only`: the files picked (Tab), for a files-only restore of those alone. */
export type PickerChoice = { kind: 'restore'; id: number; mode: RestoreMode; only?: string[] } | { kind: 'undo' } | { kind: 'revert'; id: number; conflicts?: 'keep' | 'markers' };

/** Key events (from src/pty/keys.ts) delivered to the picker while it is open. */
export interface KeySource {
  subscribe(listener: (event: KeyEvent) => void): () => void;
}

export interface PickerProps {
  /** Oldest first; the newest is at the bottom and selected when the picker opens. */
  checkpoints: readonly PickerCheckpoint[];
  width: number;
  height: number;
  keys: KeySource;
  loadPreview(id: number): Promise<PickerPreview>;
  /** Which restore modes this checkpoint allows, and why not. */
  modes(id: number): Record<RestoreMode, ModeState>;
  /** A restore can be undone: an "undo last rewind" row is shown at the top. */
  canUndo: boolean;
  /** What that row does (which rewind it undoes, the files it changes): read when it is selected. */
  loadUndo?(): Promise<readonly string[]>;
  /** The checkpoint that undo goes back to (the one the rewind took first): when its step,
   * the rewind's own, is the one most likely to be undone, the picker opens on the undo row. */
  undoPoint?: number;
  /** The agent is working: restoring stops it first (the picker says so). */
  agentBusy: boolean;
  /** A warning shown across the top (e.g. checkpointing is off). */
  banner?: string;
  /** The diff of checkpoint `id`'s own step, as lines (`d` shows it); absent: no `d`. */
  loadStepDiff?(id: number): Promise<string[]>;
  /** The files this session's own steps changed since checkpoint `id` and no one else did
   * (`s` in the file picking ticks those); absent: no `s`. */
  loadSessionFiles?(id: number): Promise<readonly string[]>;
  /** What reverting checkpoint `id`'s step would do (`u` shows it); absent: no `u`. */
  loadRevertPlan?(id: number): Promise<PickerRevertPlan>;
  /** The checkpoint selected when the picker opens (default: the newest). */
  selectId?: number;
  /** The conversation restores made so far: the mode screen counts the turns a cut drops from the conversation as they left it. */
  conversationRestores?: readonly ConversationRestored[];
  onChoose(choice: PickerChoice): void;
  onClose(): void;
}

/** The picker's data and callbacks, as the runtime hands them over (the view adds its size and keys). */
export type PickerModel = Omit<PickerProps, 'width' | 'height' | 'keys'>;
