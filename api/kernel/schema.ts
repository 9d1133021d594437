/**
 * The schemas of routes: the builders of domain/schema.ts (one meaning each across the API and the events; ajv
 * validates with them, the OpenAPI document shows them), re-exported so a route module imports every builder from
 * here, and what is about HTTP and the document: path parameters, the bare success body, named shapes, response
 * forms of request schemas, closed request bodies. Every string a client sends is refused by the validation stage
 * when it holds text the platform cannot store (NUL, unpaired surrogates): see validation.ts.
 */
import { allRequired, anyString, int, type JsonSchema } from '../../domain/schema';

export * from '../../domain/schema';

/** Path parameters, all required. */
export const params = (properties: Record<string, unknown>) => allRequired(properties);
/** Success body `{success: true}` of bare Document 2 bodies. */
export const ok: JsonSchema = { const: true };

/**
 * A shared shape with its name: the OpenAPI document lists it once under `components.schemas` and refers to it
 * (api/kernel/openapi-passes.ts, `hoistNamed`); validation reads it inline as before (ajv ignores the `x-component` mark).
 * One name is one shape: the document build fails when a name is given to two different schemas.
 */
export const named = (name: string, schema: JsonSchema): JsonSchema => ({ ...schema, 'x-component': name });

const BOUNDS = new Set(['maxLength', 'minLength', 'maxItems', 'minItems', 'pattern', 'format', 'default']);
/** Only the size limits: what the OpenAPI document drops from every response schema (api/kernel/openapi.ts). */
export const SIZE_BOUNDS = new Set(['maxLength', 'minLength', 'maxItems', 'minItems']);

/**
 * A request schema reused to describe a response: the same shape without the
 * bounds that limit what a client may send (an enhanced heading may be longer
 * than a heading a client may send; a cited URL is whatever the source has).
 */
export function asResponse(schema: JsonSchema, drop: ReadonlySet<string> = BOUNDS): JsonSchema {
  const out: JsonSchema = {};
  const again = (x: JsonSchema) => asResponse(x, drop);
  for (const [k, v] of Object.entries(schema)) {
    if (drop.has(k)) continue;
    if (k === 'properties')
      out[k] = Object.fromEntries(Object.entries(v as Record<string, JsonSchema>).map(([name, p]) => [name, again(p)]));
    else if ((k === 'items' || k === 'additionalProperties' || k === 'not') && v && typeof v === 'object')
      out[k] = again(v as JsonSchema);
    else if (k === 'anyOf' || k === 'oneOf' || k === 'allOf') out[k] = (v as JsonSchema[]).map(again);
    else out[k] = v;
  }
  return out;
}

/** How the offline writer met a brief (domain/generation/compose.ts `Coverage`; docs/providers.md). */
export const coverageSchema: JsonSchema = {
  type: 'object',
  description:
    'Extra, offline writer only: what the text was built from, which instructions were carried out, and why it is shorter than asked (it never pads to a length)',
  properties: {
    basis: { enum: ['brief', 'brief_and_sources'] },
    key_points: int,
    key_points_used: int,
    sources_used: int,
    instructions_followed: { type: 'array', items: anyString },
    instructions_not_followed: { type: 'array', items: anyString },
    target_words: int,
    words: int,
    shortfall: anyString,
    items: { type: 'object', properties: { wanted: int, written: int }, required: ['wanted', 'written'] },
  },
  required: [
    'basis',
    'key_points',
    'key_points_used',
    'sources_used',
    'instructions_followed',
    'instructions_not_followed',
  ],
};

const BRANCHES = ['allOf', 'anyOf', 'oneOf'] as const;
const CONDITIONS = ['if', 'then', 'else'] as const;
type Schemas = Record<string, JsonSchema>;

/** The property names an object level accepts: its own and those its branches (allOf/anyOf/oneOf, if/then/else) add. */
function namesAt(s: JsonSchema): string[] {
  const own = Object.keys((s.properties as Schemas | undefined) ?? {});
  const branches = [
    ...BRANCHES.flatMap((k) => (Array.isArray(s[k]) ? (s[k] as JsonSchema[]) : [])),
    ...CONDITIONS.map((k) => s[k] as JsonSchema | undefined).filter(
      (b): b is JsonSchema => !!b && typeof b === 'object',
    ),
  ];
  return [...new Set([...own, ...branches.flatMap(namesAt)])];
}

/** Closed to its own names and `also` (accepted here, checked where they are declared). */
const closedTo = (s: JsonSchema, also: string[]): JsonSchema => ({
  ...s,
  properties: { ...Object.fromEntries(also.map((n) => [n, {}])), ...((s.properties as Schemas | undefined) ?? {}) },
  additionalProperties: false,
});

/**
 * A request body schema with every object that names its properties closed: a field the schema does not name is
 * refused (400 naming it) instead of dropped, so a client's misspelt or misplaced field is seen. Open on purpose
 * (the documented extension points, docs/api.md "Unknown fields"): objects that name no properties (free-form maps
 * such as a project's `state`) and objects whose schema says `additionalProperties` itself. An object whose fields
 * depend on its type (`allOf` of `if`/`then`) is closed per type: each type accepts the common fields and its own.
 * A field only another kind of branch names (`anyOf` of required lists) is accepted at the object's level.
 */
export function closeObjects(schema: JsonSchema, branch = false): JsonSchema {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  const out: JsonSchema = { ...schema };
  const isLevel = !!out.properties || out.type === 'object';
  if (out.properties)
    out.properties = Object.fromEntries(
      Object.entries(out.properties as Schemas).map(([k, v]) => [k, closeObjects(v)]),
    );
  if (out.items && typeof out.items === 'object') out.items = closeObjects(out.items as JsonSchema);
  if (out.additionalProperties && typeof out.additionalProperties === 'object')
    out.additionalProperties = closeObjects(out.additionalProperties as JsonSchema);
  // Branches of an object level describe the same object: closed with it, not on their own.
  for (const k of BRANCHES)
    if (Array.isArray(out[k])) out[k] = (out[k] as JsonSchema[]).map((b) => closeObjects(b, isLevel || branch));
  for (const k of CONDITIONS)
    if (out[k] && typeof out[k] === 'object') out[k] = closeObjects(out[k] as JsonSchema, isLevel || branch);
  if (branch || !out.properties || 'additionalProperties' in out || out.patternProperties) return out;
  const own = Object.keys(out.properties as Schemas);
  const rules = out.allOf as JsonSchema[] | undefined;
  if (Array.isArray(rules) && rules.length && rules.every((r) => r.if && r.then && (r.then as JsonSchema).properties))
    return { ...out, allOf: rules.map((r) => ({ ...r, then: closedTo(r.then as JsonSchema, own) })) };
  return closedTo(out, namesAt(out));
}
