/**
 * Reads a git index file (versions 2, 3 and 4, SHA-1) without running git: the first
 * snapshot of a big repository needs every entry's path, mode, blob, size and the
 * assume-unchanged / skip-worktree marks, and one `ls-files` plus one `ls-tree` cost more
 * than the whole parse. Anything unusual (a split index, a sparse index, another hash)
 * returns undefined and the caller asks git instead. Format: gitformat-index(5).
 */

export interface IndexEntry {
  path: string;
  /** e.g. 0o100644, 0o100755, 0o120000 (symlink), 0o160000 (gitlink). */
  mode: number;
  readonly oid: string;
  /** The file size git last saw (its low 32 bits). */
  size: number;
  stage: number;
  assumeUnchanged: boolean;
  skipWorktree: boolean;
}

/** An entry read from the file; its blob id is hex-encoded only when asked for (50,000 of them cost more than the rest of the parse). */
class ParsedEntry implements IndexEntry {
  constructor(
    readonly path: string,
    readonly mode: number,
    readonly size: number,
    readonly stage: number,
    readonly assumeUnchanged: boolean,
    readonly skipWorktree: boolean,
    private readonly buffer: Buffer,
    private readonly oidAt: number,
  ) {}

  get oid(): string {
    return this.buffer.toString('hex', this.oidAt, this.oidAt + 20);
  }
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
    let name: Buffer;
    if (version === 4) {
      const { value: strip, next } = readVarint(buffer, at);
      const end = buffer.indexOf(0, next);
      if (end < 0 || strip > previous.length) return undefined;
      name = Buffer.concat([previous.subarray(0, previous.length - strip), buffer.subarray(next, end)]);
      at = end + 1;
    } else {
      const end = buffer.indexOf(0, at);
      if (end < 0) return undefined;
      name = buffer.subarray(at, end);
      // NUL-padded to a multiple of eight bytes from the entry's start.
      at = start + Math.ceil((end + 1 - start) / 8) * 8;
    }
    previous = name;
    // A sparse-index directory entry: not a file.
    if ((mode & 0o170000) === 0o040000) return undefined;
    entries.push(new ParsedEntry(name.toString('utf8'), mode, size, (flags >> 12) & 0x3, (flags & 0x8000) !== 0, skipWorktree, buffer, oidAt));
  }
  // Extensions: a split index ("link") holds only part of the entries here.
  while (at + 8 <= buffer.length - 20) {
    const signature = buffer.toString('latin1', at, at + 4);
    if (signature === 'link' || signature === 'sdir') return undefined;
    at += 8 + buffer.readUInt32BE(at + 4);
  }
  return entries;
}
