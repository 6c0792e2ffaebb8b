// Every command has help with an example, and an unknown flag is one line naming that help.
import { describe, expect, it } from 'vitest';
import { rewind } from '../helpers/io.js';
import { createSandbox } from '../helpers/tempRepo.js';

const commands = ['snapshot', 'list', 'diff', 'restore', 'redo', 'config', 'run', 'demo', 'hook', 'bisect', 'fork', 'show'];

describe('help', () => {
  it('`rewind --help` and `rewind <command> --help` for every command, each with an example', async () => {
    const sb = createSandbox('rewind-help-');
    try {
      const top = await rewind(['--help'], sb.env, sb.base);
      expect(top.code).toBe(0);
      expect(top.stdout).toMatch(/\nExamples:\n {2}rewind /);
      for (const command of commands) {
        expect(top.stdout, command).toContain(`rewind ${command === 'run' ? '[--agent NAME] --' : command}`);
        const help = await rewind([command, '--help'], sb.env, sb.base);
        expect(help, command).toMatchObject({ code: 0, stderr: '' });
        expect(help.stdout, command).toMatch(/^Usage/);
        expect(help.stdout, command).toMatch(/\nExamples:\n {2}(rewind|echo) /);
      }
    } finally {
      await sb.cleanup();
    }
  });

  it('an unknown flag is one line naming the command’s help, exit 2', async () => {
    const sb = createSandbox('rewind-help-');
    try {
      for (const command of ['snapshot', 'list', 'diff', 'restore', 'redo', 'config', 'bisect', 'fork', 'show']) {
        const result = await rewind([command, '--no-such-flag'], sb.env, sb.base);
        expect(result.code, command).toBe(2);
        expect(result.stderr, command).toBe(`rewind: Unknown option '--no-such-flag' (see \`rewind ${command} --help\`)\n`);
      }
    } finally {
      await sb.cleanup();
    }
  });
});
