// The demo's sandbox project: a small git repository for the demo agent to work on. (Its
// `git init` and first commit are the demo's own fixture, made as a user would make them.)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UserError } from '../shared/errors.js';
import { sandboxFiles } from './tasks.js';

export interface DemoPlace {
  /** The project the demo agent works on. */
  project: string;
  /** Where the demo agent keeps its conversations (outside the project). */
  agentHome: string;
}

/** Makes the sandbox: in `dir` (new or empty), else in a new temp folder. */
export function createDemoProject(dir: string | undefined, env: NodeJS.ProcessEnv): DemoPlace {
  let project: string;
  let agentHome: string;
  if (dir === undefined) {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'rewind-demo-'));
    project = path.join(base, 'demo-app');
    agentHome = path.join(base, 'demo-agent');
  } else {
    project = path.resolve(dir);
    if (fs.existsSync(project) && fs.readdirSync(project).length > 0) throw new UserError(`${project} is not empty: give \`rewind demo\` a new or empty folder, or none (it makes one in the temp folder)`);
    agentHome = path.join(os.tmpdir(), `rewind-demo-agent-${process.getuid?.() ?? 'user'}`);
  }
  fs.mkdirSync(project, { recursive: true });
  for (const [file, content] of Object.entries(sandboxFiles)) {
    fs.mkdirSync(path.dirname(path.join(project, file)), { recursive: true });
    fs.writeFileSync(path.join(project, file), content);
  }
  const gitEnv = { PATH: env.PATH ?? '/usr/bin:/bin', HOME: env.HOME ?? os.tmpdir(), GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'demo', GIT_AUTHOR_EMAIL: 'demo@localhost', GIT_COMMITTER_NAME: 'demo', GIT_COMMITTER_EMAIL: 'demo@localhost' };
  const git = (...args: string[]) => execFileSync('git', ['-c', 'core.hooksPath=/dev/null', '-c', 'commit.gpgSign=false', ...args], { cwd: project, env: gitEnv, stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'the demo app');
  return { project, agentHome };
}
