/**
 * The registry's guarantees over every route: 401 in the family's envelope
 * without a credential, presence in the OpenAPI document, validation errors
 * with field paths in each family, body size limit, unknown routes, and
 * thrown errors mapped to each family's envelope (never a stack).
 */
import Ajv from 'ajv';
import pino from 'pino';
import addFormats from 'ajv-formats';
import { ENVELOPES } from '../../../api/kernel/envelopes';
import { familyOfRoute } from '../../../api/kernel/registry';
import { documentedSchema, forGenerators, standaloneSchema } from '../../../api/kernel/openapi-passes';
import { closeObjects } from '../../../api/kernel/schema';
import type { Family } from '../../../api/kernel/families';
import { call, JsonResponse } from '../../support/http';
import { bearer, startTestApi, TestApi } from '../../support/api';
import { PROBE_ROUTES } from './probe-routes';

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
const errorShape = Object.fromEntries(
  (Object.keys(ENVELOPES) as Family[]).map((f) => [f, ajv.compile(ENVELOPES[f].errorSchema)]),
);

function expectEnvelope(family: Family, r: JsonResponse) {
  const ok = errorShape[family](r.body);
  if (!ok)
    throw new Error(
      `${family} error envelope mismatch: ${ajv.errorsText(errorShape[family].errors)} in ${JSON.stringify(r.body)}`,
    );
}

