import type { ModeState, PickerCheckpoint, PickerPreview, RestoreMode } from '../../src/app/picker/types.js';

/** Local time 2026-01-15 14:30:23 plus `minutes`, as ISO (so rows read the same in any TZ). */
export function timeAt(minutes: number): string {
  return new Date(2026, 0, 15, 14, 30 + minutes, 23).toISOString();
}

/** `n` checkpoints, ids 1..n, a minute apart, labelled `step 1`..`step n`, one session. */
export function checkpoints(n: number, patch: (i: number) => Partial<PickerCheckpoint> = () => ({})): PickerCheckpoint[] {
  return Array.from({ length: n }, (_, k) => {
    const id = k + 1;
    return { id, time: timeAt(k), label: `step ${id}`, trigger: 'PreToolUse:Edit', session: 'sess-current-0001', files: 1, ...patch(id) };
  });
}

export const allModes = (): Record<RestoreMode, ModeState> => ({
  both: { enabled: true },
  files: { enabled: true },
  conversation: { enabled: true },
});

export const noConversation = (): Record<RestoreMode, ModeState> => ({
  both: { enabled: false, reason: 'no conversation stored' },
  files: { enabled: true },
  conversation: { enabled: false, reason: 'no conversation stored' },
});

export const emptyPreview: PickerPreview = { files: [], skipped: [], unsaved: [] };

/** A restore that changes one file: what most rows' previews say. */
export const onePreview: PickerPreview = { files: [{ path: 'a.txt', status: 'M', added: 1, removed: 0 }], skipped: [], unsaved: [] };
