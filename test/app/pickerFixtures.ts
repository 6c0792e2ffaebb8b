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

/**
 * The demo's tasks 1 and 2 as the picker gets them (runtime/sessionSteps.ts from the records
 * `rewind demo` writes): the session start, two turns and their tool steps.
 */
export function demoSteps(): PickerCheckpoint[] {
  const session = '2026-12-02-2f8890';
  const step = (id: number, minute: number, over: Partial<PickerCheckpoint>): PickerCheckpoint => ({ id, time: timeAt(minute), label: '', trigger: 'PreToolUse:Edit', session, kind: 'tool', files: 1, ...over });
  return [
    step(1, 0, { label: 'session start', trigger: 'start', kind: 'start', files: 0, paths: [] }),
    step(2, 1, { label: '1', trigger: 'UserPromptSubmit', kind: 'turn', steps: 2, files: 2, paths: ['server.js', 'server.config.json'] }),
    step(3, 1, { label: 'Edit server.js', turn: 2, paths: ['server.js'] }),
    step(4, 1, { label: 'Write server.config.json', trigger: 'PreToolUse:Write', turn: 2, paths: ['server.config.json'] }),
    step(6, 2, { label: '2', trigger: 'UserPromptSubmit', kind: 'turn', steps: 2, files: 3, paths: ['tests/config.test.js', 'tests/server.test.js', 'package.json'] }),
    step(7, 2, { label: 'Bash rm -rf tests', trigger: 'PreToolUse:Bash', turn: 6, files: 2, paths: ['tests/config.test.js', 'tests/server.test.js'] }),
    step(8, 2, { label: 'Edit package.json', turn: 6, paths: ['package.json'] }),
  ];
}
