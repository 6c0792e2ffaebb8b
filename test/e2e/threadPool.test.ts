// The app runs with 16 of libuv's threads (a restore's syncs run side by side on them: see
// scripts/postbuild.mjs), and the agent it starts never sees the variable that asked for
// them; a UV_THREADPOOL_SIZE the user set is theirs, kept for Rewind and the agent alike.
import { describe, expect, it } from 'vitest';
import { startRewind, terminalSandbox } from '../helpers/term.js';

const terminals = terminalSandbox('rewind-thread-pool-');

/** What the agent sees: the variable, and how many threads its parent (the Rewind process) runs. */
async function seenByAgent(env: NodeJS.ProcessEnv): Promise<{ pool: string; threads: number }> {
  const report = 'echo "pool=[${UV_THREADPOOL_SIZE-unset}] threads=$(ls /proc/$PPID/task | wc -l)"; sleep 30';
  const session = terminals.track(startRewind(['--', 'sh', '-c', report], { cwd: terminals.sb.repo('p'), env: { ...terminals.sb.env, ...env }, cols: 100, rows: 20 }));
  await session.waitFor(/pool=\[[^\]]*\] threads=\d+/, 20_000, "the agent's report");
  const [, pool = '', threads = ''] = /pool=\[([^\]]*)\] threads=(\d+)/.exec(session.text()) ?? [];
  return { pool, threads: Number(threads) };
}

describe.runIf(process.platform === 'linux')("the app's thread pool", () => {
  it('16 threads for Rewind; the agent is started without UV_THREADPOOL_SIZE', async () => {
    const seen = await seenByAgent({});
    expect(seen.pool).toBe('unset');
    // Node's own threads (the main one, V8's, node-pty's) and the pool's 16: with Node's 4, about 12 in all.
    expect(seen.threads).toBeGreaterThan(16);
  });

  it("the user's UV_THREADPOOL_SIZE is kept, for Rewind and the agent", async () => {
    const seen = await seenByAgent({ UV_THREADPOOL_SIZE: '4' });
    expect(seen.pool).toBe('4');
    expect(seen.threads).toBeLessThan(16);
  });
});
