import { shellWord } from '../../src/shared/shellWord.js';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CONFIG_KEYS,
  closestKey,
  configDefaults,
  configSchema,
  describeExpected,
  formatValue,
  parseConfigValue,
  propertySchema,
} from '../../src/config/schema.js';
import { UserError } from '../../src/shared/errors.js';

describe('config.schema.json', () => {
  it('lists exactly the keys RewindConfig has, plus $schema', () => {
    const onDisk = JSON.parse(readFileSync(new URL('../../config.schema.json', import.meta.url), 'utf8')) as { properties: object };
    expect(Object.keys(onDisk.properties)).toEqual(['$schema', ...CONFIG_KEYS]);
    expect(configSchema().additionalProperties).toBe(false);
  });

  it('gives every key a type, a default and a description', () => {
    for (const key of CONFIG_KEYS) {
      const schema = propertySchema(key);
      expect(schema?.type, key).toBeTypeOf('string');
      expect(schema?.description, key).toBeTypeOf('string');
      expect(schema?.default, key).not.toBeUndefined();
    }
  });

  it('has the documented defaults', () => {
    expect(configDefaults()).toEqual({
      checkpoint_max_file_mb: 20,
      checkpoint_retention_days: 14,
      checkpoint_max_gb: 5,
      checkpoint_warn_gb: 2,
      checkpointing_disabled: false,
      checkpoint_exclude: [],
      checkpoint_include: [],
      gc_every: 20,
      double_esc_ms: 400,
      command_key: 'ctrl+]',
      scrollback_lines: 1000,
      mouse_wheel_scroll: true,
    });
  });

  it('hands out defaults that callers cannot corrupt', () => {
    configDefaults().checkpoint_exclude.push('oops');
    expect(configDefaults().checkpoint_exclude).toEqual([]);
  });

  it('accepts ctrl+<one key> command keys but not Esc (ctrl+[) or other forms', () => {
    const pattern = new RegExp(propertySchema('command_key')?.pattern ?? '', 'u');
    for (const good of ['ctrl+]', 'ctrl+g', 'ctrl+\\', 'ctrl+^', 'ctrl+_', 'ctrl+@']) expect(pattern.test(good), good).toBe(true);
    for (const bad of ['ctrl+[', 'ctrl+G', 'ctrl+', 'ctrl+gg', 'alt+g', ' ctrl+g', 'g']) expect(pattern.test(bad), bad).toBe(false);
  });
});

describe('describeExpected', () => {
  it.each([
    ['gc_every', 'an integer >= 1'],
    ['double_esc_ms', 'an integer from 100 to 2000'],
    ['scrollback_lines', 'an integer from 0 to 100000'],
    ['mouse_wheel_scroll', 'true or false'],
    ['checkpoint_max_gb', 'a number > 0'],
    ['checkpoint_retention_days', 'a number >= 0'],
    ['checkpointing_disabled', 'true or false'],
    ['checkpoint_exclude', 'an array of non-empty strings'],
  ])('%s: %s', (key, expected) => {
    expect(describeExpected(propertySchema(key) ?? { type: 'string' })).toBe(expected);
  });

  it('shows the command_key pattern with examples', () => {
    expect(describeExpected(propertySchema('command_key') ?? { type: 'string' })).toMatch(/^a string matching \^ctrl.*\(e\.g\. "ctrl\+\]"/);
  });
});

describe('parseConfigValue', () => {
  it('parses numbers, booleans and lists by the key type', () => {
    expect(parseConfigValue('gc_every', '5')).toBe(5);
    expect(parseConfigValue('checkpoint_max_gb', ' 0.5 ')).toBe(0.5);
    expect(parseConfigValue('checkpoint_max_gb', '1e1')).toBe(10);
    expect(parseConfigValue('checkpointing_disabled', 'true')).toBe(true);
    expect(parseConfigValue('checkpointing_disabled', 'false')).toBe(false);
    expect(parseConfigValue('checkpoint_exclude', '["*.log", "tmp/"]')).toEqual(['*.log', 'tmp/']);
    expect(parseConfigValue('checkpoint_exclude', '*.log, tmp/,')).toEqual(['*.log', 'tmp/']);
    expect(parseConfigValue('checkpoint_exclude', '')).toEqual([]);
    expect(parseConfigValue('command_key', 'ctrl+g')).toBe('ctrl+g');
  });

  it('leaves values that do not parse as text, for the schema to reject', () => {
    expect(parseConfigValue('gc_every', 'x')).toBe('x');
    expect(parseConfigValue('gc_every', '')).toBe('');
    expect(parseConfigValue('gc_every', '0x10')).toBe('0x10');
    expect(parseConfigValue('checkpointing_disabled', 'yes')).toBe('yes');
  });

  it('rejects a broken JSON list with advice', () => {
    expect(() => parseConfigValue('checkpoint_exclude', '["a",')).toThrow(UserError);
    expect(() => parseConfigValue('checkpoint_exclude', '["a",')).toThrow(/cannot set `checkpoint_exclude`: .* is not a valid JSON array .*comma-separated/);
  });
});

describe('helpers', () => {
  it('formats values for printing', () => {
    expect(formatValue('ctrl+]')).toBe('ctrl+]');
    expect(formatValue(['a', 'b'])).toBe('["a","b"]');
    expect(formatValue(false)).toBe('false');
  });

  it('quotes shell words only when needed', () => {
    expect(shellWord('20')).toBe('20');
    expect(shellWord('[]')).toBe("'[]'");
    expect(shellWord("it's")).toBe(`'it'\\''s'`);
  });

  it('suggests the closest key for a typo and nothing for nonsense', () => {
    expect(closestKey('gc_evry')).toBe('gc_every');
    expect(closestKey('checkpoint_max_file_MB')).toBe('checkpoint_max_file_mb');
    expect(closestKey('colour')).toBeUndefined();
  });
});
