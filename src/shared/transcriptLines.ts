// An agent's transcript as Rewind reads it back: JSON lines, in order, from a buffer or from
// files on disk, never as one string (a transcript may be far larger than a string or a
// buffer can be: each line is decoded alone, and only one line is in memory at a time).
import fs from 'node:fs';

/** A transcript's bytes, readable in order as often as needed. */
export interface TranscriptBytes {
  /** How many bytes it holds. */
  readonly length: number;
  /** Its complete lines in order, each without its newline (a half-written last line left out). */
  lines(): Iterable<string>;
}

/** How many bytes are read from a file at a time. */
const blockBytes = 1 << 20;

/** One line's bytes as text (a line too long for a string is one the agent could not read either). */
function lineText(parts: readonly Buffer[]): string {
  const bytes = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
  try {
    return bytes.toString('utf8');
  } catch {
    throw new Error(`a line of the transcript is ${bytes.length} bytes long, more than a string can hold`);
  }
}

/** The complete lines of a sequence of blocks. */
function* linesOf(blocks: Iterable<Buffer>): Generator<string> {
  let pending: Buffer[] = [];
  for (const block of blocks) {
    let start = 0;
    for (let end = block.indexOf(10); end >= 0; end = block.indexOf(10, start)) {
      pending.push(block.subarray(start, end));
      yield lineText(pending);
      pending = [];
      start = end + 1;
    }
    if (start < block.length) pending.push(Buffer.from(block.subarray(start)));
  }
}

/** A transcript held in memory. */
export function bufferTranscript(bytes: Buffer): TranscriptBytes {
  return { length: bytes.length, lines: () => linesOf([bytes]) };
}

/** One part of a transcript on disk: the first `length` bytes of `file`, which must still be the file `identity` names when given. */
export interface TranscriptPart {
  file: string;
  length: number;
  identity?: { dev: number; ino: number };
}

function* blocksOf(part: TranscriptPart): Generator<Buffer> {
  // Opened again on each pass: never through a link, never waiting on a FIFO put there meanwhile.
  const fd = fs.openSync(part.file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile() || (part.identity && (stat.dev !== part.identity.dev || stat.ino !== part.identity.ino))) throw new Error(`${part.file} was replaced while it was read`);
    for (let position = 0; position < part.length; ) {
      const block = Buffer.allocUnsafe(Math.min(blockBytes, part.length - position));
      const read = fs.readSync(fd, block, 0, block.length, position);
      if (read === 0) throw new Error(`${part.file} ended after ${position} of its ${part.length} bytes`);
      position += read;
      yield block.subarray(0, read);
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** A transcript on disk, made of `parts` one after the other (each opened again on each pass). */
export function partsTranscript(parts: readonly TranscriptPart[]): TranscriptBytes {
  return {
    length: parts.reduce((sum, part) => sum + part.length, 0),
    lines: () =>
      linesOf(
        (function* () {
          for (const part of parts) yield* blocksOf(part);
        })(),
      ),
  };
}

/** The first `count` lines of `source`, each changed by `change` (its index too), as the text of a new file. */
export function* firstLines(source: TranscriptBytes, count: number, change: (line: string, index: number) => string = (line) => line): Generator<string> {
  if (count <= 0) return;
  let index = 0;
  for (const line of source.lines()) {
    yield `${change(line, index)}\n`;
    if (++index >= count) return;
  }
}
