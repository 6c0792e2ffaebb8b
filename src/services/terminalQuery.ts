// Asking the user's terminal something it answers on its input (device attributes, colours,
// keyboard flags): in raw mode (the answers must not be echoed or wait for Enter), with a
// deadline (a terminal that answers nothing must not hang the caller), the mode and the
// stream's flow put back after.
import type { ReadStream, WriteStream } from 'node:tty';

/**
 * Writes `query` to `stdout` and reads `stdin` until `read` makes something of what came
 * (one character per byte), or `deadlineMs` passed (undefined).
 */
export function queryTerminal<T>(stdin: ReadStream, stdout: WriteStream, query: string, read: (received: string) => T | undefined, deadlineMs: number): Promise<T | undefined> {
  const wasRaw = stdin.isRaw;
  let came = '';
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    let done = false;
    const finish = (answer: T | undefined) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      stdin.off('data', onData);
      stdin.pause();
      try {
        stdin.setRawMode(wasRaw);
      } catch {
        // The terminal went away meanwhile: there is no mode left to put back.
      }
      resolve(answer);
    };
    const onData = (chunk: Buffer) => {
      came += chunk.toString('latin1');
      const answer = read(came);
      if (answer !== undefined) finish(answer);
    };
    try {
      stdin.setRawMode(true);
      stdin.on('data', onData);
      stdin.resume();
      timer = setTimeout(() => finish(undefined), deadlineMs);
      stdout.write(query);
    } catch {
      finish(undefined);
    }
  });
}
