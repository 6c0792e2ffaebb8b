// README's configuration table and config.schema.json name the same keys with the same defaults.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_KEYS, configDefaults, formatValue } from '../../src/config/schema.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The configuration table's rows: key -> the default column, backticks dropped. */
function documentedDefaults(): Map<string, string> {
  const rows = new Map<string, string>();
  for (const line of readme.split('\n')) {
    const row = /^\| `([a-z_]+)` \| ([^|]+) \|/.exec(line);
    if (row?.[1] && row[2]) rows.set(row[1], row[2].trim().replace(/^`(.*)`$/, '$1'));
  }
  return rows;
}

describe('README configuration table', () => {
  it('documents every key of the schema with its default, and no other', () => {
    const documented = documentedDefaults();
    const defaults = configDefaults();
    expect([...documented.keys()].sort()).toEqual([...CONFIG_KEYS].sort());
    for (const key of CONFIG_KEYS) expect(documented.get(key), key).toBe(formatValue(defaults[key]));
  });
});