describe('route registry', () => {
  let api: TestApi;
  let user: { userId: string; key: string };
  let session: string;
  beforeAll(async () => {
    api = await startTestApi({
      pipeline: false,
      logger: pino({ level: 'silent' }),
      extraRoutes: PROBE_ROUTES,
      settings: { bodyLimitBytes: 2048, imageBodyLimitBytes: 4096, consistencyTimeoutMs: 0 },
    });
    user = await api.user('enterprise');
    session = (await call(`${api.url}/api/settings/sessions`, { method: 'POST', headers: bearer(user.key) })).body.data
      .token;
  });
  afterAll(async () => {
    await api?.stop();
  });

  const url = (p: string) => `${api.url}${p}`;
  const fill = (p: string) => p.replace(/\{[^}]+\}/g, 'AAAAAAAAAAAA');

  it('every non-public route answers 401 without a credential, in its family envelope', async () => {
    const routes = api.app.routes.filter((r) => r.auth !== 'public');
    expect(routes.length).toBeGreaterThan(15);
    const CODE: Record<Family, (b: JsonResponse['body']) => unknown> = {
      general: (b) => b.error.code,
      developer: (b) => b.error.code,
      subscription: (b) => b.error,
      calendar: (b) => b.error.code,
      outreach: (b) => b.detail,
      image_studio: (b) => b.detail,
    };
    const WANT: Record<Family, string> = {
      general: 'INVALID_API_KEY',
      developer: 'INVALID_API_KEY',
      subscription: 'AuthenticationError',
      calendar: 'AUTHENTICATION_ERROR',
      outreach: 'Not authenticated',
      image_studio: 'Authentication required',
    };
    for (const r of routes) {
      const family = familyOfRoute(r);
      const res = await call(url(fill(r.path)), {
        method: r.method.toUpperCase(),
        ...(['post', 'put', 'patch'].includes(r.method) ? { json: {} } : {}),
      });
      expect([r.method, r.path, res.status]).toEqual([r.method, r.path, 401]);
      expectEnvelope(family, res);
      expect([r.path, CODE[family](res.body)]).toEqual([r.path, WANT[family]]);
      expect(res.headers.get('x-request-id')).toBeTruthy();
    }
  });

  it('a public route ignores a credential of another family’s kind, and checks one of its own', async () => {
    // A client that sends its outreach session token on every call can read the document and the health route.
    expect((await call(url('/openapi.json'), { headers: bearer(session) })).status).toBe(200);
    expect((await call(url('/v1/health'), { headers: bearer(session) })).status).toBe(200);
    // An API key of the right kind is checked: a revoked or made-up one is refused, not ignored.
    const madeUp = `cp_live_AAAAAAAAAAAA_${'A'.repeat(43)}`;
    expect((await call(url('/openapi.json'), { headers: bearer(madeUp) })).status).toBe(401);
    expect((await call(url('/openapi.json'), { headers: bearer('not-a-credential') })).status).toBe(401);
  });

  it('developer family: meta.rate_limit on every answer, 401s and /v1/health without a key too (an anonymous per-IP bucket)', async () => {
    const window = { limit: 36_000, remaining: expect.any(Number), reset: expect.any(Number) };
    const health = await call(url('/v1/health'));
    expect([health.status, health.body.meta.rate_limit]).toEqual([200, window]);
    const refused = await call(url('/v1/personas'));
    expect([refused.status, refused.body.meta.rate_limit]).toEqual([401, window]);
    // The same bucket: each anonymous call uses one.
    expect(refused.body.meta.rate_limit.remaining).toBeLessThan(health.body.meta.rate_limit.remaining);
    expect(refused.headers.get('ratelimit')).toMatch(/^"hour";r=\d+;t=\d+$/);
  });

  it('every registered route is in the OpenAPI 3.1 document with security and error responses', async () => {
    const doc = (await call(url('/openapi.json'))).body;
    expect(doc.openapi).toBe('3.1.0');
    for (const r of api.app.routes) {
      const op = doc.paths[r.path]?.[r.method];
      expect([r.method, r.path, !!op]).toEqual([r.method, r.path, true]);
      expect(op.responses['500']).toBeDefined();
      if (r.auth !== 'public') {
        expect(op.security.length).toBeGreaterThan(0);
        expect(op.security).not.toContainEqual({});
        expect(op.responses['401'].content['application/json'].schema.$ref).toBe(
          `#/components/schemas/${familyOfRoute(r)}_error`,
        );
      }
      if (r.request?.body)
        expect(op.requestBody.content[r.bodyContentType ?? 'application/json'].schema).toEqual(
          JSON.parse(JSON.stringify(forGenerators(documentedSchema(closeObjects(r.request.body))))),
        );
    }
    expect(doc.paths['/v1/calendar/probe/calendars'].get.security).toEqual([
      { apiKey: [] },
      { oauth2: ['calendar:read'] },
    ]);
    expect(doc.paths['/api/v1/backlink-outreach/probe/campaigns/{campaign_id}/leads'].post.security).toEqual([
      { sessionToken: [] },
    ]);
    // The schemas of the document compile (they are the ones ajv validates with).
    for (const name of Object.keys(doc.components.schemas))
      expect(() => ajv.compile(standaloneSchema(doc, doc.components.schemas[name]))).not.toThrow();
    const page = await fetch(url('/docs'));
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(await page.text()).toContain('/openapi.json');
    expect((await fetch(url('/docs/assets/swagger-ui-bundle.js'))).status).toBe(200);
  });

  it('validation per family: wrong type and missing field, named by path', async () => {
    const post = (p: string, json: unknown, key = user.key) =>
      call(url(p), { method: 'POST', headers: bearer(key), json });
    const get = (p: string, key = user.key) => call(url(p), { headers: bearer(key) });

    // general (real route and probe)
    let r = await post('/api/settings/api-keys', { name: 42 });
    expect([r.status, r.body.error.code, r.body.error.details.parameter, r.body.error.details.expected_type]).toEqual([
      400,
      'INVALID_REQUEST',
      'name',
      'string',
    ]);
    r = await post('/api/settings/api-keys', { environment: 'production' });
    expect([r.status, r.body.error.details.parameter, r.body.error.message]).toEqual([400, 'name', 'name is required']);
    r = await post('/api/probe/blog-writer', {
      topic: 'x',
      word_count: '500',
      target_demographics: {},
      unknown_field: 1,
    });
    expectEnvelope('general', r);
    expect(r.body.error.details.issues.map((i: { parameter: string }) => i.parameter).sort()).toEqual([
      'target_demographics.age_range',
      'unknown_field',
      'word_count',
    ]);
    // An unknown field alone is refused by name, never dropped (docs/api.md "Unknown fields").
    r = await post('/api/probe/blog-writer', { topic: 'x', word_count: 500, extra: 'dropped?' });
    expect([r.status, r.body.error.details.parameter, r.body.error.message]).toEqual([
      400,
      'extra',
      'extra is not a field of this body: unknown fields are refused, not ignored',
    ]);

    // developer
    r = await post('/v1/probe/content/generate', { type: 'blog_post', topic: 't', key_points: ['a', 3] });
    expectEnvelope('developer', r);
    expect([
      r.status,
      r.body.error.details.parameter,
      r.body.meta.request_id,
      typeof r.body.meta.rate_limit.remaining,
    ]).toEqual([400, 'key_points.1', r.headers.get('x-request-id'), 'number']);
    r = await post('/v1/probe/content/generate', { topic: 't' });
    expect([r.status, r.body.error.details.parameter]).toEqual([400, 'type']);
    r = await post('/v1/probe/content/generate', { type: 'blog_post', topic: 't' });
    expect(r.body.data.body.seo_optimized).toBe(false); // default applied

    // subscription (query coercion and defaults, then errors)
    r = await get(`/api/subscription/probe/usage/${user.userId}/trends`);
    expect(r.body).toEqual({
      success: true,
      data: { body: undefined, query: { months: 6, unread_only: false }, params: { user_id: user.userId } },
    });
    r = await get(`/api/subscription/probe/usage/${user.userId}/trends?months=3&unread_only=true`);
    expect(r.body.data.query).toEqual({ months: 3, unread_only: true });
    r = await get(`/api/subscription/probe/usage/${user.userId}/trends?months=many`);
    expectEnvelope('subscription', r);
    expect([r.status, r.body.error, r.body.details.parameter, r.body.details.location, r.body.user_id]).toEqual([
      400,
      'ValidationError',
      'months',
      'query',
      user.userId,
    ]);
    r = await post('/api/subscription/probe/alerts', { severity: 'info' });
    expect([r.status, r.body.details.parameter]).toEqual([400, 'title']);

    // calendar
    r = await get('/v1/calendar/probe/calendars?limit=101');
    expectEnvelope('calendar', r);
    expect([
      r.status,
      r.body.error.code,
      r.body.error.details.field,
      r.body.error.details.provided_value,
      r.body.error.request_id,
    ]).toEqual([400, 'VALIDATION_ERROR', 'limit', 101, r.headers.get('x-request-id')]);
    r = await get('/v1/calendar/probe/calendars?limit=ten');
    expect([r.status, r.body.error.details.field, r.body.error.details.expected_type]).toEqual([
      400,
      'limit',
      'integer',
    ]);
    r = await post('/v1/calendar/probe/calendars', { timezone: 'UTC', settings: { auto_publish: 'yes' } });
    expect(r.body.error.details.issues.map((i: { field: string }) => i.field).sort()).toEqual([
      'name',
      'settings.auto_publish',
    ]);
    r = await get('/v1/calendar/probe/calendars');
    expect(r.body.query).toEqual({ limit: 20, offset: 0 }); // bare body, defaults

    // outreach (session token; 422 with a list)
    r = await post('/api/v1/backlink-outreach/probe/campaigns/c1/leads', { quality_score: 1.5 }, session);
    expectEnvelope('outreach', r);
    expect(r.status).toBe(422);
    expect(r.body.detail).toEqual(
      expect.arrayContaining([
        { loc: ['body', 'website_url'], msg: 'website_url is required', type: 'missing' },
        { loc: ['body', 'quality_score'], msg: 'quality_score must be <= 1', type: 'value_error' },
      ]),
    );
    r = await post('/api/v1/backlink-outreach/probe/campaigns/c1/leads', { website_url: 7 }, session);
    expect(r.body.detail).toEqual([
      { loc: ['body', 'website_url'], msg: 'website_url must be string', type: 'type_error' },
    ]);

    // image studio
    r = await post('/api/image-studio/probe/create', { num_variations: 11 });
    expectEnvelope('image_studio', r);
    expect(r.status).toBe(400);
    expect(r.body.detail).toContain('body.prompt: prompt is required');
    expect(r.body.detail).toContain('body.num_variations: num_variations must be <= 10');
    r = await post('/api/image-studio/probe/create', { prompt: ['x'] });
    expect(r.body.detail).toContain('body.prompt: prompt must be string');
    r = await post('/api/image-studio/probe/create', { prompt: 'cat' });
    expect(r.body.body).toEqual({ prompt: 'cat', num_variations: 1, quality: 'standard' });
  });

  it('bodies over the size limit are refused (CONTENT_TOO_LONG in the general family); broken JSON is a validation error', async () => {
    const big = { topic: 'x'.repeat(3000) };
    let r = await call(url('/api/probe/blog-writer'), { method: 'POST', headers: bearer(user.key), json: big });
    expect([r.status, r.body.error.code, r.body.error.details.max_bytes]).toEqual([413, 'CONTENT_TOO_LONG', 2048]);
    r = await call(url('/v1/calendar/probe/calendars'), {
      method: 'POST',
      headers: bearer(user.key),
      json: { name: 'x'.repeat(3000) },
    });
    expect([r.status, r.body.error.code]).toEqual([413, 'VALIDATION_ERROR']);
    r = await call(url('/api/v1/backlink-outreach/probe/campaigns/c/leads'), {
      method: 'POST',
      headers: bearer(session),
      json: { website_url: 'x'.repeat(3000) },
    });
    expect(r.status).toBe(413);
    expectEnvelope('outreach', r);
    r = await call(url('/api/image-studio/probe/create'), {
      method: 'POST',
      headers: bearer(user.key),
      json: { prompt: 'x'.repeat(3000) },
    });
    expect(r.status).toBe(200); // the image studio has its own, larger limit
    r = await call(url('/api/probe/blog-writer'), {
      method: 'POST',
      headers: { ...bearer(user.key), 'content-type': 'application/json' },
      body: '{"topic": ',
    });
    expect([r.status, r.body.error.code]).toEqual([400, 'INVALID_REQUEST']);
    // without a credential the size is never looked at: authentication comes first
    r = await call(url('/api/probe/blog-writer'), { method: 'POST', json: big });
    expect(r.status).toBe(401);
  });

  it('unknown routes: authentication before routing (401 without a credential), then 404 in the family of their path', async () => {
    const cases: [string, Family, (b: JsonResponse['body']) => unknown, unknown, unknown][] = [
      ['/api/nope', 'general', (b) => b.error.code, 'INVALID_API_KEY', 'NOT_FOUND'],
      ['/v1/nope', 'developer', (b) => b.error.code, 'INVALID_API_KEY', 'NOT_FOUND'],
      ['/api/subscription/nope', 'subscription', (b) => b.error, 'AuthenticationError', 'NotFoundError'],
      ['/v1/calendar/nope', 'calendar', (b) => b.error.code, 'AUTHENTICATION_ERROR', 'NOT_FOUND_ERROR'],
      ['/api/v1/backlink-outreach/nope', 'outreach', (b) => b.detail, 'Not authenticated', 'Resource not found'],
      ['/api/image-studio/nope', 'image_studio', (b) => b.detail, 'Authentication required', 'Resource not found'],
    ];
    for (const [p, family, pick, unauthenticated, missing] of cases) {
      const anonymous = await call(url(p), { method: 'POST', json: {} });
      expect([p, anonymous.status, pick(anonymous.body)]).toEqual([p, 401, unauthenticated]);
      expectEnvelope(family, anonymous);
      const credential = family === 'outreach' ? session : user.key;
      const r = await call(url(p), { headers: bearer(credential) });
      expect([p, r.status, pick(r.body)]).toEqual([p, 404, missing]);
      expectEnvelope(family, r);
    }
    // An invalid credential is 401 too; an authenticated 404 of the developer family reports its rate window.
    expect((await call(url('/v1/nope'), { headers: bearer('cp_live_nope_nope') })).status).toBe(401);
    const dev = await call(url('/v1/content/nope/deep'), { method: 'PATCH', headers: bearer(user.key) });
    expect(dev.status).toBe(404);
    expect(dev.body.meta.rate_limit).toEqual({
      limit: expect.any(Number),
      remaining: expect.any(Number),
      reset: expect.any(Number),
    });
    // A path that exists with other methods: 405 naming them (after authentication too).
    const wrong = await call(url('/v1/personas'), { method: 'PATCH', headers: bearer(user.key), json: {} });
    expect([wrong.status, wrong.body.error.code, wrong.headers.get('allow')]).toEqual([
      405,
      'METHOD_NOT_ALLOWED',
      'GET, POST, HEAD',
    ]);
    expect((await call(url('/v1/personas'), { method: 'PATCH', json: {} })).status).toBe(401);
    // Outside the families' prefixes there is nothing to authenticate against: a plain 404.
    expect((await call(url('/nope'))).status).toBe(404);
  });

  it('thrown errors map to each family; unexpected ones are a generic 500 with the request id, never a stack', async () => {
    const get = (p: string, key = user.key) => call(url(p), { headers: bearer(key) });
    const prefixes: [string, Family, string][] = [
      ['/api/probe', 'general', user.key],
      ['/v1/probe', 'developer', user.key],
      ['/api/subscription/probe', 'subscription', user.key],
      ['/v1/calendar/probe', 'calendar', user.key],
      ['/api/v1/backlink-outreach/probe', 'outreach', session],
      ['/api/image-studio/probe', 'image_studio', user.key],
    ];
    for (const [prefix, family, key] of prefixes) {
      const r = await get(`${prefix}/fail`, key);
      expect([family, r.status]).toEqual([family, 500]);
      expectEnvelope(family, r);
      const text = JSON.stringify(r.body);
      expect(text).not.toMatch(/exploded|secret|at .*\.ts/);
      if (family !== 'outreach') expect(text).toContain(r.headers.get('x-request-id'));
      expect((await get(`${prefix}/fail?kind=conflict`, key)).status).toBe(409);
    }
    expect((await get('/api/probe/fail')).body.error.code).toBe('INTERNAL_ERROR');
    expect((await get('/api/v1/backlink-outreach/probe/fail', session)).body).toEqual({
      detail: 'An internal error occurred',
    });
    expect((await get('/api/image-studio/probe/fail')).body.detail).toMatch(/^create|^fail/);
    expect((await get('/api/v1/backlink-outreach/probe/fail?kind=policy', session)).body).toEqual({
      detail: 'Policy validation failed',
      reason: 'daily cap of 50 sends reached',
    });
    let r = await get('/v1/calendar/probe/fail?kind=upstream');
    expect([r.status, r.body.error.code]).toEqual([502, 'PLATFORM_ERROR']);
    r = await get('/v1/calendar/probe/fail?kind=full');
    expect([r.status, r.body.error.code]).toEqual([402, 'CALENDAR_FULL']);
    r = await get('/api/subscription/probe/fail?kind=usage');
    expect([r.status, r.body.error, r.body.details]).toEqual([
      429,
      'UsageLimitExceededException',
      { provider: 'vendor_a', limit_type: 'vendor_a_calls', current_usage: 100, limit_value: 100 },
    ]);
  });
});
