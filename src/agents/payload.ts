// Reading hook payloads: agents' JSON, taken as untrusted (any field may be missing, of
// another type, or the whole payload garbage).
import path from 'node:path';
import { oneLine } from '../shared/format.js';
import { parseHead } from './payloadHead.js';

/**
 * The payload as JSON, or undefined when it is not (empty, truncated, garbage). `cut`: these
 * bytes are only its head (it was longer than the hook keeps, or it never ended): what is
 * whole in them is read (payloadHead.ts).
 */
export function parsePayload(bytes: Buffer, cut = false): unknown {
  // Cut, its end is where the cut fell: white space there may be inside a string.
  const text = cut ? bytes.toString('utf8').trimStart() : bytes.toString('utf8').trim();
  if (text === '') return undefined;
  if (cut) return parseHead(text);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A field of an object payload as a string, if it is one. */
export function field(payload: unknown, ...names: string[]): string | undefined {
  let value: unknown = payload;
  for (const name of names) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[name];
  }
  return typeof value === 'string' ? value : undefined;
}

/** One line of at most `max` characters (an ellipsis marks a cut). */
export function shortLine(text: string, max = 80): string {
  const line = oneLine(text).trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** A file path as the label shows it: relative to the folder the agent works in, when inside it. */
export function shownPath(file: string, cwd: string | undefined): string {
  if (!cwd || !path.isAbsolute(file)) return file;
  const relative = path.relative(cwd, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}
