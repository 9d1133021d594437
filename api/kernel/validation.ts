/**
 * Request validation with ajv, compiled once per route (on its first request) from the schemas the
 * route declares (the same schemas the OpenAPI document shows). Bodies are
 * checked as sent (a string where an integer is expected is refused); query
 * and path values arrive as text and are coerced to the declared types.
 * Defaults are applied; a body field the schema does not name is refused by
 * its path (every object that names its properties is closed: closeObjects in
 * schema.ts), unknown query parameters are ignored; every wrong type, missing
 * required field or broken bound is reported with its field path.
 */
import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats';
import { FieldIssue, ValidationError } from '../../domain/errors';
import { isSecretField, REDACTED, redactSecrets } from '../../domain/redaction';
import { findAllUnstorableText } from '../../domain/storable-text';
import type { JsonSchema } from './envelopes/common';
import { closeObjects } from './schema';

const opts = { allErrors: true, useDefaults: true, strict: false, verbose: true } as const;
const bodyAjv = new Ajv({ ...opts, coerceTypes: false });
const textAjv = new Ajv({ ...opts, coerceTypes: 'array' });
addFormats(bodyAjv);
addFormats(textAjv);

/**
 * `date-time` and `date` name an instant every part of the platform can hold: RFC 3339 (ajv-formats' full check)
 * and, on top, a time JavaScript parses (no leap second `:60`) whose UTC year is 0001–9999 (PostgreSQL refuses
 * year 0 and negative years; an offset such as `-21:36` is fine once read as UTC). Anything else is a
 * VALIDATION_ERROR at the edge instead of a database error later.
 */
const YEAR_MIN = new Date('0001-01-01T00:00:00Z').getTime();
const YEAR_MAX = new Date('9999-12-31T23:59:59.999Z').getTime();
const rfc = (name: 'date-time' | 'date') => {
  const f = fullFormats[name] as { validate: (s: string) => boolean };
  return (s: string) => {
    if (!f.validate(s)) return false;
    const t = Date.parse(name === 'date' ? `${s}T00:00:00Z` : s.toUpperCase());
    return Number.isFinite(t) && t >= YEAR_MIN && t <= YEAR_MAX;
  };
};
for (const ajv of [bodyAjv, textAjv]) {
  ajv.addFormat('date-time', { type: 'string', validate: rfc('date-time') });
  ajv.addFormat('date', { type: 'string', validate: rfc('date') });
}

export type Location = FieldIssue['location'];

/**
 * The refused value, echoed back so the client sees what was wrong — except a secret's (a webhook secret too long,
 * a client secret in a form): an error body never carries one (domain/redaction.ts). Credential texts sent in any
 * other field are redacted too.
 */
const provided = (path: string, value: unknown) =>
  isSecretField(path.slice(path.lastIndexOf('.') + 1)) ? REDACTED : redactSecrets(value);

const dotted = (pointer: string) =>
  pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');

function issueOf(e: ErrorObject, location: Location): FieldIssue {
  const base = dotted(e.instancePath);
  if (e.keyword === 'required') {
    const path = [base, (e.params as { missingProperty: string }).missingProperty].filter(Boolean).join('.');
    return { location, path, kind: 'missing', message: `${path} is required` };
  }
  if (e.keyword === 'additionalProperties') {
    // A closed object (additionalProperties: false) names the field it does not know, not its parent.
    const field = (e.params as { additionalProperty: string }).additionalProperty;
    const path = [base, field].filter(Boolean).join('.');
    return {
      location,
      path,
      kind: 'constraint',
      message: `${path} is not a field of ${base || `this ${location}`}: unknown fields are refused, not ignored`,
    };
  }
  const path = base;
  const name = path || location;
  if (e.keyword === 'type') {
    const expected = String((e.params as { type: string | string[] }).type);
    return {
      location,
      path,
      kind: 'type',
      message: `${name} must be ${expected}`,
      expected_type: expected,
      provided_value: provided(path, e.data),
    };
  }
  return {
    location,
    path,
    kind: 'constraint',
    message: `${name} ${e.message ?? 'is invalid'}`,
    provided_value: provided(path, e.data),
  };
}

/**
 * Keeps the most useful issue per field: a type error or a missing field beats the constraint noise of anyOf/oneOf.
 * A value that fits none of a field's alternative forms (`"one minute"` for a duration taken as `60_seconds` or a
 * number) is told the forms, from the field's description, rather than one branch's complaint ("must be integer").
 */
