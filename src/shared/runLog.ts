// REWIND_LOG=<file>: one line per thing Rewind did (a checkpoint, a hook call, a restore, a
// retention pass), with how long it took, appended to that file by every Rewind process (the
// app, the commands, the hooks). Names, ids, counts and times only: never a file's content
// nor a transcript's. Writing it never fails what it describes.
import fs from 'node:fs';

export type LogFields = Record<string, string | number | boolean | null | undefined>;

function value(field: string | number | boolean | null): string {
  const text = String(field);
  return /^[^\s"=]+$/.test(text) ? text : JSON.stringify(text);
}

/** Appends one line to `$REWIND_LOG`, if it is set: the time, this process, `what`, then `fields`. */
export function logLine(env: NodeJS.ProcessEnv, what: string, fields: LogFields): void {
  const file = env.REWIND_LOG;
  if (!file) return;
  const parts = Object.entries(fields)
    .filter((entry): entry is [string, string | number | boolean | null] => entry[1] !== undefined)
    .map(([key, field]) => `${key}=${value(field)}`);
  try {
    fs.appendFileSync(file, `${new Date().toISOString()} pid=${process.pid} ${what} ${parts.join(' ')}`.trimEnd().concat('\n'), { mode: 0o600 });
  } catch {
    // A log that cannot be written costs nothing else.
  }
}

/** Runs `work`, then logs `what` with `fields`, what `describe` says of its result (or the error), and the milliseconds it took. */
export async function logged<T>(env: NodeJS.ProcessEnv, what: string, fields: LogFields, work: () => Promise<T>, describe: (result: T) => LogFields = () => ({})): Promise<T> {
  if (!env.REWIND_LOG) return work();
  const started = performance.now();
  try {
    const result = await work();
    logLine(env, what, { ...fields, ...describe(result), ms: Math.round(performance.now() - started), result: 'ok' });
    return result;
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    logLine(env, what, { ...fields, ms: Math.round(performance.now() - started), result: 'failed', error: message });
    throw error;
  }
}
