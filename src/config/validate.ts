// Our own check of one value against one property of config.schema.json: the small subset
// of JSON Schema the file uses, with ajv's exact semantics (test/config/lenient.test.ts
// proves it agrees with conf's verdict). Cheap: the hot path validates without loading ajv.
import { BugError } from '../shared/errors.js';
import type { PropertySchema } from './schema.js';

/** Keywords that only describe: they never make a value invalid. */
const ANNOTATIONS = new Set(['description', 'default', 'examples', 'title']);
/** Keywords this validator checks. A schema using any other one is our bug, said loudly. */
const CHECKED = new Set(['type', 'minimum', 'maximum', 'exclusiveMinimum', 'minLength', 'pattern', 'items']);

const patterns = new Map<string, RegExp>();

/** A pattern compiled as ajv compiles it (`new RegExp(pattern, 'u')`, unanchored). */
function patternOf(source: string): RegExp {
  let compiled = patterns.get(source);
  if (!compiled) {
    compiled = new RegExp(source, 'u');
    patterns.set(source, compiled);
  }
  return compiled;
}

function hasType(schema: PropertySchema, value: unknown): boolean {
  switch (schema.type) {
    case 'boolean':
      return typeof value === 'boolean';
    case 'string':
      return typeof value === 'string';
    case 'array':
      return Array.isArray(value);
    // ajv's strictNumbers (its default): NaN and ±Infinity are not numbers.
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return Number.isInteger(value);
  }
}

/**
 * Whether `value` is valid for the property `schema`, exactly as ajv (conf's validator)
 * decides it. Throws a BugError if the schema uses a keyword this check does not know.
 */
export function matchesSchema(schema: PropertySchema, value: unknown): boolean {
  for (const keyword of Object.keys(schema)) {
    if (!CHECKED.has(keyword) && !ANNOTATIONS.has(keyword)) {
      throw new BugError(`config.schema.json uses \`${keyword}\`, which src/config/validate.ts does not check`);
    }
  }
  if (!hasType(schema, value)) return false;
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && !(value >= schema.minimum)) return false;
    if (schema.maximum !== undefined && !(value <= schema.maximum)) return false;
    if (schema.exclusiveMinimum !== undefined && !(value > schema.exclusiveMinimum)) return false;
  }
  if (typeof value === 'string') {
    // ajv counts code points, not UTF-16 units.
    if (schema.minLength !== undefined && [...value].length < schema.minLength) return false;
    if (schema.pattern !== undefined && !patternOf(schema.pattern).test(value)) return false;
  }
  if (Array.isArray(value) && schema.items !== undefined) {
    const items = schema.items;
    return value.every((item: unknown) => matchesSchema(items, item));
  }
  return true;
}
