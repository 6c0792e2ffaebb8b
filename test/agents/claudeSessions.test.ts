// Issue 28 item 2 on the real agent: two Claude Code sessions (the pinned release, headless,
// Rewind's hooks, the fake model) take turns writing the same project. Each one's
// `rewind restore <id> --session` puts back only what its own steps changed, and leaves the
// other session's files as they are now; a file both changed is left alone and named.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rewind } from '../helpers/io.js';
import { claudeSetup, createWorld, runHeadless } from './harness.js';
import { builtAdapter, withAdapter } from './standalone.js';

const read = (root: string, file: string) => (fs.existsSync(path.join(root, file)) ? fs.readFileSync(path.join(root, file), 'utf8') : undefined);

describe('two Claude Code sessions in one project', () => {
  it("each --session restore puts back its own files and leaves the other's", { timeout: 180_000 }, async () => {
    const world = await createWorld((root) => [
      { prompt: 'agent A first', root, steps: [{ tool: 'write', path: 'a.txt', content: 'a1\n' }, { text: 'A wrote a.txt.' }] },
      // A new session may not Edit a file it has not read: the later changes are shell commands.
      { prompt: 'agent B', root, steps: [{ tool: 'write', path: 'b.txt', content: 'b1\n' }, { tool: 'shell', command: "echo 's1 by B' > shared.txt" }, { text: 'B is done.' }] },
      { prompt: 'agent A again', root, steps: [{ tool: 'shell', command: 'echo a2 > a.txt' }, { tool: 'shell', command: "echo 's2 by A' > shared.txt" }, { text: 'A is done.' }] },
    ]);
    try {
      const root = world.root;
      fs.writeFileSync(path.join(root, 'shared.txt'), 's0\n');
      const adapter = await builtAdapter('claude/adapter.js', 'claudeAgent');
      const setup = claudeSetup(world, { hooks: {} });
      const run = async (session: string, prompt: string) => {
        const start = withAdapter(setup.headless(prompt), adapter, world);
        const exit = await runHeadless({ ...start, env: { ...start.env, REWIND_SESSION: session } });
        expect(exit, exit.stderr).toMatchObject({ code: 0 });
      };
      await run('session-a', 'agent A first');
      await run('session-b', 'agent B');
      await run('session-a', 'agent A again');
      expect([read(root, 'a.txt'), read(root, 'b.txt'), read(root, 'shared.txt')]).toEqual(['a2\n', 'b1\n', 's2 by A\n']);

      const records = world.sandbox.open(root).list();
      expect(records.filter((record) => record.trigger.startsWith('PreToolUse:')).map((record) => [record.session, record.label])).toEqual([
        ['session-a', 'Write a.txt'],
        ['session-b', 'Write b.txt'],
        ['session-b', "Bash echo 's1 by B' > shared.txt"],
        ['session-a', 'Bash echo a2 > a.txt'],
        ['session-a', "Bash echo 's2 by A' > shared.txt"],
      ]);
      const firstOf = (session: string) => records.find((record) => record.session === session)?.id ?? 0;
      const env = world.sandbox.env;

      const a = await rewind(['restore', String(firstOf('session-a')), '--session', '--yes'], { ...env, REWIND_SESSION: 'session-a' }, root);
      expect(a.code, a.stderr).toBe(0);
      expect(a.stdout).toMatch(/left alone {2}shared\.txt: changed by another session/);
      expect([read(root, 'a.txt'), read(root, 'b.txt'), read(root, 'shared.txt')]).toEqual([undefined, 'b1\n', 's2 by A\n']);

      const b = await rewind(['restore', String(firstOf('session-b')), '--session', '--yes'], { ...env, REWIND_SESSION: 'session-b' }, root);
      expect(b.code, b.stderr).toBe(0);
      expect([read(root, 'a.txt'), read(root, 'b.txt'), read(root, 'shared.txt')]).toEqual([undefined, undefined, 's2 by A\n']);
    } finally {
      await world.close();
    }
  });
});
