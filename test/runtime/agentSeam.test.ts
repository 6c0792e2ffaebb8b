// The agent seam: the adapter is chosen from --agent or the command, and every call into it
// goes through a guard, so an adapter that throws or hangs leaves the session (and restores
// of files) working as for any command.
import { describe, expect, it } from 'vitest';
import type { AgentAdapter } from '../../src/agents/agentAdapter.js';
import { chooseAgent } from '../../src/agents/chooseAgent.js';
import { genericAgent } from '../../src/agents/generic.js';
import { AdapterGuard } from '../../src/agents/adapterGuard.js';

/** An adapter whose every call fails: what a broken one (a changed private format) does. */
const broken: AgentAdapter = {
  name: 'broken',
  handles: () => false,
  launch: () => {
    throw new Error('cannot write its settings');
  },
  activity: 'hooks',
  restoreModes: () => {
    throw new Error('cannot read its transcript');
  },
};

describe('choosing the agent', () => {
  it('takes the generic agent for any command, and refuses an --agent it does not know', () => {
    expect(chooseAgent('/usr/bin/bash').name).toBe('generic');
    // aider: no hooks, files only, and why.
    const aider = chooseAgent('/home/me/.local/bin/aider');
    expect([aider.name, aider.activity, aider.hookEvent]).toEqual(['aider', 'output', undefined]);
    expect(aider.restoreModes({ conversation: null }).conversation).toEqual({ enabled: false, reason: expect.stringMatching(/aider's files only: its chat is a log it reloads whole/) });
    expect(chooseAgent('claude', 'generic')).toBe(genericAgent);
    expect(() => chooseAgent('claude', 'nope')).toThrow(/unknown agent 'nope' for --agent: rewind knows ([a-z]+, )*generic \(see/);
    expect(() => chooseAgent('claude', 'nope')).toThrow(expect.objectContaining({ exitCode: 2 }));
  });
});

describe('the adapter guard', () => {
  it('answers as the generic agent when an adapter throws, and says so once', () => {
    const said: string[] = [];
    const guard = new AdapterGuard(broken, (message) => said.push(message));
    const launch = { command: 'agent', args: ['--x'], env: { A: '1' } };
    expect(guard.launch(launch, { id: 's', cwd: '/tmp' })).toBe(launch);
    // Files only, and why: the agent's support failed (not "no conversation support").
    const off = { enabled: false, reason: "the broken agent support failed (cannot read its transcript): files only" };
    expect(guard.restoreModes({ conversation: null })).toEqual({ both: off, files: { enabled: true }, conversation: off });
    expect(said).toEqual([expect.stringMatching(/^the broken agent support failed \(launch: cannot write its settings\): going on as for any command$/)]);
  });

  it('goes on without an adapter call that does not answer in time', async () => {
    const said: string[] = [];
    const guard = new AdapterGuard(broken, (message) => said.push(message));
    const hanging = guard.callAsync('capture', () => new Promise<string>(() => undefined), 'fallback', 50);
    await expect(hanging).resolves.toBe('fallback');
    await expect(guard.callAsync('capture', async () => 'answer', 'fallback', 50)).resolves.toBe('answer');
    expect(said).toHaveLength(1);
  });
});
