// Retention as the app and the commands apply it: the conversations kept with dropped
// checkpoints go with them; those of kept checkpoints still read back exactly.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CheckpointEngine } from '../../src/checkpoints/checkpointEngine.js';
import { ConversationStore } from '../../src/conversation/conversationStore.js';
import { configDefaults } from '../../src/config/schema.js';
import { retainIfDue } from '../../src/services/store/retention.js';
import { createSandbox, defaultSettings, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-retention-conv-');
});
afterEach(() => sb.cleanup());

/** Every file under `dir`, relative, sorted. */
function files(dir: string): string[] {
  return fs.existsSync(dir) ? (fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name))).sort()) : [];
}

describe('retention and the kept conversations', () => {
  it('drops the conversations of dropped checkpoints and keeps what the rest need', async () => {
    const root = sb.repo('conv');
    let clock = Date.parse('2026-02-01T00:00:00Z');
    const checkpoints = CheckpointEngine.open({ cwd: root, settings: defaultSettings, home: sb.store, env: sb.env, now: () => clock });
    const conv = new ConversationStore(checkpoints.conversationsDir);
    const transcripts = path.join(sb.base, 'transcripts');
    const old = path.join(transcripts, 'old-session.jsonl');
    const current = path.join(transcripts, 'current-session.jsonl');
    write(transcripts, 'old-session.jsonl', '{"old":1}\n');
    write(root, 'a.txt', 'old\n');
    await checkpoints.snapshot({ label: 'old', conversation: conv.capture('claude', { transcript: old }) });
    write(transcripts, 'current-session.jsonl', '{"current":1}\n');
    clock += 20 * 86_400_000;
    write(root, 'a.txt', 'new\n');
    const keptRef = conv.capture('claude', { transcript: current });
    await checkpoints.snapshot({ label: 'new', conversation: keptRef });
    // Captures older than the sweep's grace (ten minutes): made long ago.
    const past = new Date(Date.now() - 3_600_000);
    for (const file of files(conv.dir)) fs.utimesSync(path.join(conv.dir, file), past, past);
    const before = files(conv.dir);

    const said = await retainIfDue(checkpoints, configDefaults());
    expect(said).toMatch(/^dropped 1 checkpoint\(s\) older than 14 day\(s\); freed /);
    expect(checkpoints.list().map((record) => record.label)).toEqual(['new']);
    const after = files(conv.dir);
    expect(after.length).toBeLessThan(before.length);
    expect(after.filter((file) => file.startsWith('points/'))).toEqual([`points/${keptRef.point}.json`]);
    expect(conv.bytes(keptRef).toString()).toBe('{"current":1}\n');
  });
});
