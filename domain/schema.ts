/**
 * The JSON Schema builders every schema of the platform is written with, one meaning each: request and response
 * schemas (api/kernel/schema.ts adds what is about HTTP and the document), event payloads (domain/events/) and
 * what an AI answer must be (domain/ai/task.ts `output`). Pure: each returns a new plain object, keys in the order
 * written here.
 */

/** A JSON Schema, as a plain object. */
export type JsonSchema = Record<string, unknown>;

/** Any string, the empty one included. */
export const anyString: JsonSchema = { type: 'string' };
/** A string of at least one character, of any length. */
export const nonEmptyString: JsonSchema = { type: 'string', minLength: 1 };
/** A string of at most `maxLength` characters (and `extra` keywords: minLength, pattern, default, ...). */
export const str = (maxLength = 500, extra: JsonSchema = {}): JsonSchema => ({ type: 'string', maxLength, ...extra });
/** A non-empty string of at most `maxLength` characters. */
export const text = (maxLength = 500, extra: JsonSchema = {}): JsonSchema => str(maxLength, { minLength: 1, ...extra });
/** An array of at most `maxItems` strings, each at most `maxLength` characters. */
export const strings = (maxItems = 50, maxLength = 300, extra: JsonSchema = {}): JsonSchema => ({
  type: 'array',
  items: { type: 'string', maxLength },
  maxItems,
  ...extra,
});

export const num: JsonSchema = { type: 'number' };
export const int: JsonSchema = { type: 'integer' };
export const bool: JsonSchema = { type: 'boolean' };
/** ISO 8601 date-time. */
export const iso: JsonSchema = { type: 'string', format: 'date-time' };
/** ISO 8601 date-time or null. */
export const nullableIso: JsonSchema = { type: ['string', 'null'], format: 'date-time' };
export const uuid: JsonSchema = {
  type: 'string',
  pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
};
/** An absolute http(s) URL with a host (what every URL field of a request is). */
export const httpUrl = (extra: JsonSchema = {}): JsonSchema => ({
  type: 'string',
  format: 'uri',
  pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^/?#\\s]+',
  maxLength: 2048,
  ...extra,
});

/**
 * `schema` that also admits null: `nullable(int)` is `{ type: ['integer', 'null'] }`, `nullable(str(100))` keeps the
 * bounds. The schema must have a `type`; an `enum` gets null among its values as well.
 */
export function nullable(schema: JsonSchema): JsonSchema {
  const t = schema.type;
  if (t === undefined) throw new Error('nullable(): the schema has no type');
  const types: unknown[] = Array.isArray(t) ? t : [t];
  const out: JsonSchema = { ...schema, type: types.includes('null') ? types : [...types, 'null'] };
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) out.enum = [...schema.enum, null];
  return out;
}

/** `schema` or null, as a choice of the two (`nullable` adds null to the schema's own type instead). */
export const orNull = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });

/** An array of `items` (default: any strings). */
export const arr = (items: JsonSchema = { type: 'string' }, extra: JsonSchema = {}): JsonSchema => ({
  type: 'array',
  items,
  ...extra,
});

/** An object with these properties, every one of them required (and `extra` keywords). */
export const allRequired = (properties: Record<string, unknown>, extra: JsonSchema = {}) =>
  withRequired(properties, Object.keys(properties), extra);

/** An object with these properties, of which those `required` names are required (and `extra` keywords). */
export const withRequired = (properties: Record<string, unknown>, required: string[], extra: JsonSchema = {}) => ({
  type: 'object',
  properties,
  required,
  ...extra,
});

/**
 * An object used as a map: any keys, every value of `values` (the schema of one value). `mapOf({})` is a map of any
 * JSON values — a client's own free-form object (metadata it sent and gets back); generated clients type it
 * `Record<string, unknown>`, where a bare `{type: object}` gives them an empty record.
 */
export const mapOf = (values: JsonSchema, extra: JsonSchema = {}): JsonSchema => ({
  type: 'object',
  additionalProperties: values,
  ...extra,
});
