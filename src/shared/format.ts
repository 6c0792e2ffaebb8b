/** `2.1 MB`, `340 KB`, `12 B`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value >= 10 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}

/** `just now`, `42s ago`, `5m ago`, `3h ago`, `2d ago`. */
export function formatAge(sinceMs: number): string {
  const seconds = Math.max(0, Math.round(sinceMs / 1000));
  if (seconds < 5) return 'just now';
  if (seconds < 60) return `${seconds}s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h ago`;
  return `${Math.floor(seconds / 86_400)}d ago`;
}

/**
 * One line of plain text from anything a user or an agent wrote: tabs and line breaks become
 * spaces, other control characters (including Esc, so no escape sequence survives) are dropped.
 */
export function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex -- dropping control characters is the point
  return text.replace(/\r\n|[\r\n\t]/g, ' ').replace(/[\x00-\x1f\x7f-\x9f]/g, '');
}

/** The first line of `text` that is not blank, trimmed (a program's answer to `--version`, say). */
export function firstTextLine(text: string): string | undefined {
  return text
    .split('\n')
    .find((line) => line.trim() !== '')
    ?.trim();
}
