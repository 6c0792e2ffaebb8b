import { messageOf } from '../../shared/errors.js';
import { runGit, text } from './git.js';
import { shadowGitEnv } from './gitEnv.js';

/**
 * The first line `git --version` prints, asked as Rewind runs every git (the allowlisted
 * environment, a deadline, a process group), or why it printed none.
 */
export async function gitVersionLine(env: NodeJS.ProcessEnv, timeoutMs = 10_000): Promise<{ line: string } | { error: string }> {
  try {
    const line = text(await runGit(['--version'], { cwd: '/', env: shadowGitEnv(env), timeoutMs })).split('\n')[0]?.trim();
    return line ? { line } : { error: 'printed nothing' };
  } catch (error) {
    return { error: messageOf(error).split('\n')[0] ?? 'failed' };
  }
}
