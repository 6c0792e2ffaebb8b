// The conversations of checkpoints carried from one store to another (`rewind export
// --conversation`, `rewind import`): the capture files as kept under conv/, checked by their
// hashes both ways; on import each capture names the transcript where the agent keeps it on
// this machine, for this project (the agent's adapter says where), so a restore writes the
// rebuilt session where the agent resumes it.
import { sha256Hex as sha256 } from '../shared/sha256.js';
import fs from 'node:fs';
import path from 'node:path';
import { agentNamed } from '../agents/chooseAgent.js';
import { messageOf, UserError } from '../shared/errors.js';
import type { ConversationRef, ConversationStore, StoredPoint } from './conversationStore.js';

/** A capture file, named as under conv/ (`points/<hash>.json`, `chunks/<hash>`). */
export interface ConversationFile {
  name: string;
  bytes: Buffer;
}

/** Captures read from an export, rewritten for this machine, ready to be kept. */
export interface PreparedConversations {
  /** The capture each exported one became here (old hash → new hash). */
  renamed: Map<string, string>;
  points: string[];
  chunks: Buffer[];
  /** How many conversations have no place here (their agent is not known here, or keeps its transcripts elsewhere): their checkpoints come with files only. */
  homeless: number;
}

const isHash = (text: unknown): text is string => typeof text === 'string' && /^[0-9a-f]{64}$/.test(text);

/** The conversation references a checkpoint list holds (null and other shapes left out). */
export function conversationRefs(conversations: readonly unknown[]): ConversationRef[] {
  return conversations.filter((ref): ref is ConversationRef => typeof ref === 'object' && ref !== null && isHash((ref as Partial<ConversationRef>).point));
}

/**
 * Every capture file the conversations of these checkpoints are made of, once each; one that
 * is damaged or gone is a UserError naming its checkpoint.
 */
export function exportConversations(store: ConversationStore, checkpoints: readonly { id: number; conversation: unknown }[]): ConversationFile[] {
  const files = new Map<string, Buffer>();
  for (const { id, conversation } of checkpoints) {
    const [ref] = conversationRefs([conversation]);
    if (!ref) continue;
    try {
      for (const file of store.filesOf(ref)) if (!files.has(file.name)) files.set(file.name, fs.readFileSync(file.file));
    } catch (error) {
      throw new UserError(`the conversation kept with checkpoint #${id} cannot be read (${messageOf(error).replace(/: restore its files only$/, '')}): export without --conversation, or a range without #${id}`, { cause: error });
    }
  }
  return [...files].map(([name, bytes]) => ({ name, bytes }));
}

/** A capture as an export holds it, checked against its hash; undefined when it is not one. */
function pointIn(files: ReadonlyMap<string, Buffer>, hash: string): StoredPoint | undefined {
  const bytes = files.get(`points/${hash}.json`);
  if (!bytes || sha256(bytes) !== hash) return undefined;
  try {
    const point = JSON.parse(bytes.toString('utf8')) as StoredPoint;
    const chunkOk = point.chunk === null || (isHash(point.chunk) && sha256(files.get(`chunks/${point.chunk}`) ?? '') === point.chunk);
    if (point.v !== 1 || typeof point.agent !== 'string' || typeof point.length !== 'number' || typeof point.transcript !== 'string' || !chunkOk || !(point.prev === null || isHash(point.prev))) return undefined;
    return point;
  } catch {
    return undefined;
  }
}

/** Whether `file` is inside `folder` (both absolute). */
function inside(file: string, folder: string): boolean {
  const relative = path.relative(folder, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

/**
 * Where the agent keeps this transcript here, for the project at `projectRoot` (where it was,
 * when the adapter cannot say); undefined when that is not inside the folder where the agent
 * keeps its transcripts in `env`: a file from elsewhere never names where a restore writes.
 */
function relocated(point: StoredPoint, projectRoot: string, env: NodeJS.ProcessEnv): string | undefined {
  try {
    const adapter = agentNamed(point.agent);
    const support = adapter.name === point.agent ? adapter.conversation : undefined;
    const folder = support?.transcripts?.(env).folder;
    // A file name of its own: a transcript named `.`, `..` or a folder could put a rebuilt session beside its folder.
    const name = path.basename(point.transcript);
    if (!support || !folder || name === '' || name === '.' || name === '..' || point.transcript.endsWith('/')) return undefined;
    const moved = support.relocate?.(point.transcript, projectRoot, env);
    if (moved === null) return undefined;
    const file = path.resolve(moved ?? point.transcript);
    return inside(file, path.resolve(folder)) ? file : undefined;
  } catch {
    return undefined;
  }
}

/** A capture whose transcript has no place here: its checkpoint comes without its conversation. */
class NoPlaceHere extends Error {}

/**
 * The captures `refs` name, read from an export's `files` and checked, each rewritten to
 * name its transcript where the agent keeps it here. Nothing is written yet; a capture that
 * is missing or does not match its hash is a UserError (`where`: the file).
 */
export function prepareConversations(files: ReadonlyMap<string, Buffer>, refs: readonly ConversationRef[], projectRoot: string, env: NodeJS.ProcessEnv, where: string): PreparedConversations {
  const renamed = new Map<string, string>();
  const points: string[] = [];
  const chunks = new Map<string, Buffer>();
  const rename = (hash: string, seen: Set<string>): string => {
    const done = renamed.get(hash);
    if (done) return done;
    if (seen.has(hash)) throw new UserError(`${where} holds conversation captures that loop: nothing was imported`);
    seen.add(hash);
    const point = pointIn(files, hash);
    if (!point) throw new UserError(`${where} lacks a conversation capture it names, or holds a damaged one: nothing was imported`);
    const prev = point.prev === null ? null : rename(point.prev, seen);
    if (point.chunk !== null) chunks.set(point.chunk, files.get(`chunks/${point.chunk}`) as Buffer);
    const transcript = relocated(point, projectRoot, env);
    if (transcript === undefined) throw new NoPlaceHere();
    const text = `${JSON.stringify({ ...point, transcript, prev })}\n`;
    const made = sha256(text);
    points.push(text);
    renamed.set(hash, made);
    return made;
  };
  let homeless = 0;
  for (const ref of refs) {
    try {
      rename(ref.point, new Set());
    } catch (error) {
      if (!(error instanceof NoPlaceHere)) throw error;
      homeless += 1;
    }
  }
  return { renamed, points, chunks: [...chunks.values()], homeless };
}

/** Keeps prepared captures in this project's conversation store. */
export function keepConversations(store: ConversationStore, prepared: PreparedConversations): void {
  for (const chunk of prepared.chunks) store.addChunk(chunk);
  for (const text of prepared.points) store.addPoint(text);
}
