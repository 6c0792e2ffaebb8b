// Runs an agent offline: in its own network namespace, where loopback is the only network
// and 127.0.0.1:<port> leads to the fake model (through bridge.mjs). Telemetry, update
// checks or a forgotten base URL then fail at once instead of leaving the machine.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { FakeModel } from '../fakeModel/server.js';

const bridge = path.join(import.meta.dirname, 'bridge.mjs');

export interface Command {
  command: string;
  args: string[];
}

let checked: string | undefined;

/** Fails with what to install or allow when this machine cannot make a network namespace. */
export function requireJail(): void {
  checked ??= probe();
  if (checked) throw new Error(checked);
}

function probe(): string {
  try {
    execFileSync('unshare', [...namespaceFlags(), '--', 'ip', 'link', 'set', 'lo', 'up'], { stdio: ['ignore', 'ignore', 'pipe'], env: { PATH: `${process.env.PATH ?? ''}:/usr/sbin:/sbin` } });
    return '';
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    return `The agent tests run each agent in its own network namespace (\`unshare -n\` from util-linux, \`ip\` from iproute2, as root or with user namespaces allowed); that failed here: ${stderr || String(error)}`;
  }
}

/** Root can make a network namespace directly; anyone else needs a user namespace around it. */
function namespaceFlags(): string[] {
  return process.getuid?.() === 0 ? ['--net'] : ['--user', '--map-root-user', '--net'];
}

/** `command args` wrapped to run offline, reaching only `model` (at the same 127.0.0.1 port). */
export function offline(model: FakeModel, { command, args }: Command): Command {
  requireJail();
  return { command: 'unshare', args: [...namespaceFlags(), '--', process.execPath, bridge, String(model.port), model.socketPath, '--', command, ...args] };
}
