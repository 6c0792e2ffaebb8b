// loadConfigLenient: what every command and the app read. A bad key is one problem line and
// takes its default; the rest of the file keeps working; nothing is ever written.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configDefaults } from '../../src/config/schema.js';
import { loadConfigLenient } from '../../src/config/lenient.js';

let tmp: string;
let env: NodeJS.ProcessEnv;
let file: string;

beforeEach(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'rewind-lenient-'));
  env = { REWIND_CONFIG_DIR: tmp };
  file = path.join(tmp, 'config.json');
});

afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

function writeConfig(text: string): void {
  writeFileSync(file, text);
}

describe('loadConfigLenient', () => {
  it('gives the defaults and no problem when there is no file, and creates nothing', async () => {
    expect(await loadConfigLenient(env)).toEqual({ config: configDefaults(), problems: [] });
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('gives a valid file its values, with no problem, and leaves it as it was', async () => {
    writeConfig('{"$schema": "./config.schema.json", "gc_every": 5, "checkpoint_exclude": ["*.log"], "command_key": "ctrl+g"}');
    const before = statSync(file);
    expect(await loadConfigLenient(env)).toEqual({
      config: { ...configDefaults(), gc_every: 5, checkpoint_exclude: ['*.log'], command_key: 'ctrl+g' },
      problems: [],
    });
    expect(statSync(file).mtimeMs).toBe(before.mtimeMs);
    expect(readdirSync(tmp)).toEqual(['config.json']);
  });

  it('takes an empty file as no settings', async () => {
    writeConfig(' \n');
    expect(await loadConfigLenient(env)).toEqual({ config: configDefaults(), problems: [] });
  });

  it.each([
    ['checkpoint_max_file_mb', 0, 'a number > 0', '0', '20'],
    ['checkpoint_max_file_mb', '20', 'a number > 0', '"20"', '20'],
    ['checkpoint_retention_days', -1, 'a number >= 0', '-1', '14'],
    ['checkpointing_disabled', 'yes', 'true or false', '"yes"', 'false'],
    ['checkpoint_exclude', ['ok', ''], 'an array of non-empty strings', '["ok",""]', '[]'],
    ['gc_every', 2.5, 'an integer >= 1', '2.5', '20'],
    ['double_esc_ms', 2001, 'an integer from 100 to 2000', '2001', '400'],
    ['command_key', 'alt+x', 'a string matching', '"alt+x"', '"ctrl+]"'],
    ['command_key', null, 'a string matching', 'null', '"ctrl+]"'],
    ['scrollback_lines', -5, 'an integer from 0 to 100000', '-5', '1000'],
  ])('reports %s = %j, uses its default and keeps the other keys', async (key, value, expected, got, fallback) => {
    const kept = { checkpoint_max_gb: 3, checkpoint_warn_gb: 7 };
    writeConfig(JSON.stringify({ checkpoint_max_gb: 3, [key]: value, checkpoint_warn_gb: 7 }));
    const { config, problems } = await loadConfigLenient(env);
    expect(config).toEqual({ ...configDefaults(), ...kept });
    expect(problems).toHaveLength(1);
    const [problem = ''] = problems;
    expect(problem.startsWith(`${file}: \`${key}\` must be ${expected}`)).toBe(true);
    expect(problem).toContain(`(got ${got}), so its default ${fallback} is used; fix the file or run \`rewind config set ${key} `);
    expect(problem).not.toContain('\n');
  });

  it('gives the exact line for a bad value', async () => {
    writeConfig('{"gc_every": "x"}');
    expect((await loadConfigLenient(env)).problems).toEqual([
      `${file}: \`gc_every\` must be an integer >= 1 (got "x"), so its default 20 is used; fix the file or run \`rewind config set gc_every 20\``,
    ]);
  });

  it('reports every bad key, each on its line, and only advises `set` when one fix suffices', async () => {
    writeConfig('{"gc_every": 0, "checkpoint_exclude": ["*.log"], "double_esc_ms": 5, "gc_evry": 3}');
    const { config, problems } = await loadConfigLenient(env);
    expect(config).toEqual({ ...configDefaults(), checkpoint_exclude: ['*.log'] });
    expect(problems).toEqual([
      `${file}: \`gc_every\` must be an integer >= 1 (got 0), so its default 20 is used; fix the file`,
      `${file}: \`double_esc_ms\` must be an integer from 100 to 2000 (got 5), so its default 400 is used; fix the file`,
      `${file}: unknown key \`gc_evry\` is ignored (did you mean \`gc_every\`?); rename or remove it in the file`,
    ]);
  });

  it('names the known key a typo may be, and says that key keeps its default', async () => {
    writeConfig('{"checkpoint_max_file_MB": 50, "gc_every": 3}');
    expect(await loadConfigLenient(env)).toEqual({
      config: { ...configDefaults(), gc_every: 3 },
      problems: [
        `${file}: unknown key \`checkpoint_max_file_MB\` is ignored (did you mean \`checkpoint_max_file_mb\`, which keeps its default 20?); ` +
          'rename or remove it in the file',
      ],
    });
  });

  it('lists the known keys for an unknown key that resembles none', async () => {
    writeConfig('{"colour": "red", "__proto__": 1}');
    const { config, problems } = await loadConfigLenient(env);
    expect(config).toEqual(configDefaults());
    const known = 'known keys: checkpoint_max_file_mb, checkpoint_retention_days, checkpoint_max_gb, checkpoint_warn_gb, ' +
      'checkpointing_disabled, checkpoint_exclude, checkpoint_include, gc_every, double_esc_ms, command_key, scrollback_lines, mouse_wheel_scroll';
    expect(problems).toEqual([
      `${file}: unknown key \`colour\` is ignored (${known}); rename or remove it in the file`,
      `${file}: unknown key \`__proto__\` is ignored (${known}); rename or remove it in the file`,
    ]);
    expect(Object.getPrototypeOf(config)).toBe(Object.prototype);
  });

  it('ignores a $schema that is not a string, saying so', async () => {
    writeConfig('{"$schema": 5, "gc_every": 4}');
    expect(await loadConfigLenient(env)).toEqual({
      config: { ...configDefaults(), gc_every: 4 },
      problems: [`${file}: \`$schema\` must be a string (got 5), so it is ignored; fix the file`],
    });
  });

  it('shows a number too big for a double as what JSON made of it', async () => {
    writeConfig('{"checkpoint_max_gb": 1e400}');
    expect((await loadConfigLenient(env)).problems[0]).toContain('`checkpoint_max_gb` must be a number > 0 (got Infinity), so its default 5 is used');
  });

  it.each([
    ['{\n  "gc_every": 5,\n}\n', `${'$FILE'} is not valid JSON (Expected double-quoted property name at line 3, column 1), so every setting takes its default; ` +
      'fix it by hand: rewind never rewrites a config file it cannot read'],
    ['[1, 2]', `${'$FILE'} must hold a JSON object like {"gc_every": 20} (got an array), so every setting takes its default; ` +
      'fix it by hand: rewind never rewrites a config file it cannot read'],
    ['null', '$FILE must hold a JSON object like {"gc_every": 20} (got null), so every setting takes its default; ' +
      'fix it by hand: rewind never rewrites a config file it cannot read'],
  ])('gives all defaults and one line for %j, and leaves the bytes alone', async (text, line) => {
    writeConfig(text);
    expect(await loadConfigLenient(env)).toEqual({ config: configDefaults(), problems: [line.replace('$FILE', file)] });
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('gives all defaults and one line when config.json cannot be read', async () => {
    mkdirSync(file);
    const { config, problems } = await loadConfigLenient(env);
    expect(config).toEqual(configDefaults());
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^cannot read ${file}: .*EISDIR.*, so every setting takes its default; check that it is a file you can read$`));
  });

  it('gives all defaults and one line when the config folder is not a folder', async () => {
    const notDir = path.join(tmp, 'plain-file');
    writeFileSync(notDir, '');
    const { config, problems } = await loadConfigLenient({ REWIND_CONFIG_DIR: notDir });
    expect(config).toEqual(configDefaults());
    expect(problems).toEqual([expect.stringMatching(/^cannot read .*plain-file\/config\.json: .*ENOTDIR/)]);
  });

  it('needs neither conf nor ajv, nor does any command opening a project (they cost ~100 ms of start-up)', async () => {
    const entry = (name: string) => new URL(`../../src/${name}`, import.meta.url).pathname;
    const result = await build({
      entryPoints: [entry('config/lenient.ts'), entry('commands/shared/open.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      write: false,
      metafile: true,
      outdir: path.join(tmp, 'bundle'),
      external: ['@lydell/node-pty'],
      logLevel: 'silent',
    });
    const packages = Object.keys(result.metafile.inputs).filter((input) => input.includes('node_modules/'));
    expect(packages.filter((input) => /node_modules\/(conf|ajv|ajv-formats)\//.test(input))).toEqual([]);
    expect(Object.keys(result.metafile.inputs).some((input) => input.endsWith('src/config/lenient.ts'))).toBe(true);
  });
});
