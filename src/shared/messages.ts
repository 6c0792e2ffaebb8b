/** DESIGN's words for a project without checkpoints: the CLI, the app and the picker all say this. */
export const noCheckpointsYet = 'no checkpoints yet — taken on session start, Enter and file changes';

/** How the written-meanwhile line is said: by which command, of what, and how its writes come back. */
export interface WrittenMeanwhileWords {
  /** True when the restore's redo point moved to the checkpoint of those writes. */
  redoMovedThere: boolean;
  /** What ran: 'the restore' or 'the undo'. */
  during: string;
  /** How the user undoes a restore where they are ('`rewind redo`', '/redo'). */
  redoCommand: string;
}

/** The indent of a file's own text in a revert plan (a conflict's hunks): the picker cuts such a line at its edge as a diff's, never wraps it. */
export const fileTextIndent = ' '.repeat(6);

/** What a restore, redo or revert did to the files: how many changed (as the plan and the picker's rows count them), then how: `3 file(s) changed (2 written, 1 deleted)`. */
export function filesChanged(result: { changed: readonly string[]; deleted: readonly string[] }): string {
  return `${result.changed.length + result.deleted.length} file(s) changed (${result.changed.length} written, ${result.deleted.length} deleted)`;
}

/** The first three of `paths`, and how many in all when there are more: `a, b, c, … (7 in all)`. */
export function fewPaths(paths: readonly string[]): string {
  return paths.slice(0, 3).join(', ') + (paths.length > 3 ? `, … (${paths.length} in all)` : '');
}

/** What a restore or redo says when something else wrote files while it ran: where those writes are kept. */
export function writtenMeanwhileLine(kept: { checkpoint: number; paths: readonly string[] }, words: WrittenMeanwhileWords): string {
  const named = fewPaths(kept.paths);
  const back = words.redoMovedThere ? `${words.redoCommand} brings them back` : `\`rewind restore ${kept.checkpoint}\` brings them back`;
  return `${kept.paths.length} file(s) were written by something else while ${words.during} ran (${named}): what they held is checkpoint #${kept.checkpoint}; ${back}`;
}

/** What a restore or redo says of files it could not check for writes made meanwhile. */
export function uncheckedLine(unchecked: { dir: string; paths: readonly string[] }): string {
  return `${unchecked.paths.length} file(s) it replaced could not be read to check for writes made meanwhile (${unchecked.paths.slice(0, 3).join(', ')}${unchecked.paths.length > 3 ? ', …' : ''}): they are kept as they were in ${unchecked.dir}`;
}
