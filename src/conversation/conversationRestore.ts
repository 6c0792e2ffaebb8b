// Layer 2 as the runtime uses it: the conversation kept at a hook's checkpoint, the restore
// modes a checkpoint offers, and a conversation rebuilt and written as a new session file.
// Quarantined: the adapter is reached only through its guard, and a capture that fails is
// one notice, the checkpoint taken without it; nothing here can stop a file checkpoint.
import fs from 'node:fs';
import path from 'node:path';
import type { RebuiltConversation } from '../agents/agentAdapter.js';
import { filesOnly } from '../agents/generic.js';
import { ConversationStore, type ConversationRef } from './conversationStore.js';
import { openTranscript } from './transcriptFile.js';
import type { ConversationPoint } from '../shared/conversation.js';
import { messageOf, UserError } from '../shared/errors.js';
import type { ModeState, RestoreMode } from '../shared/restoreModes.js';
import { partsTranscript, type TranscriptBytes } from '../shared/transcriptLines.js';
import { AdapterGuard } from '../agents/adapterGuard.js';
import { agentNamed } from '../agents/chooseAgent.js';
import { ownTranscript } from './ownTranscript.js';
import { noteConversationRestored } from './restoredConversations.js';

/** What this layer reads of a checkpoint (layer 1's record, never imported here): its id and
 * the conversation it kept, as layer 1 stores it (opaque there: read as a ConversationRef here). */
export interface KeptConversation {
  id: number;
  conversation: { agent: string; [key: string]: unknown } | null;
}

/** How long rebuilding a conversation may take before the restore gives up on it (an adapter whose rebuild answers later; a synchronous one that never returns cannot be stopped). */
const rebuildTimeoutMs = 10_000;

/** The project's kept conversations (in its store; made on the first capture). */
export function conversationStoreOf(engine: { conversationsDir: string }): ConversationStore {
  return new ConversationStore(engine.conversationsDir);
}

/**
 * Keeps the conversation at `point` for a checkpoint about to be taken; undefined when there
 * is none or it could not be kept (said through `report`: the checkpoint goes on without it).
 * Only the agent's own transcript of the session is kept (where `agent` keeps them in `env`:
 * the hook's is the agent's own, the app's is the one the agent was started with); any other
 * file a payload names is not read.
 */
export function captureConversation(store: ConversationStore, agent: string, point: ConversationPoint | undefined, report: (message: string) => void, env: NodeJS.ProcessEnv = process.env): ConversationRef | undefined {
  if (!point) return undefined;
  try {
    const adapter = agentNamed(agent);
    const where = adapter.name === agent ? adapter.conversation?.transcripts?.(env) : undefined;
    if (!where) throw new Error(`rewind does not know where ${agent} keeps its transcripts`);
    return store.capture(agent, point, ownTranscript(point.transcript, where, point.session));
  } catch (error) {
    report(`the conversation could not be kept with this checkpoint (its files are): ${messageOf(error)}`);
    return undefined;
  }
}

/**
 * What restoring `record` can do in a session of `guard`'s agent: the agent's own answer,
 * narrowed to files only (with why) when its conversation is another agent's or is gone.
 */
export function restoreModesOf(guard: AdapterGuard, record: KeptConversation, store: ConversationStore): Record<RestoreMode, ModeState> {
  const modes = guard.restoreModes(record);
  if (!modes.conversation.enabled || !guard.adapter.conversation) return modes;
  const ref = record.conversation;
  if (ref && ref.agent !== guard.name) return filesOnly(`its conversation is ${ref.agent}'s, and this session runs ${guard.name}: files only`);
  if (ref && !store.point(ref)) return filesOnly('its conversation is no longer kept: files only');
  return modes;
}

/**
 * The conversation of checkpoint `record` rebuilt, in memory: nothing is written yet.
 * Throws a UserError, having changed nothing, when it cannot be (none kept, damaged, the
 * agent's support failing or too slow).
 */
export async function rebuildConversation(guard: AdapterGuard, record: KeptConversation, store: ConversationStore): Promise<RebuiltConversation> {
  const support = guard.adapter.conversation;
  if (!support) throw new UserError(`rewind cannot restore ${guard.name}'s conversation: restore the files of #${record.id} only`);
  const ref = record.conversation as ConversationRef | null;
  if (!ref) throw new UserError(`checkpoint #${record.id} kept no conversation (only checkpoints before an agent's steps keep one): restore its files only`);
  if (ref.agent !== guard.name) throw new UserError(`the conversation of #${record.id} is ${ref.agent}'s, not ${guard.name}'s: restore its files only`);
  const point = store.point(ref);
  if (!point) throw new UserError(`the conversation of #${record.id} is no longer kept (its store files are gone): restore its files only`);
  const captured = store.transcript(ref);
  const latest = transcriptNow(point.transcript);
  const rebuilt = await guard.callOrThrow('rebuilding the conversation', () => support.rebuild(captured, point, latest), rebuildTimeoutMs);
  if (!path.isAbsolute(rebuilt.file) || fs.existsSync(rebuilt.file)) throw new UserError(`the conversation of #${record.id} was rebuilt as ${rebuilt.file}, which rewind will not write: nothing was changed`);
  return rebuilt;
}

