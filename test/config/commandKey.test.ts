// `command_key`: the schema must refuse every key the app refuses (else `config set`
// accepts it and the app will not start), and never allow a key whose byte the agent needs.
// That conf (ajv) gives our validator's verdict on every `ctrl+` key: agreesWithConf.test.ts.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setConfigValue } from '../../src/config/config.js';
import { propertySchema } from '../../src/config/schema.js';
import { matchesSchema } from '../../src/config/validate.js';
import { UserError } from '../../src/shared/errors.js';
import { parseCommandKey } from '../../src/pty/keys.js';

/** `ctrl+` with every printable ASCII character (both cases of letters), and other forms. */
const candidates = [
  ...Array.from({ length: 95 }, (_, index) => `ctrl+${String.fromCharCode(32 + index)}`),
  ...['ctrl+', 'ctrl+gg', 'Ctrl+g', 'CTRL+M', ' ctrl+g', 'ctrl+g ', 'ctrl+é', 'ctrl+\u00a0', 'alt+g', 'g', ''],
];

/** Bytes that must reach the agent: Enter, line feed, Tab, Esc, Ctrl-C, Ctrl-D. */
const agentBytes = ['\r', '\n', '\t', '\x1b', '\x03', '\x04'];

const schema = propertySchema('command_key') ?? { type: 'string' as const };
const schemaAccepts = (key: string) => matchesSchema(schema, key);

function appAccepts(key: string): boolean {
  try {
    parseCommandKey(key);
    return true;
  } catch (error) {
    if (error instanceof UserError) return false;
    throw error;
  }
}

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'rewind-command-key-'));
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

describe('command_key', () => {
  it('accepts in the schema only keys the app accepts, none of them a byte the agent needs', () => {
    const accepted = candidates.filter(schemaAccepts);
    expect(accepted.length).toBeGreaterThan(20);
    for (const key of accepted) {
      expect(appAccepts(key), key).toBe(true);
      expect(agentBytes, key).not.toContain(parseCommandKey(key));
    }
    for (const key of candidates.filter((candidate) => !appAccepts(candidate))) expect(schemaAccepts(key), key).toBe(false);
  });

  it.each([
    ['ctrl+m', /Enter/],
    ['ctrl+j', /line feed/],
    ['ctrl+i', /Tab/],
    ['ctrl+[', /Esc/],
    ['ctrl+c', /Ctrl-C/],
    ['ctrl+d', /Ctrl-D/],
  ])('%s is refused by the schema, by `config set` and by the app, saying why', (key, why) => {
    expect(schemaAccepts(key)).toBe(false);
    expect(() => parseCommandKey(key)).toThrow(why);
    expect(() => parseCommandKey(key.toUpperCase())).toThrow(why);
    expect(schema.description).toContain(key);
    const env = { REWIND_CONFIG_DIR: tmp };
    expect(() => setConfigValue('command_key', key, env)).toThrow(/^cannot set `command_key`: must be a string matching /);
    expect(readdirSync(tmp)).toEqual([]);
  });
});
