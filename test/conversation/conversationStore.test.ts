// The conversations kept with checkpoints (conv/ in the project's store): each capture
// stores only the bytes added since the one before and names it, so a session's transcript
// is stored once however many checkpoints keep it; what was kept reads back exactly, or is
// refused as damaged; a sweep keeps what kept checkpoints need.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConversationDamaged, ConversationStore, type ConversationRef, type StoredPoint } from '../../src/conversation/conversationStore.js';
import { UserError } from '../../src/shared/errors.js';

let base = '';
let store: ConversationStore;
let transcript = '';
beforeEach(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'rewind-conv-'));
  store = new ConversationStore(path.join(base, 'store', 'conv'));
  transcript = path.join(base, 'projects', 'p', 'session.jsonl');
  fs.mkdirSync(path.dirname(transcript), { recursive: true });
});
afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
/** One transcript line of about `size` bytes (multi-byte characters in it, as real ones have). */
const line = (n: number, size = 300) => `${JSON.stringify({ type: n % 2 ? 'assistant' : 'user', uuid: `u${n}`, sessionId: 's1', message: { content: `reply ${n} é✓ ${'x'.repeat(Math.max(0, size - 90))}` } })}\n`;
const append = (text: string, file = transcript) => fs.appendFileSync(file, text);
const capture = (file = transcript) => store.capture('claude', { transcript: file, session: 's1', promptId: 'p1' });
const files = (dir: string) => (fs.existsSync(path.join(store.dir, dir)) ? fs.readdirSync(path.join(store.dir, dir)).filter((name) => !name.startsWith('.')) : []);
const pointFile = (ref: ConversationRef) => path.join(store.dir, 'points', `${ref.point}.json`);
const stored = (ref: ConversationRef) => JSON.parse(fs.readFileSync(pointFile(ref), 'utf8')) as StoredPoint;
/** Every byte the store holds, in files. */
function storeBytes(): number {
  let total = 0;
  for (const dir of ['chunks', 'points', 'heads']) for (const name of files(dir)) total += fs.statSync(path.join(store.dir, dir, name)).size;
  return total;
}
/** What reading back `ref` throws (a ConversationDamaged: a one-line UserError). */
function damage(ref: ConversationRef): string {
  try {
    store.bytes(ref);
  } catch (error) {
    expect(error).toBeInstanceOf(ConversationDamaged);
    expect(error).toBeInstanceOf(UserError);
    const message = (error as Error).message;
    expect(message).not.toContain('\n');
    return message;
  }
  throw new Error('bytes() read a damaged conversation back');
}

describe('capturing a growing transcript', () => {
  it('chains each capture to the one before, storing each added byte once, and reads back every capture exactly', () => {
    const refs: { ref: ConversationRef; bytes: Buffer }[] = [];
    for (let n = 0; n < 20; n++) {
      append(line(n, 100 + n * 37));
      // A capture mid-line (the agent still writing): kept as it was, the cut drops it later.
      if (n % 5 === 4) append('{"type":"user","mess');
      refs.push({ ref: capture(), bytes: fs.readFileSync(transcript) });
      if (n % 5 === 4) append('age":{}}\n');
    }
    const size = fs.statSync(transcript).size;
    const chunkBytes = files('chunks').reduce((sum, name) => sum + fs.statSync(path.join(store.dir, 'chunks', name)).size, 0);
    // Each chunk holds only what was added: together, the transcript up to the last capture once.
    expect(chunkBytes).toBe(refs.at(-1)?.bytes.length);
    expect(chunkBytes).toBeLessThanOrEqual(size);
    for (const [index, { ref, bytes }] of refs.entries()) {
      expect(store.bytes(ref).equals(bytes)).toBe(true);
      const point = stored(ref);
      expect(point).toMatchObject({ v: 1, agent: 'claude', transcript, session: 's1', promptId: 'p1', length: bytes.length, prev: index === 0 ? null : refs[index - 1]?.ref.point });
      expect(sha256(fs.readFileSync(pointFile(ref)))).toBe(ref.point);
      expect(store.point(ref)).toEqual(point);
    }
  });

  it('a capture of an unchanged transcript adds no chunk; one not written yet is an empty conversation', () => {
    const missing = capture();
    expect(store.bytes(missing).length).toBe(0);
    expect(stored(missing)).toMatchObject({ length: 0, chunk: null, prev: null });
    append(line(1));
    const one = capture();
    const again = capture();
    expect(stored(again)).toMatchObject({ chunk: null, prev: one.point, length: fs.statSync(transcript).size });
    expect(files('chunks')).toHaveLength(1);
    expect(store.bytes(again).equals(fs.readFileSync(transcript))).toBe(true);
  });

  it('a transcript rewritten or truncated starts a new chain (its bytes stored whole), the old captures still exact', () => {
    append(line(1) + line(2));
    const first = capture();
    const firstBytes = fs.readFileSync(transcript);
    // Same length, its last bytes changed: not an extension of what was kept.
    fs.writeFileSync(transcript, Buffer.concat([firstBytes.subarray(0, -5), Buffer.from('zzzz\n')]));
    append(line(3));
    const rewritten = capture();
    expect(stored(rewritten)).toMatchObject({ prev: null, length: fs.statSync(transcript).size });
    expect(store.bytes(rewritten).equals(fs.readFileSync(transcript))).toBe(true);
    fs.writeFileSync(transcript, line(9));
    const truncated = capture();
    expect(stored(truncated)).toMatchObject({ prev: null, length: Buffer.byteLength(line(9)) });
    expect(store.bytes(truncated).toString()).toBe(line(9));
    expect(store.bytes(first).equals(firstBytes)).toBe(true);
    // Gone altogether: an empty conversation, a new chain again.
    fs.rmSync(transcript);
    expect(stored(capture())).toMatchObject({ length: 0, prev: null });
  });

  it('keeps each transcript its own chain, and shares a chunk two of them added alike', () => {
    const other = path.join(path.dirname(transcript), 'other.jsonl');
    append(line(1));
    append(line(1), other);
    const a = capture();
    const b = capture(other);
    expect(files('chunks')).toHaveLength(1);
    append(line(2));
    const a2 = capture();
    expect(stored(a2).prev).toBe(a.point);
    expect(store.bytes(a2).toString()).toBe(line(1) + line(2));
    expect(store.bytes(b).toString()).toBe(line(1));
    expect(files('heads')).toHaveLength(2);
  });
});

