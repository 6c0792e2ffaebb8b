/**
 * How many terminal cells `text` takes: the emulator's own table (Unicode 11, see
 * pty/cellWidth.ts), so Rewind's rows measure text as the agent's screen lays it out. Cheap
 * to load: the bottom row is drawn before Ink is.
 */
export { cellWidth } from '../pty/cellWidth.js';
