import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/main.js';
import { configDefaults, formatValue } from '../../src/config/config.js';

let tmp: string;
let file: string;

beforeEach(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'rewind-config-cmd-'));
  file = path.join(tmp, 'config.json');
});

afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

function sink(chunks: string[]): Writable {
  return new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      chunks.push(String(chunk));
      callback();
    },
  });
}

/** Runs `rewind config ...args` against the temp config dir. */
async function rewindConfig(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await run(['config', ...args], {
    stdout: sink(out),
    stderr: sink(err),
    stdin: Readable.from([]),
    env: { REWIND_CONFIG_DIR: tmp },
    cwd: tmp,
  });
  return { code, stdout: out.join(''), stderr: err.join('') };
}

describe('rewind config', () => {
  it('prints the file path and the effective config as JSON', async () => {
    writeFileSync(file, '{"gc_every": 7}');
    const { code, stdout, stderr } = await rewindConfig();
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const [first, ...rest] = stdout.split('\n');
    expect(first).toBe(`config file: ${file}`);
    expect(JSON.parse(rest.join('\n'))).toEqual({ ...configDefaults(), gc_every: 7 });
  });

  it('says when the file does not exist, shows defaults, and creates nothing', async () => {
    const { code, stdout } = await rewindConfig();
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toBe(`config file: ${file} (does not exist: all defaults)`);
    expect(JSON.parse(stdout.split('\n').slice(1).join('\n'))).toEqual(configDefaults());
    expect(existsSync(file)).toBe(false);
  });

  it('path prints the file path', async () => {
    expect(await rewindConfig('path')).toEqual({ code: 0, stdout: `${file}\n`, stderr: '' });
  });

  it('get prints one value: strings bare, lists as JSON', async () => {
    expect(await rewindConfig('get', 'gc_every')).toEqual({ code: 0, stdout: '20\n', stderr: '' });
    expect((await rewindConfig('get', 'command_key')).stdout).toBe('ctrl+]\n');
    expect((await rewindConfig('get', 'checkpoint_exclude')).stdout).toBe('[]\n');
    writeFileSync(file, '{"checkpoint_exclude": ["*.log", "tmp/"], "checkpointing_disabled": true}');
    expect((await rewindConfig('get', 'checkpoint_exclude')).stdout).toBe('["*.log","tmp/"]\n');
    expect((await rewindConfig('get', 'checkpointing_disabled')).stdout).toBe('true\n');
  });

  it('set writes the value and says where', async () => {
    expect(await rewindConfig('set', 'gc_every', '5')).toEqual({ code: 0, stdout: `set gc_every = 5 in ${file}\n`, stderr: '' });
    expect((await rewindConfig('set', 'checkpoint_exclude', '*.log,tmp/')).stdout).toBe(`set checkpoint_exclude = ["*.log","tmp/"] in ${file}\n`);
    expect((await rewindConfig('set', 'command_key', 'ctrl+g')).stdout).toBe(`set command_key = ctrl+g in ${file}\n`);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ gc_every: 5, checkpoint_exclude: ['*.log', 'tmp/'], command_key: 'ctrl+g' });
    expect((await rewindConfig('get', 'gc_every')).stdout).toBe('5\n');
  });

  it('set refuses a bad value with exit 1 and one line on stderr', async () => {
    writeFileSync(file, '{"gc_every": 3}');
    const result = await rewindConfig('set', 'gc_every', 'x');
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: `rewind: cannot set \`gc_every\`: must be an integer >= 1 (got "x"); ${file} was left as it was\n`,
    });
    expect(readFileSync(file, 'utf8')).toBe('{"gc_every": 3}');
  });

  it('set takes a value starting with - after --, and checks it', async () => {
    const result = await rewindConfig('set', 'checkpoint_retention_days', '--', '-1');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('cannot set `checkpoint_retention_days`: must be a number >= 0 (got -1)');
    expect(existsSync(file)).toBe(false);
  });

  it('set takes a value starting with - as the value, and checks it against the schema', async () => {
    expect(await rewindConfig('set', 'checkpoint_max_file_mb', '-5')).toEqual({
      code: 1,
      stdout: '',
      stderr: `rewind: cannot set \`checkpoint_max_file_mb\`: must be a number > 0 (got -5); ${file} was left as it was\n`,
    });
    expect((await rewindConfig('-C', tmp, 'set', 'gc_every', '-1')).stderr).toContain('cannot set `gc_every`: must be an integer >= 1 (got -1)');
    expect((await rewindConfig('set', 'command_key', '--help')).stderr).toContain('cannot set `command_key`: must be a string matching');
    expect(existsSync(file)).toBe(false);
    expect(await rewindConfig('set', 'checkpoint_exclude', '-x')).toMatchObject({ code: 0, stdout: `set checkpoint_exclude = ["-x"] in ${file}\n` });
  });

  it('show and get give the effective settings of a bad file, its problems as warnings', async () => {
    writeFileSync(file, '{"gc_every": 0, "double_esc_ms": 300}');
    const warning = `rewind: warning: ${file}: \`gc_every\` must be an integer >= 1 (got 0), so its default 20 is used; ` +
      'fix the file or run `rewind config set gc_every 20`\n';
    const shown = await rewindConfig();
    expect({ code: shown.code, stderr: shown.stderr }).toEqual({ code: 0, stderr: warning });
    expect(JSON.parse(shown.stdout.split('\n').slice(1).join('\n'))).toEqual({ ...configDefaults(), double_esc_ms: 300 });
    expect(await rewindConfig('get', 'gc_every')).toEqual({ code: 0, stdout: '20\n', stderr: warning });
    expect(await rewindConfig('get', 'double_esc_ms')).toEqual({ code: 0, stdout: '300\n', stderr: warning });
    expect((await rewindConfig('validate')).code).toBe(1);
    expect(readFileSync(file, 'utf8')).toBe('{"gc_every": 0, "double_esc_ms": 300}');
  });

  it('validate says ok for a good file and for no file', async () => {
    expect(await rewindConfig('validate')).toEqual({ code: 0, stdout: `${file}: ok (no file: defaults apply)\n`, stderr: '' });
    writeFileSync(file, '{"$schema": "./config.schema.json", "double_esc_ms": 300}');
    expect(await rewindConfig('validate')).toEqual({ code: 0, stdout: `${file}: ok\n`, stderr: '' });
  });

  it('validate prints the one-line error and exits 1 for a bad file', async () => {
    writeFileSync(file, '{"double_esc_ms": 5}');
    expect(await rewindConfig('validate')).toEqual({
      code: 1,
      stdout: '',
      stderr: `rewind: ${file}: \`double_esc_ms\` must be an integer from 100 to 2000 (got 5); fix the file or run \`rewind config set double_esc_ms 400\`\n`,
    });
    writeFileSync(file, '{"double_esc_ms": 5');
    const malformed = await rewindConfig('validate');
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toMatch(/^rewind: .*config\.json is not valid JSON \(.*\); fix it by hand: rewind never rewrites a config file it cannot read\n$/);
    expect(readFileSync(file, 'utf8')).toBe('{"double_esc_ms": 5');
  });

  it('--help lists the subcommands and every key with its default', async () => {
    const { code, stdout } = await rewindConfig('--help');
    expect(code).toBe(0);
    expect(stdout).toContain('rewind config set KEY VALUE');
    expect(stdout).toContain('rewind config validate');
    const lines = stdout.split('\n');
    for (const [key, value] of Object.entries(configDefaults())) {
      const line = lines.find((candidate) => candidate.startsWith(`  ${key} `));
      expect(line, key).toContain(`default ${formatValue(value)}: `);
    }
  });

  it.each([
    [['frob'], /unknown config subcommand 'frob'/],
    [['get'], /usage: rewind config get KEY/],
    [['set', 'gc_every'], /usage: rewind config set KEY VALUE/],
    [['path', 'extra'], /usage: rewind config path/],
    [['get', 'gc_evry'], /unknown config key `gc_evry`, did you mean `gc_every`\?/],
    [['--bogus'], /Unknown option '--bogus'/],
  ])('exits 2 on a bad command line: %j', async (args, pattern) => {
    const { code, stdout, stderr } = await rewindConfig(...args);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(pattern);
    expect(stderr.startsWith('rewind: ')).toBe(true);
  });
});
