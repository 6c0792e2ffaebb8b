// Our per-key validator (src/config/validate.ts, behind loadConfigLenient) must give conf's
// (ajv's) verdict: proven over random config files, written as JSON text so that numbers
// like 1e400, -0 or 2000.0 reach both exactly as a user would type them.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strictConfigReader } from '../../src/config/config.js';
import { loadConfigLenient } from '../../src/config/lenient.js';
import { CONFIG_KEYS, configDefaults, configSchema, isConfigKey, propertySchema } from '../../src/config/schema.js';
import { matchesSchema } from '../../src/config/validate.js';
import { BugError } from '../../src/shared/errors.js';

let tmp: string;
let env: NodeJS.ProcessEnv;
let file: string;
let readStrictly: ReturnType<typeof strictConfigReader>;

beforeAll(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'rewind-agree-'));
  env = { REWIND_CONFIG_DIR: tmp };
  file = path.join(tmp, 'config.json');
  // One conf (one compiled ajv validator) for every file below: set up on a valid file.
  readStrictly = strictConfigReader(env);
  writeFileSync(file, '{}');
  readStrictly();
});

afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
});

/** Every `ctrl+X` for printable ASCII X, in both cases, plus near misses. */
const commandKeys = [
  ...Array.from({ length: 95 }, (_, index) => `ctrl+${String.fromCharCode(32 + index)}`),
  'ctrl+', 'ctrl+gg', 'Ctrl+g', 'CTRL+]', ' ctrl+g', 'ctrl+g ', 'ctrl+g\n', 'ctrl+é', 'alt+g', 'g', '',
];

const numberTexts = [
  '0', '-0', '0.0', '1', '-1', '0.5', '1.5', '2.0', '20', '99', '99.9', '100', '100.0', '400', '2000', '2000.0', '2000.5',
  '2001', '1e2', '2E3', '1e-320', '5e-324', '1e400', '-1e400', '1e21', '9007199254740993', '100.00000000000000001',
];

const literalTexts = ['true', 'false', 'null', '[]', '{}', '""', '"20"', '["*.log"]', '[""]', '["a", 1]', '[null]', '["\u{1F600}"]'];

/** A value's JSON text, biased towards what the schema's keywords decide on. */
const valueText: fc.Arbitrary<string> = fc.oneof(
  fc.json({ maxDepth: 2 }),
  fc.constantFrom(...numberTexts),
  fc.integer({ min: -3, max: 2100 }).map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((value) => JSON.stringify(value)),
  fc.constantFrom(...literalTexts),
  fc.constantFrom(...commandKeys).map((key) => JSON.stringify(key)),
  fc.array(fc.oneof(fc.string({ maxLength: 4 }), fc.constant(''), fc.constantFrom('*.log', 'tmp/', '\u{1F600}')), { maxLength: 3 }).map((items) => JSON.stringify(items)),
  fc.array(fc.oneof(fc.string({ maxLength: 2 }), fc.integer(), fc.constant(null)), { maxLength: 3 }).map((items) => JSON.stringify(items)),
);

const knownKey = fc.constantFrom(...CONFIG_KEYS, '$schema');
const anyKey = fc.oneof(
  { weight: 6, arbitrary: knownKey },
  { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'gc_evry', 'GC_EVERY', 'toString', '') },
  { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
);

function fileText(entries: readonly (readonly [string, string])[]): string {
  return `{${entries.map(([key, text]) => `${JSON.stringify(key)}: ${text}`).join(', ')}}`;
}

/** conf's verdict: the config it gives, or undefined when it refuses the file. */
function confVerdict(): Record<string, unknown> | undefined {
  try {
    return readStrictly().config as unknown as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

describe('the lenient validator agrees with conf (ajv)', () => {
  /** Writes `{key: text}`, and checks that both give the same verdict and the same config. */
  async function expectSameVerdict(key: string, text: string): Promise<void> {
    writeFileSync(file, fileText([[key, text]]));
    const byConf = confVerdict();
    const { config, problems } = await loadConfigLenient(env);
    expect(problems.length === 0, `${key}: ${text}`).toBe(byConf !== undefined);
    expect(problems.length).toBeLessThanOrEqual(1);
    if (byConf !== undefined) expect(config).toEqual(byConf);
    else if (isConfigKey(key)) expect(config).toEqual(configDefaults());
  }

  it('on every key with each boundary number, literal, and ctrl+ key', async () => {
    const texts = [...numberTexts, ...literalTexts, ...commandKeys.map((key) => JSON.stringify(key))];
    for (const key of [...CONFIG_KEYS, '$schema']) {
      for (const text of texts) await expectSameVerdict(key, text);
    }
  });

  it('on any single key and value: same verdict, and the same value kept', async () => {
    await fc.assert(fc.asyncProperty(knownKey, valueText, expectSameVerdict), { numRuns: 2_000 });
  });

  it('on whole files: valid exactly when conf says so; each bad key alone takes its default', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.tuple(anyKey, valueText), { selector: ([key]) => key, maxLength: 5 }), async (entries) => {
        writeFileSync(file, fileText(entries));
        const byConf = confVerdict();
        const { config, problems } = await loadConfigLenient(env);
        expect(problems.length === 0).toBe(byConf !== undefined);
        if (byConf !== undefined) expect(config).toEqual(byConf);
        const parsed = JSON.parse(fileText(entries)) as Record<string, unknown>;
        const isAbout = (problem: string, key: string) =>
          problem.startsWith(`${file}: \`${key}\` must be `) || problem.startsWith(`${file}: unknown key \`${key}\` is ignored`);
        const bad = entries.filter(([key]) => problems.some((problem) => isAbout(problem, key)));
        expect(bad.length).toBe(problems.length);
        for (const key of CONFIG_KEYS) {
          const fromFile = Object.hasOwn(parsed, key) && !bad.some(([badKey]) => badKey === key);
          expect(config[key]).toEqual(fromFile ? parsed[key] : configDefaults()[key]);
        }
      }),
      { numRuns: 1_000 },
    );
  });

  it('accepts every default and knows every keyword the schema uses', () => {
    for (const [key, schema] of Object.entries(configSchema().properties)) {
      if (schema.default !== undefined) expect(matchesSchema(schema, schema.default), key).toBe(true);
      expect(() => matchesSchema(schema, null), key).not.toThrow();
    }
    expect(propertySchema('command_key')?.pattern).toBeTypeOf('string');
  });

  it('refuses to guess about a keyword it does not check', () => {
    expect(() => matchesSchema({ type: 'string', format: 'email' } as never, 'a@b')).toThrow(BugError);
  });
});
