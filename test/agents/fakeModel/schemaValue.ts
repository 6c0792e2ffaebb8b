// A value that satisfies a JSON schema (or Gemini's upper-case OpenAPI flavour): the answer
// to structured side requests such as Gemini's model router, which must parse and validate.

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minItems?: number;
  anyOf?: Schema[];
  oneOf?: Schema[];
}

/**
 * The smallest plausible value for `schema`: first enum value, `text` for strings, a number at
 * its minimum (or 1), required properties only.
 */
export function valueFor(schema: Schema | undefined, text = 'ok'): unknown {
  if (!schema) return text;
  if (schema.enum && schema.enum.length > 0) return schema.enum[0];
  const alternative = schema.anyOf?.[0] ?? schema.oneOf?.[0];
  if (alternative) return valueFor(alternative, text);
  const type = String(Array.isArray(schema.type) ? schema.type[0] : schema.type ?? 'object').toLowerCase();
  switch (type) {
    case 'string':
      return text;
    case 'number':
    case 'integer':
      // Routers reject a score of 0: start at the minimum, or 1.
      return Math.min(schema.maximum ?? Infinity, Math.max(schema.minimum ?? 1, 1));
    case 'boolean':
      return false;
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => valueFor(schema.items, text));
    case 'null':
      return null;
    default: {
      const properties = schema.properties ?? {};
      const names = schema.required ?? Object.keys(properties);
      return Object.fromEntries(names.map((name) => [name, valueFor(properties[name], text)]));
    }
  }
}
