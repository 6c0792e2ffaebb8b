/**
 * Reads a git index file (versions 2, 3 and 4, SHA-1) without running git: the first
 * snapshot of a big repository needs every entry's mode, size, stage and the
 * assume-unchanged / skip-worktree marks (and the paths and blobs of a few), and one
 * `ls-files` plus one `ls-tree` cost more than the whole parse. Anything unusual (a split
 * index, a sparse index, another hash) returns undefined and the caller asks git instead.
 * Format: gitformat-index(5).
 */

export interface IndexEntry {
  readonly path: string;
  /** e.g. 0o100644, 0o100755, 0o120000 (symlink), 0o160000 (gitlink). */
  readonly mode: number;
  readonly oid: string;
  /** The file size git last saw (its low 32 bits). */
  readonly size: number;
  readonly stage: number;
  readonly assumeUnchanged: boolean;
  readonly skipWorktree: boolean;
}

/**
 * An entry read from the file. Its path and blob id are decoded only when asked for: a
 * first snapshot reads a few of the 50,000 (marked, oversize, conflicted ones), and
 * decoding all of them costs more than the rest of the parse.
 */
class ParsedEntry implements IndexEntry {
  constructor(
    readonly mode: number,
    readonly size: number,
    readonly stage: number,
    readonly assumeUnchanged: boolean,
    readonly skipWorktree: boolean,
    private readonly buffer: Buffer,
    private readonly oidAt: number,
    /** Where the path's bytes are in `name` (the index itself, or a v4 entry's own copy). */
    private readonly name: Buffer,
    private readonly nameStart: number,
    private readonly nameEnd: number,
  ) {}

  get path(): string {
    return this.name.toString('utf8', this.nameStart, this.nameEnd);
  }

  get oid(): string {
    return this.buffer.toString('hex', this.oidAt, this.oidAt + 20);
  }

  /** Whether the last component of the path is `file` (given as bytes), without decoding it. */
  isNamed(file: Buffer): boolean {
    const start = this.nameEnd - file.length;
    if (start < this.nameStart || (start > this.nameStart && this.name[start - 1] !== 0x2f)) return false;
    return this.name.compare(file, 0, file.length, start, this.nameEnd) === 0;
  }
}

/**
 * Whether any entry's file name (last path component) is `file`: for an index the parser
 * read, without decoding the paths.
 */
export function hasFileNamed(entries: readonly IndexEntry[], file: string): boolean {
  const bytes = Buffer.from(file, 'utf8');
  return entries.some((entry) => (entry instanceof ParsedEntry ? entry.isNamed(bytes) : entry.path === file || entry.path.endsWith(`/${file}`)));
}

const entryFixedBytes = 62;

function readVarint(buffer: Buffer, at: number): { value: number; next: number } {
  let byte = buffer[at++] ?? 0;
  let value = byte & 0x7f;
  while (byte & 0x80) {
    value += 1;
    byte = buffer[at++] ?? 0;
    value = value * 128 + (byte & 0x7f);
  }
  return { value, next: at };
}

export function parseIndex(buffer: Buffer): IndexEntry[] | undefined {
  if (buffer.length < 12 || buffer.toString('latin1', 0, 4) !== 'DIRC') return undefined;
  const version = buffer.readUInt32BE(4);
  if (version < 2 || version > 4) return undefined;
  const count = buffer.readUInt32BE(8);
  const entries: IndexEntry[] = [];
  let at = 12;
  let previous: Buffer = Buffer.alloc(0);
  for (let i = 0; i < count; i++) {
    if (at + entryFixedBytes > buffer.length) return undefined;
    const start = at;
    const mode = buffer.readUInt32BE(at + 24);
    const size = buffer.readUInt32BE(at + 36);
    const oidAt = at + 40;
    const flags = buffer.readUInt16BE(at + 60);
    at += entryFixedBytes;
    let skipWorktree = false;
    if (flags & 0x4000) {
      if (version < 3) return undefined;
      const extended = buffer.readUInt16BE(at);
      skipWorktree = (extended & 0x4000) !== 0;
      at += 2;
    }
    // A sparse-index directory entry: not a file.
    if ((mode & 0o170000) === 0o040000) return undefined;
    const stage = (flags >> 12) & 0x3;
    const assumeUnchanged = (flags & 0x8000) !== 0;
    if (version === 4) {
      const { value: strip, next } = readVarint(buffer, at);
      const end = buffer.indexOf(0, next);
      if (end < 0 || strip > previous.length) return undefined;
      const name = Buffer.concat([previous.subarray(0, previous.length - strip), buffer.subarray(next, end)]);
      entries.push(new ParsedEntry(mode, size, stage, assumeUnchanged, skipWorktree, buffer, oidAt, name, 0, name.length));
      previous = name;
      at = end + 1;
    } else {
      // The flags hold the name's length, up to 0xFFF (longer names: up to the NUL).
      const length = flags & 0xfff;
      const end = length < 0xfff ? at + length : buffer.indexOf(0, at);
      if (end < 0 || end >= buffer.length || buffer[end] !== 0) return undefined;
      entries.push(new ParsedEntry(mode, size, stage, assumeUnchanged, skipWorktree, buffer, oidAt, buffer, at, end));
      // NUL-padded to a multiple of eight bytes from the entry's start.
      at = start + Math.ceil((end + 1 - start) / 8) * 8;
    }
  }
  // Extensions: a split index ("link") holds only part of the entries here.
  while (at + 8 <= buffer.length - 20) {
    const signature = buffer.toString('latin1', at, at + 4);
    if (signature === 'link' || signature === 'sdir') return undefined;
    at += 8 + buffer.readUInt32BE(at + 4);
  }
  return entries;
}
