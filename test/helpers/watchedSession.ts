// A real session's checkpoint triggers, watcher and engine on a small project, beside a second
// store that walks the whole tree at every snapshot: what the property tests compare the
// session's checkpoints with.
import fs from 'node:fs';
import path from 'node:path';
import { configDefaults } from '../../src/config/schema.js';
import { openForApp } from '../../src/runtime/checkpointing/checkpointer.js';
import { CheckpointTriggers } from '../../src/runtime/checkpointing/checkpointTriggers.js';
import { Notices } from '../../src/runtime/session/notices.js';
import { openProjectCheckpoints, type ProjectCheckpoints } from '../../src/checkpoints/index.js';
import { afterEach } from 'vitest';
import { createSandbox, defaultSettings, type Sandbox } from './tempRepo.js';

export interface WatchedSession {
  root: string;
  triggers: CheckpointTriggers;
  engine: ProjectCheckpoints;
  /** What the session said (its notices). */
  notices: Notices;
  /** The files now, walked whole into the second store: its tree. */
  walk(): Promise<string>;
}

/** Opens the session on a new project `p` in `sb` (a .gitignore, src/lib/a.ts), its watcher running and a first step taken. */
export async function openWatchedSession(sb: Sandbox): Promise<WatchedSession> {
  const root = sb.repo('p');
  fs.writeFileSync(path.join(root, '.gitignore'), '*.log\n');
  fs.mkdirSync(path.join(root, 'src/lib'), { recursive: true });
  fs.writeFileSync(path.join(root, 'src/lib/a.ts'), 'export {}\n');
  const env = { ...sb.env };
  const availability = await openForApp(root, configDefaults(), env);
  const notices = new Notices(() => undefined);
  const triggers = new CheckpointTriggers({ id: 's', agent: () => 'test' }, notices, () => undefined);
  triggers.attach(availability);
  await triggers.watching();
  const engine = triggers.checkpoints?.engine;
  if (!engine) throw new Error('checkpoints did not open');
  const walked = openProjectCheckpoints({ cwd: root, settings: { ...defaultSettings }, home: path.join(sb.base, 'walked'), env });
  // The first step after the watcher starts walks everything; the watcher is then in place.
  await triggers.beforeStep({ trigger: 'tool', label: 'warm up' }, undefined);
  return { root, triggers, engine, notices, walk: async () => (await walked.snapshot({ trigger: 'manual' })).record.tree };
}

/** For a test file: opens a session in a new sandbox each time it is called, stopped and removed after each test. */
export function watchedSessions(prefix: string): () => Promise<WatchedSession> {
  let sandbox: Sandbox | undefined;
  let session: WatchedSession | undefined;
  afterEach(async () => {
    session?.triggers.stop();
    session = undefined;
    await sandbox?.cleanup();
    sandbox = undefined;
  });
  return async () => {
    sandbox = createSandbox(prefix);
    session = await openWatchedSession(sandbox);
    return session;
  };
}