describe('a damaged capture', () => {
  /** Three captures of a growing transcript. */
  function chain(): ConversationRef[] {
    return [1, 2, 3].map((n) => {
      append(line(n));
      return capture();
    });
  }
  const shape = /^the conversation kept with this checkpoint is damaged \(.+\): restore its files only$/;

  it('a chunk changed or gone: ConversationDamaged, one line', () => {
    const refs = chain();
    const chunk = path.join(store.dir, 'chunks', stored(refs[1] as ConversationRef).chunk ?? '');
    const good = fs.readFileSync(chunk);
    fs.writeFileSync(chunk, Buffer.concat([good.subarray(0, -2), Buffer.from('!\n')]));
    expect(damage(refs[2] as ConversationRef)).toMatch(/damaged \(a part does not match its hash\)/);
    expect(damage(refs[1] as ConversationRef)).toMatch(shape);
    // The capture before the damaged chunk still reads back.
    expect(store.bytes(refs[0] as ConversationRef).toString()).toBe(line(1));
    fs.rmSync(chunk);
    expect(damage(refs[2] as ConversationRef)).toMatch(/^the conversation kept with this checkpoint is damaged \(a part is missing: ENOENT.*\): restore its files only$/);
  });

  it('a capture on the chain changed or gone: ConversationDamaged; the named one changed: not kept (point() is undefined)', () => {
    const refs = chain();
    const middle = pointFile(refs[1] as ConversationRef);
    const text = fs.readFileSync(middle, 'utf8');
    fs.writeFileSync(middle, text.replace('"agent":"claude"', '"agent":"claudf"'));
    expect(damage(refs[2] as ConversationRef)).toMatch(/damaged \(a capture does not match its hash\)/);
    fs.rmSync(middle);
    expect(damage(refs[2] as ConversationRef)).toMatch(shape);
    const top = pointFile(refs[2] as ConversationRef);
    fs.writeFileSync(top, fs.readFileSync(top, 'utf8').replace('"v":1', '"v":2'));
    expect(store.point(refs[2])).toBeUndefined();
    expect(damage(refs[2] as ConversationRef)).toMatch(shape);
    expect(store.point({ agent: 'claude', point: 'not-a-hash' })).toBeUndefined();
    expect(damage({ agent: 'claude', point: 'not-a-hash' })).toMatch(/damaged \(no capture named\)/);
  });

  it('a capture whose length its chunks do not make (well-formed, hashed): ConversationDamaged', () => {
    const [ref] = chain();
    const kept = Buffer.byteLength(line(1));
    const point = { ...stored(ref as ConversationRef), length: kept + 1 };
    const text = `${JSON.stringify(point)}\n`;
    fs.writeFileSync(path.join(store.dir, 'points', `${sha256(text)}.json`), text);
    expect(damage({ agent: 'claude', point: sha256(text) })).toMatch(new RegExp(`damaged \\(${kept} bytes where ${kept + 1} were kept\\)`));
  });

  it('reading a damaged capture writes nothing', () => {
    const refs = chain();
    fs.rmSync(path.join(store.dir, 'chunks', stored(refs[0] as ConversationRef).chunk ?? ''));
    const before = storeBytes();
    const listing = ['chunks', 'points', 'heads'].map(files);
    damage(refs[2] as ConversationRef);
    expect(storeBytes()).toBe(before);
    expect(['chunks', 'points', 'heads'].map(files)).toEqual(listing);
  });
});

