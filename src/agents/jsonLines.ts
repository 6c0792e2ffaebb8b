// Agents' session files are JSON lines, appended to as the agent works: what a capture holds
// may end in a half-written line.

/** The complete lines of `bytes` (a half-written last line dropped), as text. */
export function completeLines(bytes: Buffer): string[] {
  const text = bytes.toString('utf8');
  return text.slice(0, text.lastIndexOf('\n') + 1).split('\n').slice(0, -1);
}

/** Each line as a JSON object (a blank one as {}); a line that is not one throws `unreadable(its number)`. */
export function objectLines<T extends object>(raw: readonly string[], unreadable: (line: number) => Error): T[] {
  return raw.map((line, index) => {
    if (line.trim() === '') return {} as T;
    try {
      const parsed = JSON.parse(line) as unknown;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
      return parsed as T;
    } catch {
      throw unreadable(index + 1);
    }
  });
}
