// Cuts and rebuilds on transcripts held in memory, their new file's text as one buffer: what
// the tests of a cut compare (the code reads and writes transcripts a line at a time).
import type { ConversationPoint } from '../../src/shared/conversation.js';
import type { ConversationSupport, RebuiltConversation } from '../../src/agents/agentAdapter.js';
import { bufferTranscript } from '../../src/shared/transcriptLines.js';

/** A new file's pieces as one buffer. */
export function written(content: Iterable<string>): Buffer {
  return Buffer.from([...content].join(''), 'utf8');
}

/** A cut (any agent's) of a transcript in memory, its content as one buffer. */
export function inMemory<P, R extends { content: Iterable<string> }>(cut: (captured: ReturnType<typeof bufferTranscript>, point: P, session: string, latest?: ReturnType<typeof bufferTranscript>) => R) {
  return (captured: Buffer, point: P, session: string, latest?: Buffer): Omit<R, 'content'> & { content: Buffer } => {
    const result = cut(bufferTranscript(captured), point, session, latest && bufferTranscript(latest));
    return { ...result, content: written(result.content) };
  };
}

/** `support.rebuild` on a transcript in memory, its content as one buffer. */
export function rebuiltFrom(support: ConversationSupport, captured: Buffer, point: ConversationPoint, latest?: Buffer): Omit<RebuiltConversation, 'content'> & { content: Buffer } {
  const rebuilt = support.rebuild(bufferTranscript(captured), point, latest && bufferTranscript(latest));
  return { ...rebuilt, content: written(rebuilt.content) };
}
