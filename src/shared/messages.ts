/** DESIGN's words for a project without checkpoints: the CLI, the app and the picker all say this. */
export const noCheckpointsYet = 'no checkpoints yet — taken on session start, Enter and file changes';

/**
 * What a restore or redo says when something else wrote files while it ran: where those
 * writes are kept. `redone` is true when the restore's redo point moved there.
 */
export function writtenMeanwhileLine(kept: { checkpoint: number; paths: readonly string[] }, redone: boolean): string {
  const named = kept.paths.slice(0, 3).join(', ') + (kept.paths.length > 3 ? `, … (${kept.paths.length} in all)` : '');
  const back = redone ? '`rewind redo` brings them back' : `\`rewind restore ${kept.checkpoint}\` brings them back`;
  return `${kept.paths.length} file(s) were written by something else while the restore ran (${named}): what they held is checkpoint #${kept.checkpoint}; ${back}`;
}
