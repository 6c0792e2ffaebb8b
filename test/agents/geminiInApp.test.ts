// Gemini CLI (the pinned release) inside Rewind's app: Rewind adds its hooks through a Gemini
// home of its own (the user's settings plus the hooks, every other entry linked to theirs;
// no file of the user's edited), a route that works for any user, root or not. Then a
// checkpoint comes before the write_file, the replace and the shell command, labelled by
// tool and target, holding the tree right before each.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/waitFor.js';
import type { Script } from './fakeModel/script.js';
import { createWorld, geminiSetup } from './harness.js';
import { proofPrompt, proofScript } from './proof.js';
import { proveInApp, type InAppRun } from './inApp.js';
import { builtAdapter, proveStandalone } from './standalone.js';

const labels = [/^write_file notes\.txt$/, /^replace notes\.txt$/, /^run_shell_command rm README\.md && echo made > made\.txt$/];
const triggers = [/^BeforeTool:/];
const nobody = 65534;
const slowPrompt = 'Wait for the slow build';
/** The proof's script, and a prompt whose shell command takes long enough to be interrupted. */
const scripts = (root: string): Script[] => [{ prompt: slowPrompt, root, steps: [{ tool: 'shell', command: 'sleep 30' }, { text: 'Built.' }] }, ...proofScript(root)];

/** A slow shell command, interrupted with Esc: the agent goes idle (from its hooks). */
async function interruptSlowStep({ world, session }: InAppRun): Promise<void> {
  await session.waitFor(/agent idle/, 30_000, 'the agent idle after the first prompt');
  session.write(slowPrompt);
  await session.waitFor((screen) => screen.includes(slowPrompt), 5_000, 'the typed prompt');
  session.write('\r');
  const engine = () => world.sandbox.open(world.root);
  await waitFor(() => engine().list().some((record) => record.label === 'run_shell_command sleep 30'), 30_000, 'the checkpoint before the slow command');
  await session.waitFor(/agent busy/, 5_000, 'the agent busy');
  session.write('\x1b');
  await session.waitFor(/agent idle/, 15_000, 'the agent idle after the interrupt');
}

describe('gemini in the app', () => {
  it('gets a checkpoint before each file-changing tool call, labelled by tool and target, and goes idle on an interrupt', { timeout: 180_000 }, async () => {
    const world = await createWorld(scripts);
    try {
      await proveInApp({ world, setup: (here) => geminiSetup(here), prompt: proofPrompt, triggers, labels, afterSteps: interruptSlowStep });
    } finally {
      await world.close();
    }
  });

  it('does the same for a user who is not root, and writes nothing in their Gemini folder', { timeout: 120_000 }, async () => {
    let userGemini = '';
    let before: string[] = [];
    await proveInApp({
      setup: (world) => {
        const setup = geminiSetup(world);
        userGemini = path.join(setup.configDirs[0] ?? '', '.gemini');
        before = fs.readdirSync(userGemini).sort();
        return setup;
      },
      prompt: proofPrompt,
      triggers,
      labels,
      user: nobody,
      async afterSteps({ world }) {
        // The chats went to the user's own folder (tmp/ is linked); settings.json is theirs, untouched.
        expect(fs.readdirSync(userGemini).sort()).toEqual([...new Set([...before, 'history', 'tmp'])].sort());
        const chats = fs.readdirSync(path.join(userGemini, 'tmp'), { recursive: true }) as string[];
        expect(chats.some((file) => /chats\/session-.*\.jsonl$/.test(file)), chats.join(', ')).toBe(true);
        const home = path.join(world.sandbox.store, 'agents', 'gemini');
        const [key] = fs.readdirSync(home);
        expect(fs.statSync(path.join(home, key ?? '')).uid).toBe(nobody);
      },
    });
  });
});

describe('gemini headless with Rewind’s hooks and no app', () => {
  it('gets a checkpoint before each file-changing tool call from the standalone hook', { timeout: 120_000 }, async () => {
    await proveStandalone({ adapter: await builtAdapter('gemini/adapter.js', 'geminiAgent'), setup: (world) => geminiSetup(world), triggers, labels });
  });
});
