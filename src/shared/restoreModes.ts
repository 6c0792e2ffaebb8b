/** What a restore puts back: the conversation and the files, the files only, or the conversation only. */
export type RestoreMode = 'both' | 'files' | 'conversation';

/** Whether a restore mode can be chosen, and why not. */
export interface ModeState {
  enabled: boolean;
  /** Why it is disabled, shown beside it. */
  reason?: string;
}
