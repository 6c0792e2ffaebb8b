// The conversations kept with checkpoints (layer 2), in the project's store under conv/:
//
//   conv/chunks/<sha256>       bytes appended to a transcript between two captures
//   conv/points/<sha256>.json  one capture: its transcript, length, chunk, and the capture it extends
//   conv/heads/<sha256(path)>  the newest capture of each transcript
//   conv/restores.jsonl        the conversation restores made (restoredConversations.ts)
//
// Transcripts only grow, so each capture stores the bytes added since the one before and
// names it: a long session stores each byte once (linear, not N copies of a growing file).
// A transcript that did not only grow (rewritten, truncated) starts a new chain. Every file
// is named by the hash of its content and checked against it when read.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../shared/atomicFile.js';
import { sha256Hex as sha256 } from '../shared/sha256.js';
import type { ConversationPoint } from '../shared/conversation.js';
import { messageOf, UserError } from '../shared/errors.js';
import { partsTranscript, type TranscriptBytes } from '../shared/transcriptLines.js';
import { openTranscript, TranscriptRefused } from './transcriptFile.js';

/** How many bytes before a capture's end the next capture checks, to know the file only grew. */
const tailBytes = 4096;
/** How many bytes a capture copies (and a read checks) at a time. */
const copyBlockBytes = 1 << 20;

/** One capture of a transcript, as stored. */
export interface StoredPoint extends ConversationPoint {
  v: 1;
  agent: string;
  /** The transcript's length when captured: the conversation is its first `length` bytes. */
  length: number;
  /** The bytes added since `prev` (their sha256), or null when none were. */
  chunk: string | null;
  /** The capture this one extends (its bytes come first), or null. */
  prev: string | null;
  /** sha256 of the transcript's last (up to 4096) bytes at this capture. */
  tail: string;
  time: string;
}

/** What a checkpoint record keeps of its conversation (its `conversation` field). */
export interface ConversationRef {
  agent: string;
  /** The capture, by hash (conv/points/<point>.json). */
  point: string;
  [key: string]: unknown;
}

/** A stored conversation that cannot be read back as it was captured: nothing is changed. */
export class ConversationDamaged extends UserError {
  constructor(detail: string) {
    super(`the conversation kept with this checkpoint is damaged (${detail}): restore its files only`);
    this.name = 'ConversationDamaged';
  }
}

const isHash = (text: unknown): text is string => typeof text === 'string' && /^[0-9a-f]{64}$/.test(text);

/** Reads `length` bytes of an open file from `position` (fewer if the file is shorter). */
function readAt(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  let done = 0;
  while (done < length) {
    const read = fs.readSync(fd, buffer, done, length - done, position + done);
    if (read === 0) break;
    done += read;
  }
  return done === length ? buffer : buffer.subarray(0, done);
}

export class ConversationStore {
  private readonly chunks: string;
  private readonly points: string;
  private readonly heads: string;

  /** The store in `dir` (the project store's conv/ folder); made on the first capture. */
  constructor(readonly dir: string) {
    this.chunks = path.join(dir, 'chunks');
    this.points = path.join(dir, 'points');
    this.heads = path.join(dir, 'heads');
  }

  /**
   * Keeps the transcript as it is now (the bytes added since its last capture) and returns
   * the reference for the checkpoint. A transcript not written yet is an empty conversation;
   * one that is not a regular file of this user's (a link, a FIFO, a device, another user's)
   * is refused (TranscriptRefused), without blocking; so is one that is not at the real path
   * `at` (when given: where it was judged to be). The bytes are copied a block at a time: a
   * transcript of any size is kept.
   */
  capture(agent: string, point: ConversationPoint, at?: string): ConversationRef {
    const opened = openTranscript(point.transcript);
    let stored: StoredPoint;
    try {
      if (opened && at !== undefined && opened.real !== at) throw new TranscriptRefused(point.transcript, 'was moved while it was opened');
      for (const dir of [this.dir, this.chunks, this.points, this.heads]) fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      const previous = this.readHead(this.headFile(point.transcript));
      const fd = opened?.fd;
      const size = opened?.size ?? 0;
      const extends_ = previous && fd !== undefined && this.onlyGrew(fd, size, previous.point) ? previous : undefined;
      const from = extends_?.point.length ?? 0;
      const length = size;
      const tail = fd === undefined ? sha256('') : sha256(readAt(fd, Math.max(0, length - tailBytes), Math.min(length, tailBytes)));
      const chunk = fd !== undefined && length > from ? this.copyChunk(fd, from, length) : null;
      stored = {
        v: 1,
        agent,
        transcript: point.transcript,
        ...(point.session ? { session: point.session } : {}),
        ...(point.promptId ? { promptId: point.promptId } : {}),
        ...(point.inTurn ? { inTurn: true } : {}),
        length,
        chunk,
        prev: extends_?.hash ?? null,
        tail,
        time: new Date().toISOString(),
      };
    } finally {
      if (opened) fs.closeSync(opened.fd);
    }
    const text = `${JSON.stringify(stored)}\n`;
    const hash = sha256(text);
    const file = path.join(this.points, `${hash}.json`);
    if (!fs.existsSync(file)) writeFileAtomic(file, text, 0o600, false);
    writeFileAtomic(this.headFile(point.transcript), `${hash}\n`, 0o600, false);
    return { agent, point: hash };
  }

