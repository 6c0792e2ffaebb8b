// Store growth over a long session (issue 15): a transcript growing by a few hundred bytes
// before each of `captures` checkpoints, each capture kept in the conversation store as the
// app keeps it. Linear means the store holds about the transcript's bytes plus a small
// record per capture, not a copy per capture (the sum of all lengths, ~N²).
import fs from 'node:fs';
import path from 'node:path';
import { ConversationStore } from '../src/conversation/conversationStore.js';
import { median, round, time } from './lib.js';

export interface ConversationRow {
  captures: number;
  transcriptBytes: number;
  /** Bytes in the store's files (chunks, capture records, heads). */
  storeBytes: number;
  /** What a copy per capture would have stored. */
  copiesBytes: number;
  /** Disk blocks the store takes (small files round up). */
  diskBytes: number;
  /** One capture, median ms (first and last hundred). */
  captureMs: { first: number; last: number };
  /** Reading back the newest capture (the whole chain), ms. */
  readMs: number;
}

function du(dir: string): { bytes: number; disk: number } {
  let bytes = 0;
  let disk = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const stat = fs.statSync(path.join(entry.parentPath, entry.name));
    bytes += stat.size;
    disk += stat.blocks * 512;
  }
  return { bytes, disk };
}

export async function benchConversation(work: string, captures: number): Promise<ConversationRow> {
  const dir = fs.mkdtempSync(path.join(work, 'conv-'));
  const transcript = path.join(dir, 'projects', 'session.jsonl');
  fs.mkdirSync(path.dirname(transcript), { recursive: true });
  const store = new ConversationStore(path.join(dir, 'store', 'conv'));
  const ms: number[] = [];
  let copiesBytes = 0;
  let last = store.capture('claude', { transcript });
  for (let n = 0; n < captures; n++) {
    fs.appendFileSync(transcript, `${JSON.stringify({ type: n % 2 ? 'assistant' : 'user', uuid: `u${n}`, message: { content: 'x'.repeat(200 + (n % 5) * 60) } })}\n`);
    ms.push(await time(async () => (last = store.capture('claude', { transcript }))));
    copiesBytes += fs.statSync(transcript).size;
  }
  const readMs = await time(async () => store.bytes(last));
  const { bytes, disk } = du(store.dir);
  const transcriptBytes = fs.statSync(transcript).size;
  fs.rmSync(dir, { recursive: true, force: true });
  return {
    captures,
    transcriptBytes,
    storeBytes: bytes,
    copiesBytes,
    diskBytes: disk,
    captureMs: { first: round(median(ms.slice(0, 100))), last: round(median(ms.slice(-100))) },
    readMs: round(readMs),
  };
}
