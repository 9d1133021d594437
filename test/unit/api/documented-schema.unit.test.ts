/**
 * The OpenAPI document shows a kind-dependent body (ajv: allOf of if/then) as oneOf of its kinds; both forms must
 * accept and refuse the same bodies.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import { documentedSchema } from '../../../api/kernel/openapi-passes';
import { closeObjects } from '../../../api/kernel/schema';
import { PLATFORM_ROUTES } from '../../../api/routes';

const validated = {
  type: 'object',
  properties: { type: { enum: ['post', 'story'] } },
  required: ['type'],
  allOf: [
    {
      if: { properties: { type: { const: 'post' } } },
      then: { type: 'object', properties: { topic: { type: 'string', minLength: 1 } }, required: ['topic'] },
    },
    {
      if: { properties: { type: { const: 'story' } } },
      then: { type: 'object', properties: { frames: { type: 'integer', minimum: 1 } }, required: ['frames'] },
    },
  ],
};

describe('documentedSchema', () => {
  const shown = documentedSchema(validated) as Record<string, unknown>;

  it('turns allOf of if {type: const} then S into oneOf of S with the const, leaving the rest', () => {
    expect(shown.allOf).toBeUndefined();
    expect(shown.required).toEqual(['type']);
    expect(shown.oneOf).toEqual([
      {
        type: 'object',
        properties: { topic: { type: 'string', minLength: 1 }, type: { const: 'post' } },
        required: ['topic', 'type'],
      },
      {
        type: 'object',
        properties: { frames: { type: 'integer', minimum: 1 }, type: { const: 'story' } },
        required: ['frames', 'type'],
      },
    ]);
  });

  it('accepts and refuses the same bodies as the validated form', () => {
    const ajv = new Ajv({ strict: false });
    const a = ajv.compile(validated);
    const b = ajv.compile(shown);
    const bodies = [
      { type: 'post', topic: 'x' },
      { type: 'post', topic: '' },
      { type: 'post' },
      { type: 'story', frames: 3 },
      { type: 'story', frames: 0 },
      { type: 'story', topic: 'x' },
      { type: 'reel', topic: 'x' },
      {},
    ];
    expect(bodies.map((x) => b(x))).toEqual(bodies.map((x) => a(x)));
    expect(bodies.map((x) => a(x))).toEqual([true, false, false, true, false, false, false, false]);
  });

  it('closed per kind (every route body is): both forms refuse a field of another kind and an unknown one', () => {
    const ajv = new Ajv({ strict: false });
    const closed = closeObjects(validated);
    const a = ajv.compile(closed);
    const b = ajv.compile(documentedSchema(closed) as object);
    const bodies = [
      { type: 'post', topic: 'x' },
      { type: 'story', frames: 3 },
      { type: 'post', topic: 'x', frames: 3 },
      { type: 'story', frames: 3, topic: 'x' },
      { type: 'post', topic: 'x', tpoic: 'y' },
    ];
    expect(bodies.map((x) => b(x))).toEqual(bodies.map((x) => a(x)));
    expect(bodies.map((x) => a(x))).toEqual([true, true, false, false, false]);
  });

  it('leaves other schemas as they are', () => {
    const plain = { type: 'object', allOf: [{ required: ['a'] }], properties: { a: { type: 'string' } } };
    expect(documentedSchema(plain)).toEqual(plain);
  });
});

describe('unknown body fields: the open objects of every route are the ones docs/api.md lists', () => {
  type S = Record<string, unknown>;
  /** Every object of a closed body that still takes fields it does not name, as "METHOD /path location". */
  const openObjects = (s: S, at: string, out: string[]) => {
    if (!s || typeof s !== 'object') return;
    for (const [k, v] of Object.entries((s.properties as Record<string, S>) ?? {})) openObjects(v, `${at}.${k}`, out);
    if (s.items && typeof s.items === 'object') openObjects(s.items as S, `${at}[]`, out);
    if (s.additionalProperties && typeof s.additionalProperties === 'object')
      openObjects(s.additionalProperties as S, `${at}.*`, out);
    for (const k of ['allOf', 'anyOf', 'oneOf'])
      for (const b of (s[k] as S[] | undefined) ?? []) openObjects(b, at, out);
    for (const k of ['then', 'else']) if (s[k]) openObjects(s[k] as S, at, out);
    const isObject = s.type === 'object' || !!s.properties;
    if (isObject && (s.additionalProperties === true || (!s.properties && s.additionalProperties === undefined)))
      out.push(at);
  };
  const found = new Set(
    PLATFORM_ROUTES.filter((r) => r.request?.body).flatMap((r) => {
      const out: string[] = [];
      openObjects(closeObjects(r.request!.body as S), '', out);
      return out.map((at) => `${r.method.toUpperCase()} ${r.path} ${at.replace(/^\./, '') || '(body)'}`);
    }),
  );

  it('every open object is listed with its reason, and the list names nothing closed', () => {
    const doc = readFileSync(path.join(__dirname, '../../../docs/api.md'), 'utf8');
    const section = doc.slice(
      doc.indexOf('### Unknown fields'),
      doc.indexOf('\n## ', doc.indexOf('### Unknown fields')),
    );
    expect(section.length).toBeGreaterThan(100);
    const listed = new Set<string>();
    // "- `POST /a` and `PUT /b` `x`, `y`: reason": each route with each location (`(body)`: the whole body).
    for (const item of section.split('\n- ').slice(1)) {
      // The item's head: up to its first colon outside backticks.
      let ticks = 0;
      const end = [...item].findIndex((c) => (c === '`' ? (ticks++, false) : c === ':' && ticks % 2 === 0));
      const head = item.slice(0, end);
      const codes = [...head.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
      const isOp = (c: string) => /^(GET|POST|PUT|PATCH|DELETE) \//.test(c);
      for (const op of codes.filter(isOp)) for (const at of codes.filter((c) => !isOp(c))) listed.add(`${op} ${at}`);
    }
    expect([...found].filter((f) => !listed.has(f)).sort()).toEqual([]);
    expect([...listed].filter((l) => !found.has(l)).sort()).toEqual([]);
  });
});