  private headFile(transcript: string): string {
    return path.join(this.heads, sha256(transcript));
  }

  /** The capture a reference names, checked; undefined when it is not there. */
  point(ref: unknown): StoredPoint | undefined {
    const hash = (ref as Partial<ConversationRef> | null | undefined)?.point;
    if (!isHash(hash)) return undefined;
    try {
      return this.readPoint(hash);
    } catch {
      return undefined;
    }
  }

  /**
   * The transcript as captured at `ref`, read from the store's files (never all in memory),
   * each part checked against its hash first; throws ConversationDamaged when one does not match.
   */
  transcript(ref: ConversationRef): TranscriptBytes {
    return partsTranscript(this.parts(ref));
  }

  /** The transcript's bytes as captured at `ref`, exactly (a half-written last line too), in memory: for a small one. */
  bytes(ref: ConversationRef): Buffer {
    return Buffer.concat(this.parts(ref).map((part) => fs.readFileSync(part.file)));
  }

  /** The chunk files that make the transcript at `ref`, in order, each checked against its hash. */
  private parts(ref: ConversationRef): { file: string; length: number }[] {
    if (!isHash(ref.point)) throw new ConversationDamaged('no capture named');
    const chunks: string[] = [];
    let hash: string | null = ref.point;
    let top: StoredPoint | undefined;
    const seen = new Set<string>();
    while (hash !== null) {
      if (seen.has(hash)) throw new ConversationDamaged('its captures loop');
      seen.add(hash);
      const point = this.readPointOrDamaged(hash);
      top ??= point;
      if (point.chunk !== null) chunks.push(point.chunk);
      hash = point.prev;
    }
    const parts = chunks.reverse().map((chunk) => ({ file: path.join(this.chunks, chunk), length: this.checkChunk(chunk) }));
    const length = parts.reduce((sum, part) => sum + part.length, 0);
    if (!top || length !== top.length) throw new ConversationDamaged(`${length} bytes where ${top?.length ?? 0} were kept`);
    return parts;
  }

  /**
   * The files the conversation at `ref` is made of, each checked against its hash: its
   * capture, the captures it extends, and their chunks, named as in this folder
   * (`points/<hash>.json`, `chunks/<hash>`). What an export carries of it.
   */
  filesOf(ref: ConversationRef): { name: string; file: string }[] {
    const files = this.parts(ref).map((part) => ({ name: path.relative(this.dir, part.file), file: part.file }));
    for (let hash: string | null = ref.point; hash !== null; hash = this.readPoint(hash).prev) {
      files.push({ name: `points/${hash}.json`, file: path.join(this.points, `${hash}.json`) });
    }
    return files;
  }

  /** Keeps a capture made elsewhere (an import): its text, named by its hash (returned). */
  addPoint(text: string): string {
    const hash = sha256(text);
    fs.mkdirSync(this.points, { recursive: true, mode: 0o700 });
    const file = path.join(this.points, `${hash}.json`);
    if (!fs.existsSync(file)) writeFileAtomic(file, text, 0o600, false);
    return hash;
  }

  /** Keeps a chunk of transcript bytes made elsewhere (an import), named by its hash (returned). */
  addChunk(bytes: Buffer): string {
    const hash = sha256(bytes);
    fs.mkdirSync(this.chunks, { recursive: true, mode: 0o700 });
    const file = path.join(this.chunks, hash);
    if (!fs.existsSync(file)) writeFileAtomic(file, bytes, 0o600, false);
    return hash;
  }

