// The files an apply_patch call touches, read from the patch text Codex passes in
// tool_input.command (its own format: `*** Begin Patch`, one `*** Add File: <path>`,
// `*** Update File: <path>` (maybe followed by `*** Move to: <path>`) or `*** Delete File:
// <path>` line per file, `*** End Patch`). Only for the checkpoint's label: a line that is
// not one of those is skipped, and a patch with none gives no files.

/** A file header line; content lines start with `+`, `-` or a space, so they never match. */
const fileLine = /^\*\*\* (?:(?:Add|Update|Delete) File|Move to): (.+)$/;

/** The paths the patch names, in order, each once (a move names its source and its destination). */
export function patchFiles(patch: string): string[] {
  const files: string[] = [];
  for (const line of patch.split('\n')) {
    const path = fileLine.exec(line.trimEnd())?.[1]?.trim();
    if (path && !files.includes(path)) files.push(path);
  }
  return files;
}
