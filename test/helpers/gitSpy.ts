// A `git` first on PATH that does something of its own (writes down what it runs, waits)
// and then runs the real git: a spy on the git processes Rewind starts, not a mock of them.
import fs from 'node:fs';
import path from 'node:path';

/** The environment that puts, first on PATH, a `git` (in `dir`/bin) running the sh `body` (with git's arguments as "$@") before the real git. */
export function gitFirstOnPath(dir: string, body: string): { PATH: string } {
  const bin = path.join(dir, 'bin');
  const real = (process.env.PATH ?? '').split(path.delimiter).map((folder) => path.join(folder, 'git')).find((file) => fs.existsSync(file));
  if (!real) throw new Error('no git on PATH');
  fs.mkdirSync(bin, { recursive: true });
  fs.writeFileSync(path.join(bin, 'git'), `#!/bin/sh\n${body}\nexec '${real}' "$@"\n`, { mode: 0o755 });
  return { PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` };
}
