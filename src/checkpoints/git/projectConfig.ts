import path from 'node:path';
import { homeDir } from '../../config/paths.js';
import { splitNul } from './git.js';
import { runProjectGit } from './projectGit.js';
import type { Project } from './project.js';

/** The few settings of the user's git (project, global, system) that shape what a checkpoint holds. */
export interface ProjectGitConfig {
  /** core.autocrlf is true or input: the project's blobs may be converted from the bytes on disk. */
  autocrlf: boolean;
  /** The global excludes file `git status` reads (core.excludesFile or git's XDG default). */
  excludesFile: string;
  /** The global attributes file (core.attributesFile or git's XDG default). */
  attributesFile: string;
}

/** The query (`git` arguments, run in the project folder with projectGitEnv). */
export const projectConfigQuery = ['config', '-z', '--type=path', '--get-regexp', '^core\\.(autocrlf|attributesfile|excludesfile)$'];

/**
 * A reader of them that asks git (one process, as `git` in the project folder sees them)
 * at most once: one snapshot needs the answer in two places. `asked`: the query's output
 * from a process started earlier (undefined output: it failed, so git's defaults apply).
 */
export function onceProjectGitConfig(project: Project, env: NodeJS.ProcessEnv, asked?: Promise<Buffer | undefined>): () => Promise<ProjectGitConfig> {
  let answer: Promise<ProjectGitConfig> | undefined;
  return () => (answer ??= (asked ?? queryProjectGitConfig(project, env)).then((output) => parseProjectGitConfig(output, project, env)));
}

async function queryProjectGitConfig(project: Project, env: NodeJS.ProcessEnv): Promise<Buffer | undefined> {
  const result = await runProjectGit(project.root, env, projectConfigQuery, { okCodes: [0, 1], timeoutMs: 10_000 }).catch(() => undefined);
  return result?.stdout;
}

function parseProjectGitConfig(output: Buffer | undefined, project: Project, env: NodeJS.ProcessEnv): ProjectGitConfig {
  const values = new Map<string, string>();
  for (const record of output ? splitNul(output) : []) {
    const newline = record.indexOf('\n');
    if (newline > 0) values.set(record.slice(0, newline).toLowerCase(), record.slice(newline + 1));
  }
  const xdg = env.XDG_CONFIG_HOME || path.join(homeDir(env), '.config');
  const resolve = (value: string | undefined, fallback: string) => (value ? path.resolve(project.root, value) : fallback);
  return {
    autocrlf: ['true', 'input'].includes((values.get('core.autocrlf') ?? '').toLowerCase()),
    excludesFile: resolve(values.get('core.excludesfile'), path.join(xdg, 'git', 'ignore')),
    attributesFile: resolve(values.get('core.attributesfile'), path.join(xdg, 'git', 'attributes')),
  };
}