describe('sweeping the store', () => {
  it('keeps what the kept checkpoints need (their chains), frees the rest, and a later capture starts over cleanly', () => {
    const other = path.join(path.dirname(transcript), 'other.jsonl');
    const a = [1, 2, 3, 4, 5].map((n) => (append(line(n)), { ref: capture(), bytes: fs.readFileSync(transcript) }));
    const b = [1, 2, 3].map((n) => (append(line(n + 10), other), { ref: capture(other), bytes: fs.readFileSync(other) }));
    const kept = [a[2], b[0]].map((entry) => entry?.ref);
    const before = storeBytes();
    const freed = store.sweep([...kept, null, { point: 'junk' }, 'junk'], 0);
    expect(freed).toBe(before - storeBytes());
    expect(freed).toBeGreaterThan(0);
    // What a[2] and b[0] need: a[0..2] and b[0], each capture and its chunk.
    expect(files('points').sort()).toEqual([a[0], a[1], a[2], b[0]].map((entry) => `${entry?.ref.point}.json`).sort());
    expect(files('chunks').sort()).toEqual([a[0], a[1], a[2], b[0]].map((entry) => stored(entry?.ref as ConversationRef).chunk).sort());
    expect(store.bytes(a[2]?.ref as ConversationRef).equals(a[2]?.bytes as Buffer)).toBe(true);
    expect(store.bytes(a[0]?.ref as ConversationRef).equals(a[0]?.bytes as Buffer)).toBe(true);
    expect(store.bytes(b[0]?.ref as ConversationRef).equals(b[0]?.bytes as Buffer)).toBe(true);
    // The heads named captures now gone: the next capture of each starts a new chain, exact.
    expect(files('heads')).toHaveLength(0);
    append(line(6));
    const next = capture();
    expect(stored(next).prev).toBeNull();
    expect(store.bytes(next).equals(fs.readFileSync(transcript))).toBe(true);
    // Nothing kept: nothing left.
    store.sweep([], 0);
    expect(['chunks', 'points', 'heads'].map(files)).toEqual([[], [], []]);
  });

  it('leaves captures of the last minutes alone: the snapshot that will name one may be waiting for the lock', () => {
    append(line(1));
    capture();
    expect(store.sweep([])).toBe(0);
    expect(files('points')).toHaveLength(1);
  });

  it('keeps what a capture of the last minutes extends, however old: its snapshot may be waiting for the lock', () => {
    append(line(1));
    capture();
    const past = new Date(Date.now() - 3_600_000);
    for (const dir of ['points', 'chunks', 'heads']) for (const name of files(dir)) fs.utimesSync(path.join(store.dir, dir, name), past, past);
    append(line(2));
    const fresh = capture();
    expect(store.sweep([])).toBe(0);
    expect(store.bytes(fresh).equals(fs.readFileSync(transcript))).toBe(true);
  });

  it('a store never written sweeps to nothing', () => {
    expect(store.sweep([{ agent: 'claude', point: 'a'.repeat(64) }])).toBe(0);
  });
});

describe('store growth over a long session', () => {
  it('500 captures of a transcript growing by a few hundred bytes each: the store grows linearly (each byte once, a small record per capture)', () => {
    const captures = 500;
    const refs: { ref: ConversationRef; length: number }[] = [];
    for (let n = 0; n < captures; n++) {
      append(line(n, 200 + (n % 5) * 60));
      refs.push({ ref: capture(), length: fs.statSync(transcript).size });
    }
    const size = fs.statSync(transcript).size;
    const chunkBytes = files('chunks').reduce((sum, name) => sum + fs.statSync(path.join(store.dir, 'chunks', name)).size, 0);
    const pointBytes = files('points').reduce((sum, name) => sum + fs.statSync(path.join(store.dir, 'points', name)).size, 0);
    expect(chunkBytes).toBe(size);
    expect(files('points')).toHaveLength(captures);
    // A capture's record is its own few hundred bytes, whatever the transcript's length.
    expect(pointBytes / captures).toBeLessThan(600);
    expect(storeBytes()).toBeLessThan(size + captures * 600);
    // A copy per capture would have been the sum of the lengths: ~N²/2 lines.
    const copies = refs.reduce((sum, entry) => sum + entry.length, 0);
    expect(storeBytes()).toBeLessThan(copies / 50);
    for (const index of [0, 1, 99, 250, 498, 499]) {
      const { ref, length } = refs[index] as { ref: ConversationRef; length: number };
      expect(store.bytes(ref).equals(fs.readFileSync(transcript).subarray(0, length))).toBe(true);
    }
  });
});
