// How every command and the app read config.json: a typo must never block a restore or the
// agent. Each bad key is reported and takes its default; the good keys keep their values.
// No `conf` (ajv) here: this runs on every command, and validate.ts checks each key exactly
// as ajv would. `rewind config validate` and `config set` stay strict (config.ts).
import { readFileSync } from 'node:fs';
import { isUserError } from '../shared/errors.js';
import { cannotReadError, configFilePath, parseConfigObject } from './file.js';
import { closestKey, configDefaults, CONFIG_KEYS, describeExpected, formatGot, isConfigKey, propertySchema, setCommandFor, type ConfigKey, type RewindConfig } from './schema.js';
import { matchesSchema } from './validate.js';

/** The effective config, and one line per problem found in config.json (none: it is valid). */
export interface LoadedConfig {
  config: RewindConfig;
  /** Each names the file, the key, what is expected and what is used instead. */
  problems: string[];
}

/** What is wrong with one key of the file. */
type KeyIssue = { kind: 'value'; key: string; value: unknown } | { kind: 'unknown'; key: string };

const ALL_DEFAULTS = 'so every setting takes its default';

/**
 * config.json over the schema's defaults, never throwing for what is in the file: a key
 * with a bad value (type, range, pattern) or an unknown key is one problem line and its
 * default stands in; a file that cannot be read, is not JSON or not an object gives all
 * defaults and one problem line. No file: the defaults, no problems. Reads, never writes.
 */
export async function loadConfigLenient(env: NodeJS.ProcessEnv = process.env): Promise<LoadedConfig> {
  const file = configFilePath(env);
  const config = configDefaults();
  let data: Record<string, unknown>;
  try {
    data = parseConfigObject(readFileSync(file, 'utf8'), file, ALL_DEFAULTS);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { config, problems: [] };
    const problem = isUserError(error) ? error : cannotReadError(file, error, ALL_DEFAULTS);
    return { config, problems: [problem.message] };
  }
  const issues: KeyIssue[] = [];
  for (const [key, value] of Object.entries(data)) {
    const schema = propertySchema(key);
    if (schema === undefined) issues.push({ kind: 'unknown', key });
    else if (!matchesSchema(schema, value)) issues.push({ kind: 'value', key, value });
    else if (isConfigKey(key)) (config as unknown as Record<string, unknown>)[key] = value;
  }
  const mentioned = new Set(Object.keys(data));
  return { config, problems: issues.map((issue) => describeIssue(issue, file, issues.length === 1, mentioned)) };
}

/** A default as the file would hold it: `20`, `"ctrl+]"`, `[]`. */
function defaultText(key: ConfigKey): string {
  return JSON.stringify(configDefaults()[key]);
}

/**
 * One problem line. `config set` refuses to write a file that stays invalid, so it is only
 * offered when this is the file's one problem; `mentioned` are the keys the file has.
 */
function describeIssue(issue: KeyIssue, file: string, alone: boolean, mentioned: ReadonlySet<string>): string {
  const { key } = issue;
  if (issue.kind === 'unknown') {
    const guess = closestKey(key);
    const keeps = guess !== undefined && !mentioned.has(guess) ? `, which keeps its default ${defaultText(guess)}` : '';
    const hint = guess !== undefined ? `did you mean \`${guess}\`${keeps}?` : `known keys: ${CONFIG_KEYS.join(', ')}`;
    return `${file}: unknown key \`${key}\` is ignored (${hint}); rename or remove it in the file`;
  }
  const expected = describeExpected(propertySchema(key) ?? { type: 'string' });
  const stands = isConfigKey(key) ? `so its default ${defaultText(key)} is used` : 'so it is ignored';
  const fix = alone && isConfigKey(key) ? `fix the file or run \`${setCommandFor(key)}\`` : 'fix the file';
  return `${file}: \`${key}\` must be ${expected} (got ${formatGot(issue.value)}), ${stands}; ${fix}`;
}
