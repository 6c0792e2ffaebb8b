import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../../shared/errors.js';
import { homeDir } from '../../config/paths.js';

/** The folder Rewind checkpoints, and the user's git repository around it, if any. */
export interface Project {
  /** Real path of the work tree root: the git top level, or the folder itself. */
  root: string;
  /** The project's own git: where its index and HEAD live (`git rev-parse --git-dir`)
   * and its shared object store (`--git-common-dir`). Absent outside git. */
  git?: { gitDir: string; commonDir: string };
}

function readGitFile(dotGit: string): string | undefined {
  const content = fs.readFileSync(dotGit, 'utf8');
  const match = /^gitdir: (.+)$/m.exec(content);
  return match?.[1] ? path.resolve(path.dirname(dotGit), match[1].trim()) : undefined;
}

/** The git dir behind a `.git` entry (a folder, or a file as in worktrees and submodules). */
export function gitDirOf(dotGit: string): string | undefined {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(dotGit);
  } catch {
    return undefined;
  }
  const gitDir = stat.isDirectory() ? dotGit : stat.isFile() ? readGitFile(dotGit) : undefined;
  if (!gitDir || !fs.existsSync(path.join(gitDir, 'HEAD'))) return undefined;
  return fs.realpathSync(gitDir);
}

export function commonDirOf(gitDir: string): string {
  try {
    const relative = fs.readFileSync(path.join(gitDir, 'commondir'), 'utf8').trim();
    return fs.realpathSync(path.resolve(gitDir, relative));
  } catch {
    return gitDir;
  }
}

function isOffLimits(dir: string, env: NodeJS.ProcessEnv): boolean {
  let home: string;
  try {
    home = fs.realpathSync(homeDir(env));
  } catch {
    home = homeDir(env);
  }
  return dir === path.parse(dir).root || dir === home;
}

/**
 * Finds the project for a folder: the nearest enclosing git work tree (read from the
 * `.git` entry itself, no git process), else the folder. A repository at `$HOME` or `/`
 * (dotfiles) does not swallow the projects inside it: they stand alone.
 * Refuses `$HOME` and `/` themselves unless `allowHome` is set.
 */
export function findProject(start: string, options: { allowHome?: boolean; env?: NodeJS.ProcessEnv } = {}): Project {
  const env = options.env ?? process.env;
  let dir: string;
  try {
    dir = fs.realpathSync(start);
  } catch (error) {
    throw new UserError(`${start} does not exist: run rewind in your project folder or pass -C DIR`, { cause: error });
  }
  if (!fs.statSync(dir).isDirectory()) throw new UserError(`${start} is not a folder: pass the project folder with -C DIR`);
  const folder = dir;
  let found: Project | undefined;
  for (let current = dir; ; current = path.dirname(current)) {
    const gitDir = gitDirOf(path.join(current, '.git'));
    if (gitDir) {
      found = { root: current, git: { gitDir, commonDir: commonDirOf(gitDir) } };
      break;
    }
    if (path.dirname(current) === current) break;
  }
  if (found && isOffLimits(found.root, env) && found.root !== folder) found = { root: folder };
  const project = found ?? { root: folder };
  if (!options.allowHome && isOffLimits(project.root, env)) {
    throw new UserError(`refusing to checkpoint ${project.root}: it is your home folder or the file system root; run rewind inside a project folder (or pass --allow-home if you really mean it)`);
  }
  return project;
}
