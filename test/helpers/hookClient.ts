// The POSIX hook client (dist/hooks/rewind-hook.sh) run as an agent runs it: payload on
// stdin, to its end.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from './restoreKit.js';

export const hookClient = path.join(repoRoot, 'dist', 'hooks', 'rewind-hook.sh');

export interface HookRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `sh rewind-hook.sh ...args` in `cwd` with `payload` on stdin and only PATH beside `env`. */
export function runHookClient(args: string[], payload: Buffer | string, env: NodeJS.ProcessEnv, cwd: string): Promise<HookRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', [hookClient, ...args], { cwd, env: { PATH: process.env.PATH, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.on('error', () => undefined);
    child.stdin.end(payload);
  });
}
