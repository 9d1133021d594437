/**
 * What the OpenAPI document does for client generators and readers (docs/api.md, "Generated clients"): the same
 * documents stay valid after each pass, enum member names never repeat, tags are all described and in the
 * specification's order. The generated-clients e2e test runs the generators themselves.
 */
import Ajv2020 from 'ajv/dist/2020';
import { buildOpenApi } from '../../../api/kernel/openapi';
import { foldIntoBranches, withEnumVarnames } from '../../../api/kernel/openapi-passes';
import { TAG_GROUPS, TAGS } from '../../../api/kernel/openapi-tags';
import { docsRoutes } from '../../../api/docs/routes';
import { PLATFORM_ROUTES } from '../../../api/routes';
import type { RouteDef } from '../../../api/kernel/registry';
import { WEBHOOK_NAMES } from '../../../domain/webhooks/catalogue';

const routes: RouteDef[] = [...PLATFORM_ROUTES];
routes.push(...docsRoutes(() => routes));
const doc = buildOpenApi(routes, { version: 'test' }) as {
  tags: { name: string; description: string }[];
  'x-tagGroups': { name: string; tags: string[] }[];
  paths: Record<string, Record<string, { tags?: string[]; responses: Record<string, { headers?: object }> }>>;
  components: { headers: Record<string, unknown> };
  webhooks: Record<string, { post: { parameters: { name: string }[]; requestBody: unknown } }>;
};
const operations = Object.values(doc.paths).flatMap((item) =>
  Object.entries(item)
    .filter(([m]) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
    .map(([, op]) => op),
);

describe('the OpenAPI document for generators', () => {
  it('folds common properties into each oneOf branch, accepting and refusing the same documents', () => {
    const schema = {
      type: 'object',
      properties: { text: { type: 'string' }, kind: { enum: ['a', 'b'] } },
      required: ['text', 'kind'],
      oneOf: [
        { properties: { kind: { const: 'a' }, a: { type: 'integer' } }, required: ['a'] },
        { properties: { kind: { const: 'b' }, b: { type: 'string' } }, required: ['b'] },
      ],
    };
    const folded = foldIntoBranches(schema) as { oneOf: { properties: object; required: string[] }[] };
    expect(folded).not.toHaveProperty('properties');
    expect(folded.oneOf[0].required).toEqual(['text', 'kind', 'a']);
    const ajv = new Ajv2020({ strict: false });
    const [before, after] = [ajv.compile(schema), ajv.compile(folded)];
    for (const d of [
      { text: 't', kind: 'a', a: 1 },
      { text: 't', kind: 'b', b: 'x' },
      { kind: 'a', a: 1 },
      { text: 't', kind: 'a', b: 'x' },
      { text: 1, kind: 'b', b: 'x' },
      { text: 't', kind: 'c' },
    ])
      expect([d, after(d)]).toEqual([d, before(d)]);
  });

  it('names enum members once: x-enum-varnames only where two values would get one name', () => {
    expect(withEnumVarnames({ enum: ['content.generated', 'content_generated', 'quota.warning'] })).toEqual({
      enum: ['content.generated', 'content_generated', 'quota.warning'],
      'x-enum-varnames': ['CONTENT_GENERATED', 'CONTENT_GENERATED_2', 'QUOTA_WARNING'],
    });
    expect(withEnumVarnames({ enum: ['draft', 'published'] })).toEqual({ enum: ['draft', 'published'] });
    // In the whole document, no enum repeats a member name without saying how to tell them apart.
    const repeats: string[] = [];
    const walk = (n: unknown): void => {
      if (Array.isArray(n)) return n.forEach(walk);
      if (!n || typeof n !== 'object') return;
      const o = n as Record<string, unknown>;
      if (Array.isArray(o.enum) && o.enum.every((v) => typeof v === 'string')) {
        const names =
          (o['x-enum-varnames'] as string[] | undefined) ??
          (o.enum as string[]).map((v) => v.replace(/[^A-Za-z0-9]+/g, '_').toUpperCase());
        if (new Set(names).size !== names.length) repeats.push(JSON.stringify(o.enum));
      }
      Object.values(o).forEach(walk);
    };
    walk(doc);
    expect(repeats).toEqual([]);
  });

  it('describes every tag an operation carries, once, in the order of the specification', () => {
    const used = new Set(operations.flatMap((op) => op.tags ?? []));
    expect([...used].filter((t) => !TAGS.some((x) => x.name === t))).toEqual([]);
    expect(TAGS.filter((t) => !used.has(t.name)).map((t) => t.name)).toEqual([]);
    expect(new Set(TAGS.map((t) => t.name)).size).toBe(TAGS.length);
    expect(doc.tags.map((t) => t.name)).toEqual(TAGS.map((t) => t.name));
    for (const t of doc.tags) expect(t.description.length).toBeGreaterThan(20);
    expect(doc['x-tagGroups'].flatMap((g) => g.tags)).toEqual(TAGS.map((t) => t.name));
    expect(TAG_GROUPS.map((g) => g.name.match(/Document \d/)?.[0])).toEqual([
      'Document 1',
      'Document 2',
      'Document 3',
      undefined,
    ]);
  });

  it('documents the headers each answer carries', () => {
    const headers = (p: string, m: string, status: string) =>
      Object.keys(doc.paths[p][m].responses[status].headers ?? {});
    // Every answer has its request id.
    for (const item of Object.values(doc.paths))
      for (const op of Object.values(item))
        for (const r of Object.values(op.responses ?? {}))
          expect(Object.keys(r.headers ?? {})).toContain('X-Request-Id');
    expect(headers('/api/tasks/{task_id}', 'get', '200')).toEqual(
      expect.arrayContaining(['RateLimit-Policy', 'RateLimit', 'ETag', 'Retry-After']),
    );
    expect(headers('/api/tasks/{task_id}', 'get', '401')).toEqual(['X-Request-Id', 'WWW-Authenticate']);
    expect(headers('/api/tasks/{task_id}', 'get', '429')).toContain('Retry-After');
    expect(headers('/v1/content/generate', 'post', '202')).toEqual(expect.arrayContaining(['Location', 'Retry-After']));
    expect(headers('/v1/calendar/calendars', 'get', '200')).toEqual(
      expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']),
    );
    expect(headers('/api/health', 'get', '200')).toEqual(['X-Request-Id']);
    // Every header named is defined once, under components.
    const named = new Set(
      JSON.stringify(doc.paths)
        .match(/#\/components\/headers\/[^"]+/g)!
        .map((r) => r.split('/').pop()),
    );
    expect([...named].filter((n) => !(n! in doc.components.headers))).toEqual([]);
  });

  it('lists every event the platform delivers under webhooks, with its body and the signature headers', () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual(Object.keys(WEBHOOK_NAMES).sort());
    for (const [name, w] of Object.entries(doc.webhooks)) {
      expect([name, w.post.parameters.map((p) => p.name)]).toEqual([
        name,
        ['webhook-id', 'webhook-timestamp', 'webhook-signature'],
      ]);
      const body = JSON.stringify(w.post.requestBody);
      expect(body).toContain(`"const":"${name}"`);
    }
  });
});
