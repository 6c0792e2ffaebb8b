// Issue 29 on the real agent: a Claude Code session (the pinned release, headless, Rewind's
// hooks, the fake model) exported with --conversation up to the checkpoint before the second
// prompt's step, imported into a clone on "another machine" (its own REWIND_HOME, HOME,
// CLAUDE_CONFIG_DIR and fake model), restored there with its conversation, and resumed with
// the real CLI: the model is sent the first exchange and nothing of the second. Exported
// without --conversation, no byte of the transcript is in the file.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli } from '../helpers/restoreKit.js';
import { conversationScripts, expectResumedWithFirstExchangeOnly, first, second, sentText, third } from './conversationScript.js';
import { claudeSetup, createWorld, runHeadless, type AgentSetup, type AgentWorld, type Invocation } from './harness.js';
import { headlessRuns } from './standalone.js';

/** The built `rewind` in `world`'s project, with its sandbox's store and config and the agent's config folder. */
function rewindThere(world: AgentWorld, setup: AgentSetup, ...args: string[]) {
  const env = { PATH: process.env.PATH, HOME: world.sandbox.home, REWIND_HOME: world.sandbox.store, REWIND_CONFIG_DIR: world.sandbox.configDir, CLAUDE_CONFIG_DIR: setup.configDirs[0] };
  return spawnSync(process.execPath, [builtCli, ...args], { cwd: world.root, env, encoding: 'utf8' });
}

describe('a Claude Code session exported and imported on another machine', () => {
  let here: AgentWorld;
  let there: AgentWorld;
  let hereSetup: AgentSetup;
  let thereSetup: AgentSetup;
  let runThere: (prompt: string, resume?: string) => Invocation;
  let beforeSecond = 0;
  const file = () => path.join(here.sandbox.base, 'handover.rewind');
  const filesOnly = () => path.join(here.sandbox.base, 'files-only.rewind');

  beforeAll(async () => {
    here = await createWorld(conversationScripts);
    hereSetup = claudeSetup(here, { hooks: {} });
    const runHere = await headlessRuns(hereSetup, here, 'claude/adapter.js', 'claudeAgent');
    const one = await runHeadless(runHere(first));
    expect(one, one.stderr).toMatchObject({ code: 0 });
    const transcripts = path.join(hereSetup.configDirs[0] ?? '', 'projects');
    const [slug = ''] = fs.readdirSync(transcripts);
    const session = (fs.readdirSync(path.join(transcripts, slug)).find((name) => name.endsWith('.jsonl')) ?? '').replace(/\.jsonl$/, '');
    const two = await runHeadless(runHere(second, session));
    expect(two, two.stderr).toMatchObject({ code: 0 });
    beforeSecond = here.sandbox.open(here.root).list().find((record) => record.label === 'Bash echo two > b.txt')?.id ?? 0;
    expect(beforeSecond).toBeGreaterThan(0);

    // The other machine: a clone of the project where its world made one, its own store, home, Claude config and model.
    there = await createWorld(conversationScripts);
    fs.rmSync(there.root, { recursive: true, force: true });
    there.sandbox.git(path.dirname(there.root), 'clone', '-q', here.root, path.basename(there.root));
    thereSetup = claudeSetup(there, { hooks: {} });
    runThere = await headlessRuns(thereSetup, there, 'claude/adapter.js', 'claudeAgent');
  }, 240_000);
  afterAll(async () => {
    await here?.close();
    await there?.close();
  });

  it('without --conversation the file holds no transcript byte; with it, the transcript up to the range only', () => {
    const plain = rewindThere(here, hereSetup, 'export', '-o', filesOnly());
    expect(plain.status, plain.stderr).toBe(0);
    const withConversation = rewindThere(here, hereSetup, 'export', `..${beforeSecond}`, '--conversation', '-o', file());
    expect(withConversation.status, withConversation.stderr).toBe(0);
    expect(withConversation.stdout).toMatch(/With their conversations: whoever imports it can read the prompts, the replies/);
    const [plainBytes, handover] = [fs.readFileSync(filesOnly()), fs.readFileSync(file())];
    // The model's first reply is in the transcript alone (no label names it).
    expect(plainBytes.includes('Wrote a.')).toBe(false);
    expect(plainBytes.includes('"uuid"')).toBe(false);
    expect(handover.includes('Wrote a.')).toBe(true);
    // The second prompt's reply came after the range's last checkpoint: not in it.
    expect(handover.includes('Made b.')).toBe(false);
  });

  it('imported into the clone, restored with its conversation, Claude resumes it with the first exchange only', async () => {
    const imported = rewindThere(there, thereSetup, 'import', file(), '--json');
    expect(imported.status, imported.stderr).toBe(0);
    const { added } = JSON.parse(imported.stdout) as { added: { id: number; label: string }[] };
    const target = added.find((row) => row.label === 'Bash echo two > b.txt');
    expect(target).toBeDefined();
    expect(rewindThere(there, thereSetup, 'import', file()).stdout).toMatch(/^Nothing to import/);

    const listed = JSON.parse(rewindThere(there, thereSetup, 'list', '--json').stdout) as { agent: string; imported: { from: string } | null }[];
    expect(listed.every((row) => row.agent === 'claude' && row.imported?.from === 'project')).toBe(true);

    const restored = rewindThere(there, thereSetup, 'restore', String(target?.id), '--both', '--yes', '--json');
    expect(restored.status, restored.stderr).toBe(0);
    const { conversation } = JSON.parse(restored.stdout) as { conversation: { file: string; session: string; resume: string[] } };
    // Written where Claude keeps this clone's sessions on this machine.
    expect(path.dirname(conversation.file)).toBe(path.join(thereSetup.configDirs[0] ?? '', 'projects', there.root.replace(/[^a-zA-Z0-9]/g, '-')));
    expect(conversation.resume).toEqual(['claude', '--resume', conversation.session]);
    // The files as they were before the second prompt's step: a.txt, no b.txt.
    expect(fs.readFileSync(path.join(there.root, 'a.txt'), 'utf8')).toBe('one\n');
    expect(fs.existsSync(path.join(there.root, 'b.txt'))).toBe(false);

    await expectResumedWithFirstExchangeOnly(there, runThere(third, conversation.session), sentText);
  }, 180_000);
});
