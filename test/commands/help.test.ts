// Every command has help with an example, an unknown flag is one line naming that help, and
// the help cannot drift from the code: `rewind --help`, each command's `--help`, its parser
// and the README's command list say the same commands and options, and the agents named are
// the ones the code has.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentNamed, agentNames } from '../../src/agents/chooseAgent.js';
import { commands } from '../../src/cli/main.js';
import { commands as hookCommands } from '../../src/cli/hookEntry.js';
import { commands as listCommands } from '../../src/cli/listEntry.js';
import { commands as snapshotCommands } from '../../src/cli/snapshotEntry.js';
import { parseRunArgs } from '../../src/commands/run.js';
import { commandTable } from '../../src/commands/shared/table.js';
import { rewind } from '../helpers/io.js';
import { repoRoot } from '../helpers/restoreKit.js';
import { createSandbox, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeAll(() => {
  sb = createSandbox('rewind-help-');
});
afterAll(async () => {
  await sb.cleanup();
});

async function helpOf(args: string[]): Promise<string> {
  const result = await rewind(args, sb.env, sb.base);
  expect(result, args.join(' ')).toMatchObject({ code: 0, stderr: '' });
  return result.stdout;
}

/** `rewind --help`'s Usage lines, as printed (two spaces in). */
async function topUsage(): Promise<string[]> {
  const top = await helpOf(['--help']);
  const block = /\nUsage:\n((?: {2}.*\n)+)/.exec(top)?.[1] ?? '';
  return block.trimEnd().split('\n');
}

/** The line(s) of `rewind --help` for one command: its usage line and the summary under it. */
function topEntry(lines: readonly string[], name: string): string {
  const at = lines.findIndex((line) => new RegExp(`^ {2}rewind (${name}|\\[${name}\\])( |$)`).test(line));
  if (at < 0) return '';
  const next = lines[at + 1];
  return next !== undefined && /^ {10,}\S/.test(next) ? `${lines[at]}\n${next}` : (lines[at] ?? '');
}

/** The long options (`--name`) in a text, without --help and a bare `--`. */
const flagsIn = (text: string) => new Set([...text.matchAll(/(?<![\w-])--([a-z][a-z-]*)/g)].map((match) => match[1] ?? '').filter((flag) => flag !== 'help'));

/** A command's help in parts: its Usage block and its options block (`  --name ARG  what it does`, continued under it). */
function partsOf(help: string): { usage: string; options: Map<string, { arg: string | undefined; text: string }> } {
  const [usage = ''] = help.split('\n\n');
  const options = new Map<string, { arg: string | undefined; text: string }>();
  let last: { arg: string | undefined; text: string } | undefined;
  for (const line of help.split('\n')) {
    const option = /^ {2}--([a-z][a-z-]*)(?: ([A-Z]+))? {2,}(.*)$/.exec(line);
    if (option) {
      last = { arg: option[2], text: option[3] ?? '' };
      options.set(option[1] ?? '', last);
    } else if (last && /^ {6,}\S/.test(line)) {
      last.text += ` ${line.trim()}`;
    } else {
      last = undefined;
    }
  }
  return { usage, options };
}

describe('help', () => {
  it('`rewind --help` and `rewind <command> --help` for every command, each with an example', async () => {
    const top = await helpOf(['--help']);
    expect(top).toMatch(/\nExamples:\n {2}rewind /);
    for (const command of Object.keys(commands)) {
      const help = await helpOf([command, '--help']);
      expect(help, command).toMatch(/^Usage/);
      expect(help, command).toMatch(/\nExamples:\n {2}(rewind|echo) /);
    }
  });

  it('`rewind --help` has a line for every command the dispatcher runs, with its summary', async () => {
    const lines = await topUsage();
    expect(Object.keys(commands).sort()).toEqual(Object.keys(commandTable).sort());
    for (const name of Object.keys({ ...snapshotCommands, ...hookCommands, ...listCommands })) expect(Object.keys(commands), name).toContain(name);
    for (const name of Object.keys(commands)) {
      const entry = topEntry(lines, name);
      expect(entry, name).not.toBe('');
      expect(entry, name).toMatch(/ {2}\S.*$/);
    }
    // Nothing else: every usage line is one of theirs.
    const named = lines.filter((line) => /^ {2}rewind /.test(line));
    expect(named).toHaveLength(Object.keys(commands).length);
  });

  it('each command’s options: its --help lists every one its parser takes, and its parser takes every one listed, with or without a value as listed', async () => {
    const lines = await topUsage();
    for (const [name, spec] of Object.entries(commandTable)) {
      const help = await helpOf([name, '--help']);
      const { usage, options } = partsOf(help);
      const tableFlags = Object.keys(spec.options).sort();
      expect([...options.keys()].sort(), `${name}: the options block`).toEqual(tableFlags);
      expect([...flagsIn(usage)].sort(), `${name}: its Usage line`).toEqual(tableFlags);
      expect([...flagsIn(topEntry(lines, name))].sort(), `${name}: its line in rewind --help`).toEqual(tableFlags);
      for (const [flag, option] of Object.entries(spec.options)) {
        expect(options.get(flag)?.arg, `${name} --${flag}: the value it takes`).toBe(option.type === 'string' ? option.arg : undefined);
      }
      for (const [flag, { arg }] of options) {
        const given = arg === undefined ? [`--${flag}`] : [`--${flag}`, '1'];
        if (name === 'run') {
          expect(() => parseRunArgs([...given, '--', 'true']), `run ${given.join(' ')}`).not.toThrow();
          continue;
        }
        // Parsed (not "Unknown option"), then --help wins over what the command would do.
        expect(await helpOf([name, ...given, '--help']), `${name} ${given.join(' ')}`).toBe(help);
      }
    }
    expect(() => parseRunArgs(['--no-such-flag', 'x', '--', 'true'])).toThrow(/unexpected '--no-such-flag'/);
  });

  it('the agents the help names are the code’s: every name --agent takes, and every agent whose conversation a restore rebuilds', async () => {
    const agentOption = partsOf(await helpOf(['run', '--help'])).options.get('agent')?.text ?? '';
    const listed = (text: string) => new Set(text.match(/[a-z]+/g));
    for (const name of agentNames()) expect(listed(agentOption), `run --agent names ${name}`).toContain(name);
    const conversation = partsOf(await helpOf(['restore', '--help'])).options.get('conversation')?.text ?? '';
    const said = /conversation rewind keeps \(([^)]*)\)/.exec(conversation)?.[1] ?? '';
    const withConversation = agentNames().filter((name) => agentNamed(name).conversation !== undefined);
    expect(withConversation).toContain('codex');
    expect(said.split(', ').sort()).toEqual(withConversation.sort());
  });

  it('the README’s command list is `rewind --help`’s Usage lines', async () => {
    const readme = fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('\n## Commands\n'));
    const block = /\n```\n([\s\S]*?)\n```\n/.exec(section)?.[1] ?? '';
    expect(block.split('\n')).toEqual((await topUsage()).map((line) => line.slice(2)));
  });

  it('an unknown flag is one line naming the command’s help, exit 2', async () => {
    for (const command of ['snapshot', 'list', 'diff', 'restore', 'redo', 'config', 'bisect', 'fork', 'show', 'checkpoints', 'prune', 'clean']) {
      const result = await rewind([command, '--no-such-flag'], sb.env, sb.base);
      expect(result.code, command).toBe(2);
      expect(result.stderr, command).toBe(`rewind: Unknown option '--no-such-flag' (see \`rewind ${command} --help\`)\n`);
    }
  });
});
