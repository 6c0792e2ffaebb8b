// Who counts as alive when a lock or a background walk names a process.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { isAlive, processStartTime } from '../../src/checkpoints/processAlive.js';
import { waitFor } from '../helpers/waitFor.js';

describe('isAlive', () => {
  it('is false for a zombie: a process that ended but that no one reaped (as under an init that reaps nothing)', async () => {
    // `true` ends at once; its parent becomes `sleep`, which never waits for it.
    const parent = spawn('sh', ['-c', 'true & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const pid = await new Promise<number>((resolve) => parent.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))));
      await waitFor(() => fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z') === true, 5_000, 'the child to be a zombie');
      expect(isAlive({ pid, host: os.hostname() })).toBe(false);
      expect(isAlive({ pid: parent.pid!, host: os.hostname(), start: processStartTime(parent.pid!) })).toBe(true);
    } finally {
      parent.kill('SIGKILL');
    }
  });
});
