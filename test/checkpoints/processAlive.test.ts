// Who counts as alive when a lock or a background walk names a process.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { isAlive, processStartTime } from '../../src/os/processAlive.js';
import { waitFor } from '../helpers/waitFor.js';

describe('isAlive', () => {
  it('is false for a zombie: a process that ended but that no one reaped (as under an init that reaps nothing)', async () => {
    // The child ends when it reads a byte, sent once its parent has become `sleep`, which never
    // waits for it (ended any earlier, the shell could reap it before the exec).
    // Its byte comes on fd 3: a shell gives a background command /dev/null for its stdin.
    const parent = spawn('sh', ['-c', 'head -c 1 <&3 >/dev/null & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore', 'pipe'] });
    try {
      const out = parent.stdio[1] as Readable;
      const control = parent.stdio[3] as Writable;
      const pid = await new Promise<number>((resolve) => out.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))));
      await waitFor(() => fs.readFileSync(`/proc/${parent.pid}/comm`, 'utf8') === 'sleep\n', 5_000, 'the parent to become sleep');
      control.write('x');
      await waitFor(() => fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z') === true, 5_000, 'the child to be a zombie');
      expect(isAlive({ pid, host: os.hostname() })).toBe(false);
      expect(isAlive({ pid: parent.pid!, host: os.hostname(), start: processStartTime(parent.pid!) })).toBe(true);
    } finally {
      parent.kill('SIGKILL');
    }
  });
});
