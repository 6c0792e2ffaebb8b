// What the user's terminal answers to Rewind's own questions (its colours, its kitty keyboard
// flags and its name, asked as the app starts; device attributes after them) comes on its
// input, where keys come. An answer that
// arrives after its question's deadline would reach the agent as typed text: no key and no
// paste a user makes looks like one, so they are taken out of the input whenever they come.

/** Primary device attributes (DA1): nearly every terminal answers it, so it is asked last and its answer ends the wait. */
export const DA1_QUERY = '\x1b[c';
// eslint-disable-next-line no-control-regex -- the answers start with ESC
export const DA1_ANSWER = /\x1b\[\?[\d;]*c/;

// eslint-disable-next-line no-control-regex -- the answers start with ESC
export const terminalAnswers = /\x1b\](?:1[0-2]|4;\d{1,3});(?:rgba?:[0-9a-fA-F/.]{1,40}|#[0-9a-fA-F]{3,12})(?:\x07|\x1b\\)|\x1b\[\?[\d;]{1,40}c|\x1b\[\?\d{1,3}u|\x1bP>\|[^\x07\x1b]{0,200}\x1b\\/g;

/** `chunk` of the terminal's input without the terminal's answers to Rewind's queries (colours, kitty flags, XTVERSION, device attributes). */
export function withoutTerminalAnswers(chunk: Buffer): Buffer {
  const text = chunk.toString('latin1');
  if (!text.includes('\x1b')) return chunk;
  const kept = text.replace(terminalAnswers, '');
  return kept.length === text.length ? chunk : Buffer.from(kept, 'latin1');
}
