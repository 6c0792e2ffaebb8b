// When Codex's TUI (the pinned release) fires SessionStart: not as it starts or resumes and
// shows its composer, but with the first prompt, just before that prompt's UserPromptSubmit.
// So SessionStart cannot say that Codex is back at its prompt after a conversation restore
// (Rewind's held restore notice waits for a key or for its screen to go quiet instead), and
// Rewind does not register it: one more hook would only make every user trust Rewind's hooks
// again. Were a release to fire it at start, this fails: register it then (idle, as Gemini's).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInPty } from '../helpers/term.js';
import { waitFor } from '../helpers/waitFor.js';
import { codexSetup, createWorld, recordingHooks, type AgentWorld } from './harness.js';
import { readHookRecords } from './hookRecords.js';
import { stopTui } from './proof.js';

const first = 'Say hello';
const again = 'Say hello again';

/** When a record.sh call began, in ms (its folder is named `<ns since the epoch>-<pid>`). */
const startedAt = (name: string) => Number(BigInt(name.split('-')[0] ?? '0') / 1_000_000n);

describe('codex SessionStart', () => {
  let world: AgentWorld;
  let out: string;
  beforeAll(async () => {
    world = await createWorld((root) => [
      { prompt: again, root, steps: [{ text: 'Hello again.' }] },
      { prompt: first, root, steps: [{ text: 'Hello.' }] },
    ]);
    out = path.join(world.sandbox.base, 'records');
  });
  afterAll(async () => {
    await world?.close();
  });

  /** Codex with `extra` args, one prompt: the source of each SessionStart, and whether it came after Enter and before the prompt's UserPromptSubmit. */
  async function promptOnce(extra: string[], prompt: string, answer: string): Promise<{ text: string; calls: { event: string; source: unknown; afterEnter: boolean }[] }> {
    const hooks = recordingHooks('codex', out, world.root, [{ event: 'SessionStart' }, { event: 'UserPromptSubmit' }, { event: 'Stop' }]);
    const base = codexSetup(world, { hooks, hookTrust: 'bypass' }).interactive();
    const session = startInPty(base.command, [...base.args, ...extra], { cwd: base.cwd, env: base.env, cols: 200, rows: 32 }, 'codex');
    const seen = readHookRecords(out).length;
    try {
      await session.waitFor(/Ask Codex to do anything/, 60_000, 'the composer');
      session.write(prompt);
      await session.waitFor((screen) => screen.includes(prompt), 5_000, 'the typed prompt');
      const enter = Date.now();
      session.write('\r');
      await session.waitFor((screen) => screen.includes(answer), 30_000, 'the answer');
      await waitFor(() => readHookRecords(out).slice(seen).some((record) => record.event === 'Stop'), 30_000, 'the Stop hook');
      const names = fs.readdirSync(out).filter((name) => !name.startsWith('.')).sort().slice(seen);
      const records = readHookRecords(out).slice(seen);
      session.write('/quit');
      await session.waitFor((screen) => screen.includes('/quit'), 5_000, 'the typed command');
      session.write('\r');
      await session.exited;
      return { text: session.text(), calls: records.map((record, i) => ({ event: record.event, source: record.payload.source, afterEnter: startedAt(names[i] ?? '') >= enter })) };
    } catch (error) {
      throw new Error(`${String(error)}\nscreen:\n${session.text()}`, { cause: error });
    } finally {
      await stopTui(session);
    }
  }

  it('fires only with the first prompt, as it starts and as it resumes, right before UserPromptSubmit', { timeout: 180_000 }, async () => {
    const started = await promptOnce([], first, 'Hello.');
    expect(started.calls).toEqual([
      { event: 'SessionStart', source: 'startup', afterEnter: true },
      { event: 'UserPromptSubmit', source: undefined, afterEnter: true },
      { event: 'Stop', source: undefined, afterEnter: true },
    ]);
    const id = /codex resume ([0-9a-f-]{36})/.exec(started.text)?.[1];
    expect(id, started.text).toBeDefined();
    const resumed = await promptOnce(['resume', id ?? ''], again, 'Hello again.');
    expect(resumed.calls).toEqual([
      { event: 'SessionStart', source: 'resume', afterEnter: true },
      { event: 'UserPromptSubmit', source: undefined, afterEnter: true },
      { event: 'Stop', source: undefined, afterEnter: true },
    ]);
  });
});
