// Gemini CLI (the pinned release) inside Rewind's app: Rewind adds its hooks through a Gemini
// home of its own (the user's settings plus the hooks, every other entry linked to theirs;
// no file of the user's edited), a route that works for any user, root or not. Then a
// checkpoint comes before the write_file, the replace and the shell command, labelled by
// tool and target, holding the tree right before each.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { geminiSetup } from './harness.js';
import { proofPrompt } from './proof.js';
import { proveInApp } from './inApp.js';
import { builtAdapter, proveStandalone } from './standalone.js';

const labels = [/^write_file notes\.txt$/, /^replace notes\.txt$/, /^run_shell_command rm README\.md && echo made > made\.txt$/];
const triggers = [/^BeforeTool:/];
const nobody = 65534;

describe('gemini in the app', () => {
  it('gets a checkpoint before each file-changing tool call, labelled by tool and target', { timeout: 120_000 }, async () => {
    await proveInApp({ setup: (world) => geminiSetup(world), prompt: proofPrompt, triggers, labels });
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
    await proveStandalone({ adapter: await builtAdapter('gemini.js', 'geminiAgent'), setup: (world) => geminiSetup(world), triggers, labels });
  });
});
