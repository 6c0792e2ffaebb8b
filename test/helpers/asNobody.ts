// The built CLI run as an unprivileged user (uid/gid 65534), for what root would get past
// (files it may not read, folders it may not write). The files it must reach are the test's
// to hand over (chown).
import { execFileSync } from 'node:child_process';
import { requireBuiltCli } from './restoreKit.js';

export interface NobodyResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `rewind ...args` in `cwd` with exactly `env`, as uid 65534 (setpriv). */
export function asNobody(cwd: string, env: NodeJS.ProcessEnv, args: readonly string[]): NobodyResult {
  const cli = requireBuiltCli();
  try {
    const stdout = execFileSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, cli, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    return { code: 0, stdout: stdout.toString(), stderr: '' };
  } catch (error) {
    const failed = error as { status?: number | null; stdout?: Buffer; stderr?: Buffer };
    if (typeof failed.status !== 'number') throw error;
    return { code: failed.status, stdout: failed.stdout?.toString() ?? '', stderr: failed.stderr?.toString() ?? '' };
  }
}
