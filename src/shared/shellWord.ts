/** Quotes a word for a POSIX shell command (one the user may paste, or a script's), only when needed. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
