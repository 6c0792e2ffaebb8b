// What `rewind show --json` and `rewind diff --json` print of a diff: its files and its patch.

/** One file a diff names: git's status letter (A added, M modified, D deleted, T type changed) and its path. */
export interface DiffFile {
  status: string;
  path: string;
}

/** The git formats a diff is read in for JSON: its files (`-z --name-status`) and its patch (never coloured). */
export const jsonFormats = { files: ['--no-color', '-z', '--name-status'], patch: ['--no-color', '-p'] } as const;

/** The files of `git diff-tree -z --name-status` output (`<status>\0<path>\0`, no renames). */
export function parseNameStatus(output: Buffer): DiffFile[] {
  const fields = output.toString('utf8').split('\0');
  const files: DiffFile[] = [];
  for (let at = 0; at + 1 < fields.length; at += 2) files.push({ status: fields[at] as string, path: fields[at + 1] as string });
  return files;
}
