// The keys of config.json, their defaults and their rules, all read from config.schema.json
// (the one source of truth). No `conf` here: this module is cheap to import.
import { shellWord } from '../shared/shellWord.js';
import { readFileSync } from 'node:fs';
import { BugError, UserError, messageOf } from '../shared/errors.js';

/** Rewind's settings, every key present (a key missing from config.json takes its default). */
export interface RewindConfig {
  checkpoint_max_file_mb: number;
  checkpoint_retention_days: number;
  checkpoint_max_gb: number;
  checkpoint_warn_gb: number;
  checkpointing_disabled: boolean;
  checkpoint_exclude: string[];
  checkpoint_include: string[];
  gc_every: number;
  double_esc_ms: number;
  command_key: string;
  scrollback_lines: number;
  mouse_wheel_scroll: boolean;
}

export type ConfigKey = keyof RewindConfig;

/** The settable keys, in the schema's order. */
export const CONFIG_KEYS = [
  'checkpoint_max_file_mb',
  'checkpoint_retention_days',
  'checkpoint_max_gb',
  'checkpoint_warn_gb',
  'checkpointing_disabled',
  'checkpoint_exclude',
  'checkpoint_include',
  'gc_every',
  'double_esc_ms',
  'command_key',
  'scrollback_lines',
  'mouse_wheel_scroll',
] as const satisfies readonly ConfigKey[];

// Fails to compile if RewindConfig gains a key that CONFIG_KEYS lacks.
const _everyKeyListed: Exclude<ConfigKey, (typeof CONFIG_KEYS)[number]> extends never ? true : never = true;

/** The subset of JSON Schema that config.schema.json uses. */
export interface PropertySchema {
  type: 'number' | 'integer' | 'boolean' | 'string' | 'array';
  description?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  pattern?: string;
  examples?: unknown[];
  items?: PropertySchema;
}

export interface ConfigSchema {
  properties: Record<string, PropertySchema>;
  [keyword: string]: unknown;
}

let cached: ConfigSchema | undefined;

/** config.schema.json from the package root (the same relative path from src/config, dist/config and dist/bundle). */
export function configSchema(): ConfigSchema {
  if (cached) return cached;
  const url = new URL('../../config.schema.json', import.meta.url);
  try {
    cached = JSON.parse(readFileSync(url, 'utf8')) as ConfigSchema;
  } catch (error) {
    throw new BugError(`cannot read rewind's own ${url.pathname}: ${messageOf(error)}`, { cause: error });
  }
  return cached;
}

export function isConfigKey(key: string): key is ConfigKey {
  return (CONFIG_KEYS as readonly string[]).includes(key);
}

export function propertySchema(key: string): PropertySchema | undefined {
  return Object.hasOwn(configSchema().properties, key) ? configSchema().properties[key] : undefined;
}

/** Every key's default, as the schema gives it (a fresh copy each call). */
export function configDefaults(): RewindConfig {
  const defaults: Record<string, unknown> = {};
  for (const key of CONFIG_KEYS) {
    const value = propertySchema(key)?.default;
    if (value === undefined) throw new BugError(`config.schema.json has no default for \`${key}\``);
    defaults[key] = structuredClone(value);
  }
  return defaults as unknown as RewindConfig;
}

/** What a value must be, in words: "an integer >= 1", "a number from 100 to 2000", … */
export function describeExpected(schema: PropertySchema): string {
  const { minimum: min, maximum: max, exclusiveMinimum: above } = schema;
  switch (schema.type) {
    case 'boolean':
      return 'true or false';
    case 'integer':
    case 'number': {
      const noun = schema.type === 'integer' ? 'an integer' : 'a number';
      if (min !== undefined && max !== undefined) return `${noun} from ${min} to ${max}`;
      if (above !== undefined) return `${noun} > ${above}`;
      if (min !== undefined) return `${noun} >= ${min}`;
      if (max !== undefined) return `${noun} <= ${max}`;
      return noun;
    }
    case 'string': {
      if (schema.pattern === undefined) return schema.minLength ? 'a non-empty string' : 'a string';
      const examples = (schema.examples ?? []).map((example) => JSON.stringify(example));
      return `a string matching ${schema.pattern}${examples.length > 0 ? ` (e.g. ${examples.join(', ')})` : ''}`;
    }
    case 'array': {
      const items = schema.items ? describeExpected(schema.items).replace(/^an? /, '') : 'value';
      return `an array of ${items.replace(/^(.*?)(string|number|integer)/, '$1$2s')}`;
    }
  }
}

/**
 * Turns a command-line value into the key's JSON type: numbers, `true`/`false`, and lists as
 * JSON (`["*.log","tmp/"]`) or comma-separated (`*.log,tmp/`). A value that does not parse
 * is returned as the string it was, so the schema rejects it with the usual message.
 */
export function parseConfigValue(key: ConfigKey, raw: string): unknown {
  const schema = propertySchema(key);
  const text = raw.trim();
  switch (schema?.type) {
    case 'number':
    case 'integer':
      return /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text) ? Number(text) : raw;
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : raw;
    case 'array':
      if (text.startsWith('[')) {
        try {
          return JSON.parse(text) as unknown;
        } catch (error) {
          throw new UserError(
            `cannot set \`${key}\`: ${JSON.stringify(raw)} is not a valid JSON array (${messageOf(error).split(/\r?\n/)[0]}); ` +
              `give JSON like '["*.log","tmp/"]' or comma-separated patterns like '*.log,tmp/'`,
          );
        }
      }
      return text.split(',').map((item) => item.trim()).filter((item) => item.length > 0);
    default:
      return raw;
  }
}

/** A value as `rewind config get` prints it: strings bare, everything else as JSON. */
export function formatValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A short JSON rendering of a bad value for an error message. */
export function formatGot(value: unknown): string {
  // JSON.parse reads 1e400 as Infinity, which JSON.stringify would show as null.
  const text = value === undefined ? 'nothing' : typeof value === 'number' && !Number.isFinite(value) ? String(value) : JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** `rewind config set KEY DEFAULT`, ready to paste. */
export function setCommandFor(key: ConfigKey): string {
  return `rewind config set ${key} ${shellWord(formatValue(configDefaults()[key]))}`;
}

/** The known key closest to a typo, if any is close. */
export function closestKey(typo: string): ConfigKey | undefined {
  let best: { key: ConfigKey; distance: number } | undefined;
  for (const key of CONFIG_KEYS) {
    const distance = editDistance(typo.toLowerCase(), key);
    if (!best || distance < best.distance) best = { key, distance };
  }
  return best && best.distance <= Math.max(2, Math.floor(typo.length / 4)) ? best.key : undefined;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** ``unknown key `x`, did you mean `y`? (known keys: …)`` */
export function unknownKeysText(keys: string[], noun = 'key'): string {
  const names = keys.map((key) => `\`${key}\``).join(', ');
  const suggestion = keys.length === 1 && keys[0] !== undefined ? closestKey(keys[0]) : undefined;
  return `unknown ${noun}${keys.length > 1 ? 's' : ''} ${names}${suggestion ? `, did you mean \`${suggestion}\`?` : ''} (known keys: ${CONFIG_KEYS.join(', ')})`;
}
