/**
 * A path as a gitignore pattern that matches exactly that path from the repository root.
 * A newline cannot be written in a pattern; it becomes `?` (any one character).
 */
export function literalPattern(repoPath: string): string {
  const escaped = repoPath
    .replace(/[\\*?[\]]/g, (c) => `\\${c}`)
    .replace(/\n/g, '?')
    .replace(/ +$/, (spaces) => spaces.replace(/ /g, '\\ '));
  return `/${escaped}`;
}
