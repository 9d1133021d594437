/**
 * How the API writes its answers (api/kernel/respond.ts, RouteDef.constant): JSON bodies with their type and
 * length written straight to the response, HEAD answered with the GET's length and no body, constant answers (the
 * plan catalogue) built once and still behind authentication and rate limiting, GET bodies not read.
 */
import { startTestApi, TestApi, bearer } from '../../support/api';
import { call, rawRequest as raw } from '../../support/http';
import { plansOut } from '../../../api/subscription/views';
import { pricingTable } from '../../../domain/pricing';
import { defineRoute } from '../../../api/kernel/registry';

describe('answers', () => {
  let api: TestApi;
  let key: string;
  let calls = 0;
  beforeAll(async () => {
    api = await startTestApi({
      extraRoutes: [
        defineRoute({
          method: 'get',
          path: '/api/subscription/test-constant-count',
          auth: 'user',
          summary: 'counts how often its handler runs',
          responses: { 200: { description: 'the count' } },
          constant: true,
          handler: () => ({ data: { calls: ++calls } }),
        }),
      ],
    });
    key = (await api.user('pro')).key;
  });
  afterAll(() => api.stop());

  it('answers the plan catalogue and the pricing table as built, the same text every time', async () => {
    const a = await raw(`${api.url}/api/subscription/plans`, 'GET', bearer(key));
    const b = await raw(`${api.url}/api/subscription/plans`, 'GET', bearer(key));
    expect(a.status).toBe(200);
    expect(a.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(a.headers['content-length'])).toBe(Buffer.byteLength(a.body));
    expect(JSON.parse(a.body)).toEqual({ success: true, data: JSON.parse(JSON.stringify(plansOut())) });
    expect(b.body).toBe(a.body);
    // Per-request headers stay per request.
    expect(b.headers['x-request-id']).not.toBe(a.headers['x-request-id']);
    const pricing = await call(`${api.url}/api/subscription/pricing`, { headers: bearer(key) });
    expect(pricing.body).toEqual({ success: true, data: JSON.parse(JSON.stringify(pricingTable())) });
  });

  it('runs a constant route handler once, yet authenticates and counts every call', async () => {
    const first = await call(`${api.url}/api/subscription/test-constant-count`, { headers: bearer(key) });
    const second = await call(`${api.url}/api/subscription/test-constant-count`, { headers: bearer(key) });
    expect(first.body).toEqual({ success: true, data: { calls: 1 } });
    expect(second.body).toEqual({ success: true, data: { calls: 1 } });
    const remaining = (r: { headers: Headers }) => Number(/;r=(\d+);/.exec(r.headers.get('ratelimit') ?? '')?.[1]);
    expect(remaining(second)).toBe(remaining(first) - 1);
    const anonymous = await call(`${api.url}/api/subscription/test-constant-count`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ success: false, error: 'AuthenticationError' });
    expect(calls).toBe(1);
  });

  it('refuses to mount a constant route in a family whose success body carries the request (general)', async () => {
    await expect(
      startTestApi({
        pipeline: false,
        schema: api.schema,
        extraRoutes: [
          defineRoute({
            method: 'get',
            path: '/api/blog/test-constant',
            auth: 'user',
            summary: 'not allowed',
            responses: { 200: { description: 'x' } },
            constant: true,
            handler: () => ({ data: {} }),
          }),
        ],
      }),
    ).rejects.toThrow(/constant answer needs a family whose success envelope ignores the request/);
  });

  it("answers HEAD with the GET answer's type and length and no body", async () => {
    const get = await raw(`${api.url}/api/subscription/plans`, 'GET', bearer(key));
    const head = await raw(`${api.url}/api/subscription/plans`, 'HEAD', bearer(key));
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    // An error answer too.
    const missing = await raw(`${api.url}/nope`, 'HEAD', {});
    expect(missing.status).toBe(404);
    expect(missing.body).toBe('');
    expect(Number(missing.headers['content-length'])).toBeGreaterThan(0);
  });

  it('does not read a GET body (even malformed JSON), unless the route takes query fields from it', async () => {
    const r = await raw(
      `${api.url}/api/subscription/plans`,
      'GET',
      { ...bearer(key), 'content-type': 'application/json' },
      '{not json',
    );
    expect(r.status).toBe(200);
    // /api/seo-dashboard/performance fills its query from a JSON body: a malformed one is still a 400.
    const seo = await raw(
      `${api.url}/api/seo-dashboard/performance`,
      'GET',
      { ...bearer(key), 'content-type': 'application/json' },
      '{not json',
    );
    expect(seo.status).toBe(400);
    expect(JSON.parse(seo.body)).toMatchObject({ success: false });
  });

  it('answers errors in JSON with their length, whatever type a handler had set', async () => {
    const r = await raw(`${api.url}/api/subscription/plans`, 'GET', { authorization: 'Bearer nope' });
    expect(r.status).toBe(401);
    expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(r.headers['content-length'])).toBe(Buffer.byteLength(r.body));
    expect(JSON.parse(r.body)).toMatchObject({ success: false, error: 'AuthenticationError' });
  });
});
