// What spanChanges read before, kept in the store (spans.json): the diff of two trees never
// changes (a tree is named by its content), so a list shown again (`rewind list`, the picker)
// starts no git for the steps it already counted. The file holds the pairs last asked for,
// no more; one that cannot be read is no cache (git is asked again), and one that cannot be
// written (a store this user may only read) is no error.
import fs from 'node:fs';
import { writeFileAtomic } from '../../shared/atomicFile.js';

/** What changed between two trees: the paths (in git's order) and how many of each kind. */
export interface SpanChange {
  paths: string[];
  changes: { added: number; modified: number; deleted: number };
}

const kinds = ['added', 'modified', 'deleted'] as const;

function isSpan(value: unknown): value is SpanChange {
  if (typeof value !== 'object' || value === null) return false;
  const { paths, changes } = value as Partial<SpanChange>;
  if (!Array.isArray(paths) || !paths.every((entry) => typeof entry === 'string')) return false;
  return typeof changes === 'object' && changes !== null && kinds.every((kind) => Number.isInteger(changes[kind]));
}

/** The key of a pair of trees. */
export function spanKey([from, to]: readonly [string, string]): string {
  return `${from} ${to}`;
}

/** The spans kept in `file`, by spanKey (empty when there is none, or it is not what this writes). */
export function readSpanCache(file: string): Map<string, SpanChange> {
  const spans = new Map<string, SpanChange>();
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
    for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
      if (!/^[0-9a-f]+ [0-9a-f]+$/.test(key) || !isSpan(value)) return new Map();
      spans.set(key, value);
    }
  } catch {
    return new Map();
  }
  return spans;
}

/** Keeps `spans` in `file`, in place of what it held. */
export function writeSpanCache(file: string, spans: ReadonlyMap<string, SpanChange>): void {
  try {
    writeFileAtomic(file, JSON.stringify(Object.fromEntries(spans)), 0o600, false);
  } catch {
    // Read-only, gone, full: the next list asks git again.
  }
}
