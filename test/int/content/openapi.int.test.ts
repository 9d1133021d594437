/**
 * /openapi.json lists every route of Document 1's general and developer tables
 * this area builds, with the statuses they answer: 200 and 202 for generating
 * routes, the Idempotency-Key header and its 409 on developer POSTs, and a 429
 * that may be a plan limit (UsageLimitExceededException: the subscription body
 * in the general family, the developer envelope on /v1).
 */
import pino from 'pino';
import { startTestApi, TestApi } from '../../support/api';
import { call } from '../../support/http';

const GENERATING = [
  ['post', '/api/blog-writer'],
  ['post', '/api/blog-writer/research'],
  ['post', '/api/seo-dashboard/keywords/research'],
  ['post', '/api/profnet-writer'],
  ['post', '/api/content-strategy/generate'],
  ['post', '/api/content-strategy/personas'],
  ['post', '/v1/content/generate'],
  ['post', '/v1/content/generate/batch'],
];
const OTHERS = [
  ['get', '/api/seo-dashboard/performance'],
  ['post', '/api/blog-writer/seo/analyze'],
  ['post', '/api/seo-dashboard/optimize'],
  ['post', '/api/profnet-writer/fact-check'],
  ['post', '/api/webhooks'],
  ['get', '/api/health'],
  ['post', '/api/seo-analyzer'],
  ['get', '/v1/health'],
  ['get', '/v1/content/{content_id}'],
  ['put', '/v1/content/{content_id}'],
  ['delete', '/v1/content/{content_id}'],
  ['get', '/v1/personas'],
  ['post', '/v1/personas'],
  ['get', '/v1/personas/{persona_id}'],
  ['put', '/v1/personas/{persona_id}'],
  ['delete', '/v1/personas/{persona_id}'],
  ['get', '/v1/analytics/usage'],
  ['get', '/api/tasks/{task_id}'],
  ['get', '/v1/tasks/{task_id}'],
  ['post', '/api/seo-dashboard/performance/import'],
  ['post', '/api/seo-dashboard/performance/sync'],
  ['put', '/api/seo-dashboard/search-console'],
];

describe('OpenAPI document of the content routes', () => {
  let api: TestApi;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let doc: any;
  beforeAll(async () => {
    api = await startTestApi({ pipeline: false, logger: pino({ level: 'silent' }) });
    doc = (await call(`${api.url}/openapi.json`)).body;
  });
  afterAll(async () => {
    await api.stop();
  });

  it('lists every route of the general and developer tables', () => {
    for (const [method, path] of [...GENERATING, ...OTHERS])
      expect([method, path, !!doc.paths[path]?.[method]]).toEqual([method, path, true]);
  });

  it('generating routes document 200 and 202, and the errors they can answer', () => {
    for (const [method, path] of GENERATING) {
      const responses = doc.paths[path][method].responses;
      for (const status of ['200', '202', '400', '401', '409', '429', '502', '503'])
        expect([path, status, !!responses[status]]).toEqual([path, status, true]);
      // The general family's 429 is its own body or the plan limit's subscription body; /v1 keeps its envelope for both.
      const schema429 = responses['429'].content['application/json'].schema;
      if (path.startsWith('/v1/')) expect(schema429).toEqual({ $ref: '#/components/schemas/developer_error' });
      else
        expect(schema429.anyOf).toEqual([
          { $ref: '#/components/schemas/general_error' },
          { $ref: '#/components/schemas/subscription_error' },
        ]);
    }
    const devError = doc.components.schemas.developer_error;
    expect(devError.properties.error.properties.code.enum).toContain('UsageLimitExceededException');
    expect(devError.required).toContain('meta');
  });

  it('developer POSTs document Idempotency-Key and its 409', () => {
    for (const path of ['/v1/content/generate', '/v1/content/generate/batch', '/v1/personas']) {
      const op = doc.paths[path].post;
      expect(op.parameters).toEqual(
        expect.arrayContaining([expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false })]),
      );
      expect(op.responses['409'].description).toContain('Idempotency-Key');
    }
    expect(doc.paths['/v1/personas'].get.parameters.some((p: { name: string }) => p.name === 'Idempotency-Key')).toBe(
      false,
    );
  });

  it('the performance route documents its query fields and the answer without data (how_to_add_data)', () => {
    const op = doc.paths['/api/seo-dashboard/performance'].get;
    expect(op.parameters.map((p: { name: string }) => p.name).sort()).toEqual(['date_range', 'domain', 'metrics']);
    expect(op.description).toContain('A domain without any data answers 200');
    expect(JSON.stringify(op.responses['200'])).toContain('how_to_add_data');
  });
});
