// A reader that stops reading (`rewind list | head -1`, `rewind show 2 | true`) closes the pipe
// under the command: the built CLI finishes as it would, exit 0, without a stack trace.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rewind } from '../helpers/io.js';
import { builtCli, requireBuiltCli } from '../helpers/restoreKit.js';
import { createSandbox, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  requireBuiltCli();
  sb = createSandbox('rewind-closed-pipe-');
});
afterEach(() => sb.cleanup());

/** Runs the built CLI with its stdout's reading end closed before it writes a byte. */
function withStdoutClosed(args: string[], cwd: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [builtCli, ...args], { cwd, env: sb.env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('a closed stdout', () => {
  it.each([['list'], ['show', '2'], ['diff', '1']])('`rewind %s` finishes quietly, exit 0', async (...args) => {
    const root = sb.repo('closed');
    for (let step = 0; step < 3; step++) {
      fs.appendFileSync(path.join(root, 'notes.txt'), `step ${step}\n${'more text\n'.repeat(2000)}`);
      expect(await rewind(['snapshot', '--label', `step ${step}`], sb.env, root)).toMatchObject({ code: 0 });
    }
    expect(await withStdoutClosed(args, root)).toEqual({ code: 0, stderr: '' });
  });
});
