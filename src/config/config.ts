// The strict config layer: config.json validated (`rewind config validate`) and written
// (`config set`) through `conf`, against config.schema.json. The user's file is never
// created by a read, never rewritten with defaults, never cleared, and never touched when a
// change would leave it invalid.
import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import Conf from 'conf';
import { UsageError, UserError, messageOf } from '../shared/errors.js';
import { configDir } from './paths.js';
import { cannotReadError, configFilePath, indentOf, parseConfigText } from './file.js';
import {
  CONFIG_KEYS,
  configDefaults,
  configSchema,
  describeExpected,
  formatGot,
  isConfigKey,
  parseConfigValue,
  propertySchema,
  setCommandFor,
  unknownKeysText,
  type ConfigKey,
  type RewindConfig,
} from './schema.js';

export type { ConfigKey, RewindConfig } from './schema.js';
export { CONFIG_KEYS, configDefaults, formatValue, isConfigKey } from './schema.js';
export { configFilePath } from './file.js';

type Data = Record<string, unknown>;
type ConfOptions = NonNullable<ConstructorParameters<typeof Conf<Data>>[0]>;

/** The effective config and where it came from. */
export interface ConfigInspection {
  file: string;
  /** False when there is no config.json: every value is a default. */
  exists: boolean;
  config: RewindConfig;
}

/**
 * Opens config.json with conf. Deliberately without `defaults`, with ajv's `useDefaults`
 * off and `clearInvalidConfig` off: any of those makes conf write or wipe the user's file.
 * Our deserializer parses (for messages that name the file) and applies `edit`, so conf
 * validates the config as it will be after a change, not as it is now.
 */
function openConf(env: NodeJS.ProcessEnv, edit: (data: Data) => Data, seen: { data: Data; indent: string }): Conf<Data> {
  const { properties, ...rootSchema } = configSchema();
  const options: ConfOptions = {
    cwd: configDir(env),
    configName: 'config',
    fileExtension: 'json',
    projectSuffix: '',
    schema: properties as ConfOptions['schema'],
    rootSchema: { ...rootSchema, additionalProperties: false } as ConfOptions['rootSchema'],
    ajvOptions: { useDefaults: false },
    clearInvalidConfig: false,
    accessPropertiesByDotNotation: false,
    configFileMode: 0o600,
    deserialize: (text) => {
      seen.indent = indentOf(text);
      seen.data = edit(parseConfigText(text, configFilePath(env)));
      return seen.data;
    },
    serialize: (data) => `${JSON.stringify(data, null, seen.indent)}\n`,
  };
  return new Conf<Data>(options);
}

/**
 * Reads and validates config.json (if any) with conf, strictly: `rewind config validate`.
 * Never writes or creates anything. Throws a one-line UserError naming the file, the key and
 * what is expected. Commands and the app use loadConfigLenient (lenient.ts) instead.
 */
export function inspectConfig(env: NodeJS.ProcessEnv = process.env): ConfigInspection {
  return strictConfigReader(env)();
}

/**
 * inspectConfig for many reads in a row (the tests that hold our lenient validator to conf's
 * verdict): conf and its ajv validator are set up once, at the first read that finds a valid
 * file, and each call reads and validates config.json as it is then.
 */
export function strictConfigReader(env: NodeJS.ProcessEnv = process.env): () => ConfigInspection {
  const file = configFilePath(env);
  const seen = { data: {} as Data, indent: '  ' };
  let conf: Conf<Data> | undefined;
  return () => {
    const config = configDefaults();
    if (!fileExists(file)) return { file, exists: false, config };
    let stored: Data;
    try {
      conf ??= openConf(env, (data) => data, seen);
      stored = conf.store; // read and checked again on every call
    } catch (error) {
      throw explain(error, file, seen.data);
    }
    for (const key of CONFIG_KEYS) {
      if (Object.hasOwn(stored, key)) (config as unknown as Data)[key] = stored[key];
    }
    return { file, exists: true, config };
  };
}

