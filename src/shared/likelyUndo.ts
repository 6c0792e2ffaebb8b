/**
 * The step most likely to be undone: the last one that changed files, else the newest. Steps
 * are oldest first and a turn's own steps come after it, so a turn is reached only when none
 * of its steps changed a file: then its own part did (the files changed between its prompt
 * and its first tool step), and the turn is the one to undo.
 */
export function likelyUndo<Step extends { files: number | null }>(steps: readonly Step[]): Step | undefined {
  return steps.findLast((step) => (step.files ?? 0) > 0) ?? steps.at(-1);
}
