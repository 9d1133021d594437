/**
 * The OpenAPI document as generators read it (issue 33): shared shapes are named components, every task type has a
 * typed record and result, no success response has a bare object, every operation is described, and every OAuth
 * operation names its scope.
 */
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { PLATFORM_ROUTES } from '../../../api/routes';
import { docsRoutes } from '../../../api/docs/routes';
import { buildOpenApi } from '../../../api/kernel/openapi';
import { hoistNamed, standaloneSchema } from '../../../api/kernel/openapi-passes';
import { named } from '../../../api/kernel/schema';
import { catalogue, pascalOf } from '../../../api/kernel/task-catalogue';

type Schema = Record<string, unknown>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = any;

const routes = [...PLATFORM_ROUTES];
routes.push(...docsRoutes(() => routes));
const doc: Doc = buildOpenApi(routes, { version: 'test' });

/** Every operation of the document with its method and path. */
const operations = Object.entries(doc.paths as Record<string, Record<string, Doc>>).flatMap(([path, ops]) =>
  Object.entries(ops).map(([method, op]) => ({ id: `${method.toUpperCase()} ${path}`, op })),
);

/** Objects (nullable ones too) that say nothing of their fields: generators make them empty records. */
function bareObjects(node: unknown, at: string, out: string[]): string[] {
  if (Array.isArray(node)) node.forEach((x, i) => bareObjects(x, `${at}/${i}`, out));
  else if (node && typeof node === 'object') {
    const s = node as Schema;
    const says = ['properties', 'oneOf', 'anyOf', 'allOf', '$ref', 'patternProperties'].some((k) => k in s);
    const object = s.type === 'object' || (Array.isArray(s.type) && s.type.includes('object'));
    if (object && !says && !(s.additionalProperties && typeof s.additionalProperties === 'object')) out.push(at);
    for (const [k, v] of Object.entries(s)) bareObjects(v, `${at}/${k}`, out);
  }
  return out;
}

describe('named components', () => {
  it('moves a named shape to components once, refers to it everywhere, and keeps a use-site description', () => {
    const source = named('Thing', { type: 'object', properties: { a: { type: 'string' } } });
    const schemas: Record<string, unknown> = {};
    const out = hoistNamed({ x: source, y: { ...source, description: 'here' }, z: [source] }, schemas);
    expect(out).toEqual({
      x: { $ref: '#/components/schemas/Thing' },
      y: { $ref: '#/components/schemas/Thing', description: 'here' },
      z: [{ $ref: '#/components/schemas/Thing' }],
    });
    expect(schemas).toEqual({ Thing: { type: 'object', properties: { a: { type: 'string' } } } });
  });

  it('refuses one name for two shapes', () => {
    expect(() => hoistNamed([named('Thing', { type: 'string' }), named('Thing', { type: 'integer' })], {})).toThrow(
      /two different schemas are named Thing/,
    );
  });

  it('names the shared shapes of the document, and each resolves', () => {
    const names = Object.keys(doc.components.schemas);
    for (const n of ['Source', 'OutlineSection', 'TaskError', 'RateLimit', 'ResponseMeta', 'WriterResult'])
      expect(names).toContain(n);
    const refs = [...JSON.stringify(doc).matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]);
    expect(refs.filter((r) => !names.includes(r))).toEqual([]);
    const ajv = addFormats(new Ajv({ strict: false }));
    for (const n of names) expect(() => ajv.compile(standaloneSchema(doc, doc.components.schemas[n]))).not.toThrow();
  });
});

describe('task records', () => {
  it('every catalogued task type has its record and result, told apart by task_type on the status routes', () => {
    const types = catalogue().map((d) => d.type);
    expect(types.length).toBeGreaterThanOrEqual(40);
    for (const t of types) {
      const record = doc.components.schemas[`${pascalOf(t)}Task`];
      expect(record?.properties?.task_type).toEqual({ const: t });
      expect(record.properties.result.$ref).toMatch(/^#\/components\/schemas\/\w+Result$/);
    }
    for (const path of ['/api/tasks/{task_id}', '/v1/tasks/{task_id}']) {
      const schema = doc.paths[path].get.responses['200'].content['application/json'].schema;
      const data = JSON.stringify(schema);
      for (const t of types) expect(data).toContain(`"${t}":"#/components/schemas/${pascalOf(t)}Task"`);
      expect(data).toContain('"propertyName":"task_type"');
    }
  });

  it('a completed record validates against its type and not another', () => {
    const ajv = addFormats(new Ajv({ strict: false }));
    const any = ajv.compile(
      standaloneSchema(doc, doc.paths['/api/tasks/{task_id}'].get.responses['200'].content['application/json'].schema),
    );
    const base = { success: true, timestamp: new Date().toISOString() };
    const record = {
      task_id: 'sitebuilder-publish-1',
      status: 'completed',
      created_at: new Date().toISOString(),
      progress_messages: [],
    };
    const result = doc.components.schemas.SitebuilderPublishResult;
    expect(result.type).toBe('object');
    expect(any({ ...base, data: { ...record, task_type: 'no_such_type' } })).toBe(false);
    expect(any({ ...base, data: { ...record, task_type: 'sitebuilder_publish' } })).toBe(true);
    expect(any({ ...base, data: { ...record, task_type: 'sitebuilder_publish', result: 'text' } })).toBe(false);
  });
});

describe('the whole document', () => {
  it('no success response has a bare object', () => {
    const bare = operations.flatMap(({ id, op }) =>
      Object.entries(op.responses as Record<string, Doc>)
        .filter(([status]) => status.startsWith('2'))
        .flatMap(([status, r]) =>
          Object.values((r.content ?? {}) as Record<string, Doc>).flatMap((c) =>
            bareObjects(c.schema, `${id} ${status}`, []),
          ),
        ),
    );
    expect(bare).toEqual([]);
    expect(bareObjects(doc.components.schemas, 'components', [])).toEqual([]);
  });

  it('every operation has a description', () => {
    expect(operations.filter(({ op }) => !op.description).map(({ id }) => id)).toEqual([]);
  });

  it('every operation an OAuth token may call names its scope', () => {
    const oauth = operations.filter(({ op }) => (op.security as Record<string, string[]>[]).some((s) => 'oauth2' in s));
    expect(oauth.length).toBeGreaterThanOrEqual(30);
    const scopes = Object.keys(doc.components.securitySchemes.oauth2.flows.authorizationCode.scopes);
    for (const { id, op } of oauth) {
      const [req] = (op.security as Record<string, string[]>[]).filter((s) => 'oauth2' in s);
      expect([id, req!.oauth2.length]).toEqual([id, 1]);
      expect(scopes).toContain(req!.oauth2[0]);
    }
  });
});