/**
 * The transcript as it is now (undefined when it cannot be read, or is not a regular file of
 * the user's): an adapter may find a place named by an id there. Read as it is rebuilt (and
 * again when written), never whole; it only grows, so what it held then stays as it was.
 */
function transcriptNow(file: string): TranscriptBytes | undefined {
  try {
    const opened = openTranscript(file);
    if (!opened) return undefined;
    fs.closeSync(opened.fd);
    return partsTranscript([{ file: opened.real, length: opened.size, identity: opened.identity }]);
  } catch {
    return undefined;
  }
}

/**
 * Writes a rebuilt conversation's new session file (0600), never over any file; nothing for
 * an empty one. Returns the function that removes it again (a restore of files that fails
 * after it). A file that cannot be written is the user's error to hear, in one line.
 */
export function writeConversation(rebuilt: RebuiltConversation): () => void {
  if (rebuilt.session === undefined) return () => undefined;
  let made = false;
  try {
    // Its folder is missing for a conversation imported from another machine (`rewind import`): the agent's own, made as the agent makes it.
    fs.mkdirSync(path.dirname(rebuilt.file), { recursive: true, mode: 0o700 });
    // A new file, named by a new id: written whole (a piece at a time, as it is made) before the agent is told of it.
    const fd = fs.openSync(rebuilt.file, 'wx', 0o600);
    made = true;
    try {
      for (const piece of rebuilt.content) {
        const bytes = Buffer.from(piece, 'utf8');
        for (let written = 0; written < bytes.length; ) written += fs.writeSync(fd, bytes, written, bytes.length - written);
      }
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    // Only a file this call made goes (never one that stood there first).
    if (made) fs.rmSync(rebuilt.file, { force: true });
    throw new UserError(`the rebuilt conversation could not be written as ${rebuilt.file} (${messageOf(error)}): nothing was changed`, { cause: error });
  }
  return () => fs.rmSync(rebuilt.file, { force: true });
}

/** How withRebuiltConversation goes: `write` false (a dry run) rebuilds and writes nothing;
 * `newest` (the newest checkpoint's id, once it is done) notes the restore made, for the
 * picker's count of the turns a later one drops. */
export interface RebuildOptions {
  write?: boolean;
  newest?: () => number | undefined;
}

/**
 * The one transaction of a restore that takes the conversation back, in the app and on the
 * command line alike: the conversation of `record` rebuilt and written as a new session
 * file, then `apply` (the files' restore, when it goes with it); if `apply` fails, that file
 * goes again. A conversation that cannot be rebuilt or written changes nothing at all.
 */
export async function withRebuiltConversation<T>(
  guard: AdapterGuard,
  record: KeptConversation,
  store: ConversationStore,
  apply: (rebuilt: RebuiltConversation) => Promise<T>,
  options: RebuildOptions = {},
): Promise<{ rebuilt: RebuiltConversation; applied: T }> {
  const write = options.write ?? true;
  const rebuilt = await rebuildConversation(guard, record, store);
  const unwrite = write ? writeConversation(rebuilt) : () => undefined;
  let applied: T;
  try {
    applied = await apply(rebuilt);
  } catch (error) {
    unwrite();
    throw error;
  }
  if (write && options.newest) noteConversationRestored(store.dir, record.id, options.newest);
  return { rebuilt, applied };
}

/** A conversation restored from the command line: the new session's file, and how to go on in it. */
export interface RestoredConversation {
  agent: string;
  /** The new session's file (none written when no message was left). */
  file: string | null;
  session: string | null;
  messages: number;
  /** The command that resumes it (`claude --resume <id>`); the agent afresh when it is empty. */
  resume: string[];
}

/**
 * The conversation of checkpoint `record` rebuilt by the adapter of the agent that kept it,
 * for a command line (no app, no agent running): it is rebuilt and written first, then
 * `apply` runs (the files' restore, for --both; the new session file goes again if that
 * fails), so a conversation that cannot be rebuilt or written changes nothing at all. `dryRun`: rebuilt and described, not written.
 */
export async function restoreConversationAlone(
  record: KeptConversation,
  engine: { conversationsDir: string; newest?: () => number | undefined },
  warn: (message: string) => void,
  apply: () => Promise<void>,
  dryRun = false,
): Promise<RestoredConversation> {
  const ref = record.conversation as ConversationRef | null;
  const agent = ref ? agentNamed(ref.agent) : undefined;
  if (!ref || !agent || agent.name !== ref.agent) {
    throw new UserError(`checkpoint #${record.id} kept no conversation rewind can restore (only checkpoints before an agent's steps keep one): restore its files only (--files)`);
  }
  const guard = new AdapterGuard(agent, warn);
  let resumeArgs: string[] = [];
  const { rebuilt } = await withRebuiltConversation(
    guard,
    record,
    conversationStoreOf(engine),
    (made) => {
      // Known before the files change, through the guard (a failing adapter: the agent's plain command, said on stderr).
      resumeArgs = guard.call('the command that resumes it', (adapter) => adapter.conversation?.resumeArgs([], made.session) ?? [], () => []);
      return apply();
    },
    { write: !dryRun, newest: engine.newest },
  );
  const command = agent.conversation?.command ?? agent.name;
  return {
    agent: agent.name,
    file: rebuilt.session === undefined ? null : rebuilt.file,
    session: rebuilt.session ?? null,
    messages: rebuilt.messages,
    resume: [command, ...resumeArgs],
  };
}
