import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configDefaults, configFilePath, inspectConfig, setConfigValue } from '../../src/config/config.js';
import { UsageError, UserError } from '../../src/shared/errors.js';

let tmp: string;
let env: NodeJS.ProcessEnv;
let file: string;

beforeEach(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'rewind-config-'));
  env = { REWIND_CONFIG_DIR: tmp };
  file = path.join(tmp, 'config.json');
});

afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

/** Writes config.json with an old mtime, so any rewrite (even of the same bytes) shows. */
function writeConfig(text: string, mode = 0o644): void {
  writeFileSync(file, text, { mode });
  chmodSync(file, mode);
  const past = new Date('2020-01-02T03:04:05Z');
  utimesSync(file, past, past);
}

/** Everything about the file that a write, a rename or a clear would change. */
function fingerprint(): { bytes: string; mtimeMs: number; ino: number; mode: number } {
  const stat = statSync(file);
  return { bytes: readFileSync(file).toString('base64'), mtimeMs: stat.mtimeMs, ino: stat.ino, mode: stat.mode };
}

/** The config as `rewind config validate` checks it (conf), throwing on any problem. */
function strictConfig(environment: NodeJS.ProcessEnv) {
  return inspectConfig(environment).config;
}

function errorOf(action: () => unknown): UserError {
  try {
    action();
  } catch (error) {
    if (error instanceof UserError) return error;
    throw error;
  }
  throw new Error('expected a UserError, got success');
}

describe('configFilePath', () => {
  it('is config.json in $REWIND_CONFIG_DIR', () => {
    expect(configFilePath(env)).toBe(file);
  });
});