  /**
   * Deletes the captures no kept checkpoint needs (with their chunks): those not named by
   * `kept` nor extended by one that is. Captures of the last `graceMs`, and all they extend,
   * stay too: a capture is made just before the snapshot that will name it, maybe in
   * another process, and may extend one no kept checkpoint names. Returns the bytes freed.
   */
  sweep(kept: readonly unknown[], graceMs = 10 * 60 * 1000): number {
    if (!fs.existsSync(this.dir)) return 0;
    const livePoints = new Set<string>();
    const liveChunks = new Set<string>();
    // With no grace nothing is young (a file written this millisecond may be stamped a fraction after Date.now()).
    const youngerThan = graceMs > 0 ? Date.now() - graceMs : Infinity;
    const young = (dir: string) => this.list(dir).filter((name) => this.modifiedAfter(path.join(dir, name), youngerThan));
    const roots = [
      ...kept.map((ref) => (ref as Partial<ConversationRef> | null | undefined)?.point ?? null),
      ...young(this.points).map((name) => name.replace(/\.json$/, '')),
      ...young(this.heads).map((name) => this.readHead(path.join(this.heads, name))?.hash ?? null),
    ];
    for (const root of roots) {
      let hash = root;
      while (isHash(hash) && !livePoints.has(hash)) {
        livePoints.add(hash);
        let point: StoredPoint;
        try {
          point = this.readPoint(hash);
        } catch {
          break;
        }
        if (point.chunk !== null) liveChunks.add(point.chunk);
        hash = point.prev;
      }
    }
    let freed = 0;
    const remove = (file: string) => {
      try {
        const stat = fs.statSync(file);
        if (stat.mtimeMs > youngerThan) return;
        freed += stat.size;
        fs.rmSync(file, { force: true });
      } catch {
        // Gone already.
      }
    };
    for (const name of this.list(this.points)) if (!livePoints.has(name.replace(/\.json$/, ''))) remove(path.join(this.points, name));
    for (const name of this.list(this.chunks)) if (!liveChunks.has(name)) remove(path.join(this.chunks, name));
    for (const name of this.list(this.heads)) {
      const head = this.readHead(path.join(this.heads, name));
      if (!head || !livePoints.has(head.hash)) remove(path.join(this.heads, name));
    }
    return freed;
  }

  private modifiedAfter(file: string, time: number): boolean {
    try {
      return fs.statSync(file).mtimeMs > time;
    } catch {
      return false;
    }
  }

  private list(dir: string): string[] {
    try {
      return fs.readdirSync(dir).filter((name) => !name.startsWith('.'));
    } catch {
      return [];
    }
  }

  /** Whether the file's first `previous.length` bytes end as they did: it only grew since. */
  private onlyGrew(fd: number, size: number, previous: StoredPoint): boolean {
    if (size < previous.length) return false;
    const start = Math.max(0, previous.length - tailBytes);
    return sha256(readAt(fd, start, previous.length - start)) === previous.tail;
  }

  private readHead(file: string): { hash: string; point: StoredPoint } | undefined {
    try {
      const hash = fs.readFileSync(file, 'utf8').trim();
      return isHash(hash) ? { hash, point: this.readPoint(hash) } : undefined;
    } catch {
      // No capture yet, or one that is gone: a new chain starts.
      return undefined;
    }
  }

  /** Copies bytes `from`…`to` of an open file into a chunk, a block at a time, named by their hash. */
  private copyChunk(fd: number, from: number, to: number): string {
    const temp = path.join(this.chunks, `.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}.tmp`);
    const hasher = createHash('sha256');
    const out = fs.openSync(temp, 'wx', 0o600);
    try {
      for (let position = from; position < to; ) {
        const block = readAt(fd, position, Math.min(copyBlockBytes, to - position));
        if (block.length === 0) throw new Error(`the transcript shrank while it was read (at ${position} of ${to} bytes)`);
        hasher.update(block);
        for (let written = 0; written < block.length; ) written += fs.writeSync(out, block, written, block.length - written);
        position += block.length;
      }
    } catch (error) {
      fs.closeSync(out);
      fs.rmSync(temp, { force: true });
      throw error;
    }
    fs.closeSync(out);
    const hash = hasher.digest('hex');
    const file = path.join(this.chunks, hash);
    if (fs.existsSync(file)) fs.rmSync(temp, { force: true });
    else fs.renameSync(temp, file);
    return hash;
  }

  /** A chunk's size, once its bytes (read a block at a time) match its hash. */
  private checkChunk(hash: string): number {
    const hasher = createHash('sha256');
    let size = 0;
    try {
      const fd = fs.openSync(path.join(this.chunks, hash), 'r');
      try {
        for (let block = readAt(fd, 0, copyBlockBytes); block.length > 0; block = readAt(fd, size, copyBlockBytes)) {
          hasher.update(block);
          size += block.length;
        }
      } finally {
        fs.closeSync(fd);
      }
    } catch (error) {
      throw new ConversationDamaged(`a part is missing: ${messageOf(error)}`);
    }
    if (hasher.digest('hex') !== hash) throw new ConversationDamaged('a part does not match its hash');
    return size;
  }

  private readPoint(hash: string): StoredPoint {
    const text = fs.readFileSync(path.join(this.points, `${hash}.json`), 'utf8');
    if (sha256(text) !== hash) throw new Error('a capture does not match its hash');
    const point = JSON.parse(text) as StoredPoint;
    if (point.v !== 1 || typeof point.length !== 'number' || typeof point.transcript !== 'string' || !(point.chunk === null || isHash(point.chunk)) || !(point.prev === null || isHash(point.prev))) {
      throw new Error('a capture is not in a form rewind knows');
    }
    return point;
  }

  private readPointOrDamaged(hash: string): StoredPoint {
    try {
      return this.readPoint(hash);
    } catch (error) {
      throw new ConversationDamaged(messageOf(error));
    }
  }
}
