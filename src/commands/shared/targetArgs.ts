import path from 'node:path';
import type { ProjectCheckpoints } from '../../checkpoints/index.js';
import { UsageError, UserError } from '../../shared/errors.js';
import type { CommandIO } from './io.js';
import { openCheckpoints } from './open.js';

/**
 * A checkpoint id as typed: a plain positive decimal (`12`, or `#12` as rewind prints
 * them). Anything else (`0x1`, `+1`, `01`, ` 1`, `1e9`, `1.0`) is a usage error rather
 * than some other checkpoint.
 */
export function parseCheckpointId(raw: string | undefined, command: string): number {
  if (raw === undefined) throw new UsageError(`missing checkpoint id (see \`rewind ${command} --help\`; \`rewind list\` shows the ids)`);
  const digits = raw.startsWith('#') ? raw.slice(1) : raw;
  const id = Number(digits);
  if (!/^[1-9][0-9]*$/.test(digits) || !Number.isSafeInteger(id)) {
    throw new UsageError(`'${raw}' is not a checkpoint id: ids are whole numbers written plainly (1, 2, 3, …) as \`rewind list\` shows them`);
  }
  return id;
}

/**
 * Paths given on the command line (relative to `base`, where the user is) as
 * project-relative, '/'-separated paths; `.` or the project root itself is the whole
 * project (an empty list). An empty or blank path is a usage error (a script's empty
 * variable must not widen a restore to everything); a path outside the project is an error.
 */
export function projectPaths(checkpoints: ProjectCheckpoints, base: string, raw: readonly string[] | undefined, what: string): string[] {
  const paths: string[] = [];
  for (const file of raw ?? []) {
    if (file.trim() === '') throw new UsageError(`${what} got an empty path: name a file or folder (\`.\` for the whole project)`);
    const relative = path.relative(checkpoints.projectRoot, path.resolve(base, file));
    if (relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) throw new UserError(`${file} is outside the project ${checkpoints.projectRoot}`);
    if (relative === '') return [];
    paths.push(relative.split(path.sep).join('/'));
  }
  return [...new Set(paths)];
}

/** What `rewind diff` and `rewind show` are asked: `<id> [PATH...] [--name-status]`. */
export interface DiffTarget {
  checkpoints: ProjectCheckpoints;
  id: number;
  only: string[];
  /** git's options for it: colour (on a terminal, unless NO_COLOR) and the format. */
  format: string[];
}

/** Opens the project and reads a diff command's id, paths and format (an unknown id is said before anything about the paths). */
export async function openDiffTarget(io: CommandIO, command: string, values: { C?: string; 'name-status'?: boolean }, positionals: readonly string[]): Promise<DiffTarget> {
  const id = parseCheckpointId(positionals[0], command);
  const { checkpoints } = await openCheckpoints(io, values.C, { allowHome: true, keep: [id] });
  checkpoints.get(id);
  const only = projectPaths(checkpoints, path.resolve(io.cwd, values.C ?? '.'), positionals.slice(1), `rewind ${command}`);
  const color = (io.stdout as NodeJS.WriteStream).isTTY && !io.env.NO_COLOR ? '--color=always' : '--no-color';
  return { checkpoints, id, only, format: [color, values['name-status'] ? '--name-status' : '-p'] };
}
