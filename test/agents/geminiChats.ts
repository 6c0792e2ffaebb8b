// Gemini CLI's session files as the conversation tests read them.
import fs from 'node:fs';
import path from 'node:path';
import type { AgentSetup } from './harness.js';

/** The text of every content the model was sent in a Gemini request's body. */
export const sentContents = (body: unknown) => JSON.stringify((body as { contents?: unknown }).contents ?? []);

/** The user's chats folder of the project, and the session files there that hold `text`. */
export function geminiChats(setup: AgentSetup): { dir: string; holding: (text: string) => string[] } {
  const tmp = path.join(setup.configDirs[0] ?? '', '.gemini', 'tmp');
  const dir = path.join(tmp, fs.readdirSync(tmp).find((name) => fs.existsSync(path.join(tmp, name, 'chats'))) ?? '', 'chats');
  const holding = (text: string) => fs.readdirSync(dir).filter((file) => file.endsWith('.jsonl') && fs.readFileSync(path.join(dir, file), 'utf8').includes(text));
  return { dir, holding };
}
