// config.json as text: where it is, and turning its text into an object with a message
// that names the file when it is not one. No `conf` and no schema validation here,
// so a hot path can read the file cheaply.
import path from 'node:path';
import { UserError, messageOf } from '../shared/errors.js';
import { configDir } from './paths.js';
import { propertySchema, unknownKeysText } from './schema.js';

export const CANNOT_READ_ADVICE = 'fix it by hand: rewind never rewrites a config file it cannot read';

/** `<configDir(env)>/config.json` (`$REWIND_CONFIG_DIR` overrides the OS config dir). */
export function configFilePath(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(configDir(env), 'config.json');
}

/**
 * config.json's text as an object: JSON, an object at the top, only known keys. Values are
 * NOT checked against the schema (`inspectConfig` and `loadConfigLenient` do that). An empty file holds no settings.
 * Throws a one-line UserError naming `file` otherwise.
 */
export function parseConfigText(text: string, file: string): Record<string, unknown> {
  const record = parseConfigObject(text, file);
  const unknown = Object.keys(record).filter((key) => propertySchema(key) === undefined);
  if (unknown.length > 0) {
    throw new UserError(`${file}: ${unknownKeysText(unknown)}; rename or remove ${unknown.length > 1 ? 'them' : 'it'} in the file`);
  }
  return record;
}

/**
 * config.json's text as an object (JSON, an object at the top), keys NOT checked. An empty
 * file holds no settings. Throws a one-line UserError naming `file` otherwise; `consequence`
 * (e.g. "so every setting takes its default") is said before the advice.
 */
export function parseConfigObject(text: string, file: string, consequence = ''): Record<string, unknown> {
  const body = text.replace(/^\uFEFF/, '');
  if (body.trim() === '') return {};
  const then = consequence === '' ? '' : `, ${consequence}`;
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch (error) {
    throw new UserError(`${file} is not valid JSON (${describeJsonError(error, body)})${then}; ${CANNOT_READ_ADVICE}`, { cause: error });
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    const got = Array.isArray(data) ? 'an array' : data === null ? 'null' : `a ${typeof data}`;
    throw new UserError(`${file} must hold a JSON object like {"gc_every": 20} (got ${got})${then}; ${CANNOT_READ_ADVICE}`);
  }
  return data as Record<string, unknown>;
}

/** "cannot read FILE: why; check …", with `consequence` said before the advice. */
export function cannotReadError(file: string, error: unknown, consequence = ''): UserError {
  const then = consequence === '' ? '' : `, ${consequence}`;
  return new UserError(`cannot read ${file}: ${messageOf(error)}${then}; check that it is a file you can read`, { cause: error });
}

/** The first indentation used in a JSON text, so a rewrite keeps the user's style. */
export function indentOf(text: string): string {
  return /^([ \t]+)"/m.exec(text)?.[1] ?? '  ';
}

/** V8's JSON.parse message on one line, with "at position N" turned into a line and column. */
function describeJsonError(error: unknown, text: string): string {
  // V8 quotes the whole input in some messages (`Unexpected token 'x', "{...}" is not valid JSON`).
  let message = messageOf(error).replace(/, ".*" is not valid JSON$/s, '').replace(/ in JSON/, '');
  const position = /at position (\d+)/.exec(message);
  if (position) {
    message = message.replace(/ at position \d+.*$/s, ` at ${lineAndColumn(text, Number(position[1]))}`);
  } else if (/Unexpected end of JSON input/.test(message)) {
    message = `unexpected end of file at ${lineAndColumn(text, text.length)}`;
  }
  return message.replace(/\s+/g, ' ').trim();
}

function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}`;
}
