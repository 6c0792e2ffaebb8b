import type { ModeState, PickerCheckpoint, RestoreMode } from './types.js';

/** One line of the mode menu. */
export interface ModeOption {
  mode: RestoreMode;
  /** The letter that picks it directly. */
  key: 'b' | 'f' | 'c';
  label: string;
  enabled: boolean;
  reason?: string;
}

const MODES: readonly { mode: RestoreMode; key: 'b' | 'f' | 'c'; label: string }[] = [
  { mode: 'both', key: 'b', label: 'restore conversation and files' },
  { mode: 'files', key: 'f', label: 'restore files only' },
  { mode: 'conversation', key: 'c', label: 'restore conversation only' },
];

export const NOTHING_TO_CHANGE = 'nothing to change: the files already match it';
export const FILES_MATCH = 'the files already match it: c restores the conversation alone';

/**
 * The three modes for `checkpoint`, in menu order, each enabled or not with the reason from
 * `modes` (what the agent allows). A checkpoint whose files cannot be restored
 * (`unrestorable`, with the engine's reason) cannot restore files whatever `modes` says; nor
 * can one whose files already match (`unchanged`: a restore there would change nothing and
 * leave a redo point for nothing). A mode is never silently missing, only shown disabled.
 */
export function modeOptions(checkpoint: PickerCheckpoint, modes: Record<RestoreMode, ModeState>, unchanged = false): ModeOption[] {
  const unrestorable = checkpoint.unrestorable === true ? (checkpoint.unrestorableReason ?? 'its files are no longer restorable') : undefined;
  return MODES.map(({ mode, key, label }) => {
    const state = modes[mode];
    if (unrestorable !== undefined && mode !== 'conversation' && state.enabled) {
      return { mode, key, label, enabled: false, reason: unrestorable };
    }
    if (unchanged && mode !== 'conversation' && state.enabled) {
      return { mode, key, label, enabled: false, reason: mode === 'files' ? NOTHING_TO_CHANGE : FILES_MATCH };
    }
    return { mode, key, label, enabled: state.enabled, ...(state.enabled ? {} : { reason: state.reason ?? 'this checkpoint does not allow it' }) };
  });
}