describe('inspectConfig (strict, as `rewind config validate`)', () => {
  it('gives the defaults when there is no file, and creates nothing', () => {
    const dir = path.join(tmp, 'not-yet');
    const nested = { REWIND_CONFIG_DIR: dir };
    expect(strictConfig(nested)).toEqual(configDefaults());
    expect(inspectConfig(nested)).toMatchObject({ file: path.join(dir, 'config.json'), exists: false });
    expect(existsSync(dir)).toBe(false);
    expect(strictConfig(env)).toEqual(configDefaults());
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('puts the file values over the defaults and leaves the file exactly as it was', () => {
    writeConfig('{\n  "gc_every": 5,\n  "checkpoint_exclude": ["*.log"]\n}\n');
    const before = fingerprint();
    expect(strictConfig(env)).toEqual({ ...configDefaults(), gc_every: 5, checkpoint_exclude: ['*.log'] });
    expect(inspectConfig(env).exists).toBe(true);
    expect(fingerprint()).toEqual(before);
    expect(readdirSync(tmp)).toEqual(['config.json']);
  });

  it('accepts every boundary value the schema allows', () => {
    const edge = {
      checkpoint_max_file_mb: 0.5,
      checkpoint_retention_days: 0,
      checkpoint_max_gb: 0.1,
      checkpoint_warn_gb: 100,
      checkpointing_disabled: true,
      checkpoint_exclude: ['a', 'b/'],
      checkpoint_include: ['.env'],
      gc_every: 1,
      double_esc_ms: 2000,
      command_key: 'ctrl+\\',
      scrollback_lines: 100_000,
      mouse_wheel_scroll: false,
    };
    writeConfig(JSON.stringify(edge));
    expect(strictConfig(env)).toEqual(edge);
    writeConfig(JSON.stringify({ double_esc_ms: 100, scrollback_lines: 0 }));
    expect(strictConfig(env)).toMatchObject({ double_esc_ms: 100, scrollback_lines: 0 });
  });

  it('accepts a $schema key and an empty file', () => {
    writeConfig('{"$schema": "./config.schema.json", "gc_every": 3}');
    expect(strictConfig(env).gc_every).toBe(3);
    expect(strictConfig(env)).not.toHaveProperty('$schema');
    writeConfig('  \n');
    expect(strictConfig(env)).toEqual(configDefaults());
  });

  it.each([
    ['checkpoint_max_file_mb', 0, 'a number > 0', '0'],
    ['checkpoint_max_file_mb', '20', 'a number > 0', '"20"'],
    ['checkpoint_retention_days', -1, 'a number >= 0', '-1'],
    ['checkpoint_max_gb', 0, 'a number > 0', '0'],
    ['checkpoint_warn_gb', -2, 'a number > 0', '-2'],
    ['checkpointing_disabled', 'yes', 'true or false', '"yes"'],
    ['checkpoint_exclude', '*.log', 'an array of non-empty strings', '"*.log"'],
    ['checkpoint_exclude', ['ok', ''], 'an array of non-empty strings', '["ok",""]'],
    ['gc_every', 'x', 'an integer >= 1', '"x"'],
    ['gc_every', 2.5, 'an integer >= 1', '2.5'],
    ['gc_every', 0, 'an integer >= 1', '0'],
    ['double_esc_ms', 99, 'an integer from 100 to 2000', '99'],
    ['double_esc_ms', 2001, 'an integer from 100 to 2000', '2001'],
    ['command_key', 'alt+x', 'a string matching', '"alt+x"'],
    ['command_key', 'ctrl+[', 'a string matching', '"ctrl+["'],
    ['command_key', null, 'a string matching', 'null'],
    ['scrollback_lines', -1, 'an integer from 0 to 100000', '-1'],
    ['scrollback_lines', 100_001, 'an integer from 0 to 100000', '100001'],
    ['scrollback_lines', 10.5, 'an integer from 0 to 100000', '10.5'],
    ['mouse_wheel_scroll', 'off', 'true or false', '"off"'],
  ])('rejects %s = %j naming the file, the key and what is expected', (key, value, expected, got) => {
    writeConfig(JSON.stringify({ [key]: value }, null, 2));
    const before = fingerprint();
    const error = errorOf(() => strictConfig(env));
    expect(error.exitCode).toBe(1);
    expect(error.message).not.toContain('\n');
    expect(error.message.startsWith(`${file}: \`${key}\` must be ${expected}`)).toBe(true);
    expect(error.message).toContain(`(got ${got})`);
    expect(error.message).toMatch(new RegExp(`fix the file or run \`rewind config set ${key} `));
    expect(fingerprint()).toEqual(before);
  });

  it('gives the exact message for a bad value', () => {
    writeConfig('{"gc_every": "x"}');
    expect(errorOf(() => strictConfig(env)).message).toBe(
      `${file}: \`gc_every\` must be an integer >= 1 (got "x"); fix the file or run \`rewind config set gc_every 20\``,
    );
  });

  it('names the other bad keys too, and only advises `set` when one fix suffices', () => {
    writeConfig('{"gc_every": 0, "double_esc_ms": 5}');
    const { message } = errorOf(() => strictConfig(env));
    expect(message).toBe(`${file}: \`gc_every\` must be an integer >= 1 (got 0); fix the file (also invalid: \`double_esc_ms\`)`);
  });

  it('reports malformed JSON with the file and the line, and leaves the bytes alone', () => {
    writeConfig('{\n  "gc_every": 5,\n}\n');
    const before = fingerprint();
    const error = errorOf(() => strictConfig(env));
    expect(error.message).toBe(
      `${file} is not valid JSON (Expected double-quoted property name at line 3, column 1); ` +
        'fix it by hand: rewind never rewrites a config file it cannot read',
    );
    expect(fingerprint()).toEqual(before);
  });

  it.each([
    ['{"gc_every": tru}', /is not valid JSON \(Unexpected token/],
    ['{"gc_every": ', /is not valid JSON \(unexpected end of file at line 1, column 14\)/],
    ['{"a": 1}}', /is not valid JSON \(Unexpected non-whitespace character after JSON at line 1, column 9\)/],
    ['[1, 2]', /must hold a JSON object like \{"gc_every": 20\} \(got an array\)/],
    ['"text"', /\(got a string\)/],
  ])('reports %j on one line naming the file', (text, pattern) => {
    writeConfig(text);
    const before = fingerprint();
    const { message } = errorOf(() => strictConfig(env));
    expect(message.startsWith(file)).toBe(true);
    expect(message).toMatch(pattern);
    expect(message).not.toContain('\n');
    expect(fingerprint()).toEqual(before);
  });

  it('reports an unknown key with a suggestion and the known keys', () => {
    writeConfig('{"gc_evry": 5}');
    const before = fingerprint();
    expect(errorOf(() => strictConfig(env)).message).toBe(
      `${file}: unknown key \`gc_evry\`, did you mean \`gc_every\`? (known keys: checkpoint_max_file_mb, ` +
        'checkpoint_retention_days, checkpoint_max_gb, checkpoint_warn_gb, checkpointing_disabled, ' +
        'checkpoint_exclude, checkpoint_include, gc_every, double_esc_ms, command_key, scrollback_lines, mouse_wheel_scroll); rename or remove it in the file',
    );
    expect(fingerprint()).toEqual(before);
  });

  it('reports a config.json that cannot be read', () => {
    mkdirSync(file);
    expect(errorOf(() => strictConfig(env)).message).toMatch(new RegExp(`^cannot read ${file}: .*EISDIR`));
  });
});

describe('setConfigValue', () => {
  it('creates the folder 0700 and the file 0600 with just that key', () => {
    const dir = path.join(tmp, 'a', 'b');
    const nested = { REWIND_CONFIG_DIR: dir };
    expect(setConfigValue('gc_every', '5', nested)).toEqual({ file: path.join(dir, 'config.json'), key: 'gc_every', value: 5 });
    expect(readFileSync(path.join(dir, 'config.json'), 'utf8')).toBe('{\n  "gc_every": 5\n}\n');
    expect(statSync(path.join(dir, 'config.json')).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(tmp, 'a')).mode & 0o777).toBe(0o700);
    expect(strictConfig(nested).gc_every).toBe(5);
  });

  it('keeps the other keys, $schema, key order and indentation, and makes the file 0600', () => {
    writeConfig('{\n    "$schema": "./config.schema.json",\n    "gc_every": 3,\n    "command_key": "ctrl+g"\n}\n', 0o644);
    setConfigValue('gc_every', '9', env);
    setConfigValue('checkpoint_exclude', '*.sqlite, tmp/', env);
    expect(readFileSync(file, 'utf8')).toBe(
      '{\n    "$schema": "./config.schema.json",\n    "gc_every": 9,\n    "command_key": "ctrl+g",\n' +
        '    "checkpoint_exclude": [\n        "*.sqlite",\n        "tmp/"\n    ]\n}\n',
    );
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(tmp)).toEqual(['config.json']);
  });

  it.each([
    ['checkpoint_max_file_mb', '0.5', 0.5],
    ['checkpoint_retention_days', '0', 0],
    ['checkpoint_max_gb', '10', 10],
    ['checkpoint_warn_gb', '1.5', 1.5],
    ['checkpointing_disabled', 'true', true],
    ['checkpoint_exclude', '["*.log", "dist/"]', ['*.log', 'dist/']],
    ['checkpoint_exclude', '', []],
    ['gc_every', '1', 1],
    ['double_esc_ms', '250', 250],
    ['command_key', 'ctrl+\\', 'ctrl+\\'],
    ['scrollback_lines', '5000', 5000],
    ['mouse_wheel_scroll', 'false', false],
  ])('writes %s = %s', (key, raw, value) => {
    expect(setConfigValue(key, raw, env).value).toEqual(value);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ [key]: value });
    expect(strictConfig(env)).toEqual({ ...configDefaults(), [key]: value });
  });

  it.each([
    ['gc_every', 'x', 'an integer >= 1', '"x"'],
    ['gc_every', '0', 'an integer >= 1', '0'],
    ['double_esc_ms', '5000', 'an integer from 100 to 2000', '5000'],
    ['checkpoint_max_gb', '0', 'a number > 0', '0'],
    ['checkpointing_disabled', 'yes', 'true or false', '"yes"'],
    ['checkpoint_exclude', '["a", ""]', 'an array of non-empty strings', '["a",""]'],
    ['command_key', 'ctrl+[', 'a string matching', '"ctrl+["'],
  ])('refuses %s = %s and leaves the file byte-identical', (key, raw, expected, got) => {
    writeConfig('{\n  "gc_every": 3\n}\n');
    const before = fingerprint();
    const error = errorOf(() => setConfigValue(key, raw, env));
    expect(error.exitCode).toBe(1);
    expect(error.message.startsWith(`cannot set \`${key}\`: must be ${expected}`)).toBe(true);
    expect(error.message).toContain(`(got ${got}); ${file} was left as it was`);
    expect(fingerprint()).toEqual(before);
    expect(readdirSync(tmp)).toEqual(['config.json']);
  });

  it('refuses an invalid value without creating the file', () => {
    expect(errorOf(() => setConfigValue('gc_every', '-3', env)).message).toBe(
      `cannot set \`gc_every\`: must be an integer >= 1 (got -3); ${file} was left as it was`,
    );
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('refuses an unknown key with exit code 2 and touches nothing', () => {
    writeConfig('{"gc_every": 3}');
    const before = fingerprint();
    const error = errorOf(() => setConfigValue('gc_evry', '5', env));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.exitCode).toBe(2);
    expect(error.message).toMatch(/^unknown config key `gc_evry`, did you mean `gc_every`\? \(known keys: /);
    expect(() => setConfigValue('$schema', 'x', env)).toThrow(UsageError);
    expect(fingerprint()).toEqual(before);
  });

  it('refuses to touch a malformed file', () => {
    writeConfig('{"gc_every": 3,,}');
    const before = fingerprint();
    expect(errorOf(() => setConfigValue('gc_every', '5', env)).message).toMatch(
      new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not valid JSON .*rewind never rewrites a config file it cannot read$`),
    );
    expect(fingerprint()).toEqual(before);
  });

  it('refuses to touch a file with an unknown key', () => {
    writeConfig('{"gc_evry": 3}');
    const before = fingerprint();
    expect(errorOf(() => setConfigValue('gc_every', '5', env)).message).toMatch(/unknown key `gc_evry`/);
    expect(fingerprint()).toEqual(before);
  });

  it('refuses to write while another key stays invalid, naming that key', () => {
    writeConfig('{"gc_every": 0, "double_esc_ms": 300}');
    const before = fingerprint();
    expect(errorOf(() => setConfigValue('double_esc_ms', '500', env)).message).toBe(
      `${file}: \`gc_every\` must be an integer >= 1 (got 0); fix the file or run \`rewind config set gc_every 20\``,
    );
    expect(fingerprint()).toEqual(before);
  });

  it('repairs the one bad key the error message points at', () => {
    writeConfig('{"gc_every": 0, "double_esc_ms": 300}');
    expect(() => strictConfig(env)).toThrow(/rewind config set gc_every 20/);
    setConfigValue('gc_every', '20', env);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ gc_every: 20, double_esc_ms: 300 });
  });
});
