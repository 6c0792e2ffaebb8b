// The programs doctor asks about: found on PATH, and what they say their version is.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { firstTextLine } from '../../shared/format.js';

/** The executable `name` on `env.PATH`, as a shell would find it; undefined when there is none. */
export function onPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const file = path.join(dir, name);
    try {
      if (fs.statSync(file).isFile()) {
        fs.accessSync(file, fs.constants.X_OK);
        return file;
      }
    } catch {
      // Not here.
    }
  }
  return undefined;
}

/** What `file --version` prints (its first line), or why it printed nothing (bounded: a program that hangs is stopped). */
export function versionOf(file: string, env: NodeJS.ProcessEnv, timeoutMs = 10_000): Promise<{ line: string } | { error: string }> {
  return new Promise((resolve) => {
    execFile(file, ['--version'], { env, timeout: timeoutMs, killSignal: 'SIGKILL', encoding: 'utf8' }, (error, stdout) => {
      const line = firstTextLine(stdout);
      if (line) resolve({ line });
      else resolve({ error: error ? (error.killed ? `no answer to --version in ${timeoutMs / 1000} s` : firstTextLine(error.message) ?? 'failed') : 'printed nothing' });
    });
  });
}
