// Agents' session files are JSON lines, appended to as the agent works: what a capture holds
// may end in a half-written line (shared/transcriptLines.ts leaves it out).

/** Line `index` (from 0) as a JSON object (a blank one as {}); one that is not throws `unreadable(its number)`. */
export function objectLine<T extends object>(line: string, index: number, unreadable: (line: number) => Error): T {
  if (line.trim() === '') return {} as T;
  try {
    const parsed = JSON.parse(line) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
    return parsed as T;
  } catch {
    throw unreadable(index + 1);
  }
}
