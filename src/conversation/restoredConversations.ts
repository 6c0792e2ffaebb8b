// The conversation restores made in a project (conv/restores.jsonl, one JSON line each): how
// the picker knows which turns its agent's conversation still holds once one has been cut.
import fs from 'node:fs';
import path from 'node:path';
import type { ConversationRestored } from '../shared/conversation.js';

const fileOf = (dir: string): string => path.join(dir, 'restores.jsonl');

/**
 * Notes that the conversation of checkpoint `to` was brought back, `newest` the newest
 * checkpoint now; best effort (the restore is made whatever happens here).
 */
export function noteConversationRestored(dir: string, to: number, newest: () => number | undefined): void {
  try {
    const made: ConversationRestored = { to, after: newest() ?? to };
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.appendFileSync(fileOf(dir), `${JSON.stringify(made)}\n`, { mode: 0o600 });
  } catch {
    // Without it the picker counts turns as if none had been made.
  }
}

const isId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0;

/** The conversation restores made, oldest first (none when the file is missing or unreadable; a damaged line is skipped). */
export function conversationRestores(dir: string): ConversationRestored[] {
  let text: string;
  try {
    text = fs.readFileSync(fileOf(dir), 'utf8');
  } catch {
    return [];
  }
  const made: ConversationRestored[] = [];
  for (const line of text.split('\n')) {
    try {
      const parsed = JSON.parse(line) as { to?: unknown; after?: unknown };
      if (isId(parsed.to) && isId(parsed.after)) made.push({ to: parsed.to, after: parsed.after });
    } catch {
      // An empty or half-written line.
    }
  }
  return made;
}