export interface SetResult {
  file: string;
  key: ConfigKey;
  value: RewindConfig[ConfigKey];
}

/**
 * Sets one key in config.json from its command-line text, keeping the user's other keys.
 * The whole resulting config is validated before anything is written; the write is atomic
 * (temp file + rename, mode 0600; the folder is created 0700 if missing). A malformed file
 * is refused untouched; a file with a bad value is only written if this change fixes it.
 */
export function setConfigValue(key: string, rawValue: string, env: NodeJS.ProcessEnv = process.env): SetResult {
  assertConfigKey(key);
  const value = parseConfigValue(key, rawValue);
  const file = configFilePath(env);
  const edit = (data: Data): Data => ({ ...data, [key]: value });
  const seen = { data: edit({}), indent: '  ' };
  try {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new UserError(`cannot create ${path.dirname(file)}: ${messageOf(error)}`, { cause: error });
  }
  let store: Conf<Data>;
  try {
    store = openConf(env, edit, seen);
  } catch (error) {
    throw explain(error, file, seen.data, key);
  }
  const next = seen.data;
  try {
    store.store = next; // conf validates `next` again, then writes it atomically
  } catch (error) {
    if (isSchemaViolation(error)) throw explain(error, file, next, key);
    throw new UserError(`cannot write ${file}: ${messageOf(error)}; the file was left as it was`, { cause: error });
  }
  return { file, key, value: value as RewindConfig[ConfigKey] };
}

/** Narrows a user-typed key, or throws a UsageError listing the known keys. */
export function assertConfigKey(key: string): asserts key is ConfigKey {
  if (!isConfigKey(key)) throw new UsageError(unknownKeysText([key], 'config key'));
}

/** Checked before conf opens the file, because conf creates the folder when it is missing. */
function fileExists(file: string): boolean {
  try {
    return statSync(file, { throwIfNoEntry: false }) !== undefined;
  } catch (error) {
    throw cannotReadError(file, error);
  }
}

function isErrnoError(error: unknown): boolean {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string';
}

function isSchemaViolation(error: unknown): error is Error {
  return error instanceof Error && error.message.startsWith('Config schema violation:');
}

/**
 * conf's errors as one line that names the file, the key, what is expected and what to do.
 * conf reports ``Config schema violation: `key` must be …; `key/0` must …``.
 */
function explain(error: unknown, file: string, data: Data, settingKey?: ConfigKey): unknown {
  if (error instanceof UserError) return error;
  if (!isSchemaViolation(error)) return isErrnoError(error) ? cannotReadError(file, error) : error;
  const keys = [...new Set([...error.message.matchAll(/`([^`]*)`/g)].map((match) => match[1]?.split('/')[0] ?? ''))];
  const bad = keys.filter((key) => propertySchema(key) !== undefined);
  if (settingKey && bad.includes(settingKey)) {
    const expected = describeExpected(propertySchema(settingKey) ?? { type: 'string' });
    return new UserError(`cannot set \`${settingKey}\`: must be ${expected} (got ${formatGot(data[settingKey])}); ${file} was left as it was`);
  }
  const [first, ...others] = bad;
  const schema = first === undefined ? undefined : propertySchema(first);
  if (first === undefined || schema === undefined) {
    const extra = keys.filter((key) => key !== '' && propertySchema(key) === undefined);
    const detail = extra.length > 0 ? unknownKeysText(extra) : error.message.replace(/^Config schema violation: /, '');
    return new UserError(`${file}: ${detail}; fix the file`);
  }
  // `set` refuses to write a config that stays invalid, so it is only advice for a lone bad key.
  const fix = isConfigKey(first) && others.length === 0 ? `fix the file or run \`${setCommandFor(first)}\`` : 'fix the file';
  const also = others.length > 0 ? ` (also invalid: ${others.map((key) => `\`${key}\``).join(', ')})` : '';
  return new UserError(`${file}: \`${first}\` must be ${describeExpected(schema)} (got ${formatGot(data[first])}); ${fix}${also}`);
}
