// The conversation the restore tests play: two prompts, each with a tool step, then a third
// that shows what the agent was resumed with.
import type { Script } from './fakeModel/script.js';

export const first = 'First prompt: write a';
export const second = 'Second prompt: make b';
export const third = 'Third prompt: what is there';
export const conversationScripts = (root: string): Script[] => [
  { prompt: 'First prompt', root, steps: [{ tool: 'write', path: 'a.txt', content: 'one\n' }, { text: 'Wrote a.' }] },
  { prompt: 'Second prompt', root, steps: [{ tool: 'shell', command: 'echo two > b.txt' }, { text: 'Made b.' }] },
  { prompt: 'Third prompt', root, steps: [{ text: 'Only a is there.' }] },
];

/** The text of every message the model was sent in a request's body. */
export const sentText = (body: unknown) => JSON.stringify((body as { messages?: unknown }).messages ?? []);
