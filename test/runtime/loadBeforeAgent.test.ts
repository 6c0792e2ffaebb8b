// The app is loaded before the agent starts: loading it holds the event loop, and an agent
// that asks its terminal something as it starts waits only so long for the answer (Codex
// draws without its theme when its colour question is not answered within ~0.2 s).
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { requireBuiltCli } from '../helpers/restoreKit.js';
import { startInPty, type TermSession } from '../helpers/term.js';
import { createSandbox, type Sandbox } from '../helpers/tempRepo.js';

let sandbox: Sandbox | undefined;
let session: TermSession | undefined;
afterEach(async () => {
  session?.kill('SIGKILL');
  await session?.exited;
  session?.close();
  await sandbox?.cleanup();
});

it('the rest of the app is loaded before the agent is started', async () => {
  requireBuiltCli();
  sandbox = createSandbox('rewind-load-order-');
  // A stand-in for the rest of the app counts this process's children as it is loaded.
  const fixture = path.resolve(import.meta.dirname, '../fixtures/runAppOrder.mjs');
  session = startInPty(process.execPath, [fixture], { cwd: sandbox.repo('project'), env: sandbox.env, cols: 80, rows: 10 }, 'runApp');
  await session.waitFor(/children at load: \d+/, 15_000, 'the count');
  expect(session.text()).toContain('children at load: 0');
});