function issues(errors: ErrorObject[], location: Location): FieldIssue[] {
  const out = new Map<string, FieldIssue>();
  const alternatives: ErrorObject[] = [];
  for (const e of errors) {
    if (e.keyword === 'anyOf' || e.keyword === 'oneOf') alternatives.push(e);
    if (e.keyword === 'anyOf' || e.keyword === 'oneOf' || e.keyword === 'if') continue;
    const i = issueOf(e, location);
    const prev = out.get(i.path);
    if (!prev || (prev.kind === 'constraint' && i.kind !== 'constraint')) out.set(i.path, i);
  }
  for (const e of alternatives) {
    const path = dotted(e.instancePath);
    // Alternatives of required fields only (a title or an idea): one issue naming them all, not "title is required".
    const branches = e.schema as unknown;
    if (
      Array.isArray(branches) &&
      branches.every((b) => b && Object.keys(b).join() === 'required' && Array.isArray(b.required))
    ) {
      const fields = (branches as { required: string[] }[]).map((b) =>
        b.required.map((f) => [path, f].filter(Boolean).join('.')),
      );
      const missing = fields.flat().filter((f) => out.get(f)?.kind === 'missing');
      if (!missing.length) continue;
      for (const f of missing) out.delete(f);
      out.set(missing[0], {
        location,
        path: missing[0],
        kind: 'missing',
        message: `${fields.map((f) => f.join(' and ')).join(' or ')} is required`,
      });
      continue;
    }
    const forms = (e.parentSchema as { description?: unknown } | undefined)?.description;
    if (!out.has(path) || typeof forms !== 'string') continue;
    out.set(path, {
      location,
      path,
      kind: 'constraint',
      message: `${path || location} fits none of its accepted forms: ${forms}`,
      provided_value: provided(path, e.data),
    });
  }
  return [...out.values()];
}

export interface RequestSchemas {
  body?: JsonSchema;
  query?: JsonSchema;
  params?: JsonSchema;
}

export interface ValidatedInput {
  body: unknown;
  query: Record<string, unknown>;
  params: Record<string, unknown>;
}

export type RequestValidator = (raw: { body: unknown; query: unknown; params: unknown }) => ValidatedInput;

interface CompiledRequest {
  body?: ValidateFunction;
  query?: ValidateFunction;
  params?: ValidateFunction;
}

function compileSchemas(schemas: RequestSchemas): CompiledRequest {
  return {
    // One rule for every route: a body field the schema does not name is refused (closeObjects, docs/api.md).
    body: schemas.body ? bodyAjv.compile(closeObjects(schemas.body)) : undefined,
    query: schemas.query ? textAjv.compile(schemas.query) : undefined,
    params: schemas.params ? textAjv.compile(schemas.params) : undefined,
  };
}

/**
 * A route's validator: the returned function returns coerced, defaulted copies or throws ValidationError. The schemas
 * are compiled on the route's first request, not when the routes are mounted: compiling all 242 routes took
 * 0.5–0.9 s of CPU at every API start, most of it for routes a process (or a test) never serves; the first request
 * of a route pays its own few milliseconds. `eager` compiles at once (test/unit/api/validation.unit.test.ts compiles
 * every route's, so a schema ajv refuses still fails the suite, not a client's first request).
 */
export function compileRequest(schemas: RequestSchemas = {}, opts: { eager?: boolean } = {}): RequestValidator {
  let compiled = opts.eager ? compileSchemas(schemas) : undefined;
  return (raw) => {
    const { body, query, params } = (compiled ??= compileSchemas(schemas));
    const found: FieldIssue[] = [];
    const run = (v: ValidateFunction | undefined, data: unknown, location: Location) => {
      if (v && !v(data)) found.push(...issues(v.errors ?? [], location));
      return data;
    };
    // A missing body is an empty object, so the client learns which fields are required.
    const b = run(body, raw.body === undefined ? (schemas.body?.type === 'object' ? {} : undefined) : raw.body, 'body');
    const q = run(query, { ...((raw.query as object) ?? {}) }, 'query') as Record<string, unknown>;
    const p = run(params, { ...((raw.params as object) ?? {}) }, 'path') as Record<string, unknown>;
    // Text the platform cannot store (NUL, unpaired surrogates) is refused here, whatever the schema says.
    for (const [value, location] of [
      [raw.body, 'body'],
      [raw.query, 'query'],
      [raw.params, 'path'],
    ] as const) {
      for (const bad of findAllUnstorableText(value)) {
        found.push({
          location,
          path: bad.path,
          kind: 'constraint',
          message: `${bad.path || location} must not contain a ${bad.problem}`,
        });
      }
    }
    if (found.length) throw new ValidationError(found);
    return { body: b, query: q, params: p };
  };
}
