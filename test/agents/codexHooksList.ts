// The real Codex's own word on the hooks it was given: `codex app-server` (its JSON-RPC
// over stdio, the protocol its IDE clients speak), `initialize` then `hooks/list`, which
// reports each hook's key, the hash Codex computes for it, and how it stands (trusted,
// untrusted, modified). A test tool only: app-server writes into CODEX_HOME (skills, logs),
// which `rewind doctor` must not do.
import { spawn } from 'node:child_process';
import type { Invocation } from './harness.js';

/** One hook as Codex lists it (the fields Rewind's reading of its trust is checked against). */
export interface ListedHook {
  key: string;
  command?: string;
  enabled: boolean;
  currentHash: string;
  trustStatus: 'managed' | 'untrusted' | 'trusted' | 'modified';
}

/** The hooks `run` (a `codex app-server …` invocation) lists for `cwd`, once it has exited; fails after `timeoutMs`. */
export function listHooks(run: Invocation, cwd: string, timeoutMs = 30_000): Promise<ListedHook[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(run.command, run.args, { cwd: run.cwd, env: run.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let listed: ListedHook[] | undefined;
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`codex app-server: no hooks/list answer in ${timeoutMs} ms\nstderr: ${err}`));
    }, timeoutMs);
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      for (let end = out.indexOf('\n'); end >= 0; end = out.indexOf('\n')) {
        const message = JSON.parse(out.slice(0, end)) as { id?: number; method?: string; result?: { data: { hooks: ListedHook[] }[] }; error?: unknown };
        out = out.slice(end + 1);
        // Its notifications and requests of its own (they carry a method) are not answers.
        if (message.method !== undefined) continue;
        if (message.error !== undefined) err += `\nanswer: ${JSON.stringify(message.error)}`;
        if (message.id === 1 && message.error === undefined) send({ id: 2, method: 'hooks/list', params: { cwds: [cwd] } });
        else if (message.id !== undefined) {
          listed = message.result?.data.flatMap((entry) => entry.hooks);
          // Closing its input ends it: the test goes on once it is gone.
          child.stdin.end();
        }
      }
    });
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      if (listed) resolve(listed);
      else reject(new Error(`codex app-server listed no hooks\nstderr: ${err}`));
    });
    send({ id: 1, method: 'initialize', params: { clientInfo: { name: 'rewind-tests', version: '0' } } });
  });
}
