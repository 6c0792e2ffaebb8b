import { messageOf } from '../../shared/errors.js';
import { firstTextLine } from '../../shared/format.js';
import { runProcess } from './git.js';
import { shadowGitEnv } from './gitEnv.js';

/**
 * What the git at `file` (a full path) says its version is, its first line, asked as Rewind
 * runs every git (the allowlisted environment, a deadline, a process group), or why it said
 * nothing.
 */
export async function gitVersionLine(file: string, env: NodeJS.ProcessEnv, timeoutMs = 10_000): Promise<{ line: string } | { error: string }> {
  try {
    const line = firstTextLine((await runProcess(file, ['--version'], { cwd: '/', env: shadowGitEnv(env), timeoutMs })).stdout.toString('utf8'));
    return line ? { line } : { error: 'printed nothing' };
  } catch (error) {
    return { error: firstTextLine(messageOf(error)) ?? 'failed' };
  }
}
