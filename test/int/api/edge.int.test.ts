/**
 * Bad input is refused at the edge with the family's 400 naming the field,
 * before anything is started, stored or charged: text PostgreSQL cannot store
 * (NUL, unpaired surrogates) and URLs that are not absolute http(s) URLs.
 * The OpenAPI document declares every status a route answers (409 of cancel
 * and rotate) and has a server entry; every response carries the security
 * headers; file routes refuse path traversal.
 */
import { startTestApi, TestApi, bearer } from '../../support/api';
import { call, rawRequest } from '../../support/http';

describe('the edge', () => {
  let api: TestApi;
  let key: string;
  beforeAll(async () => {
    api = await startTestApi();
    key = (await api.user('pro')).key;
  });
  afterAll(() => api.stop());

  const post = (path: string, json: unknown) =>
    call(`${api.url}${path}`, { method: 'POST', headers: bearer(key), json });

  it('refuses a NUL character in an analysis route (was a 500) naming the field', async () => {
    const r = await post('/api/seo-analyzer', { content: 'Some text\u0000 with a NUL', target_keywords: ['text'] });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      success: false,
      error: { code: 'INVALID_REQUEST', details: { parameter: 'content' } },
    });
  });

  it('refuses a NUL character in a task start before any task exists (was: a task charged and never stored)', async () => {
    const r = await post('/api/blog/generate/medium/start', {
      title: 'A title',
      sections: [{ id: 's1', heading: 'Bad \u0000 heading', targetWords: 100 }],
    });
    expect(r.status).toBe(400);
    expect(r.body.error.details.parameter).toBe('sections.0.heading');
    const started = await api.schema.db('es_events').where({ type: 'TaskStarted' }).count<{ n: string }[]>({ n: '*' });
    expect(Number(started[0].n)).toBe(0);
  });

  it('refuses an unpaired surrogate (JSON escapes can carry one; URL decoding cannot) naming the field', async () => {
    const r = await post('/api/seo-analyzer', { content: 'half a pair: \ud83d', target_keywords: ['pair \udc00'] });
    expect(r.status).toBe(400);
    expect(r.body.error.details.issues.map((i: { parameter: string }) => i.parameter).sort()).toEqual([
      'content',
      'target_keywords.0',
    ]);
  });

  it('refuses competitor URLs that are not absolute http(s) URLs (was a 500 for "http://")', async () => {
    for (const bad of ['http://', 'https://', 'ftp://example.com/', 'example.com', 'http:///path']) {
      const r = await post('/api/blog-writer/seo/analyze', {
        content: '# Title\n\nText.',
        target_keywords: [],
        competitor_urls: [bad],
      });
      expect([bad, r.status]).toEqual([bad, 400]);
      expect(r.body.error.details.parameter).toBe('competitor_urls.0');
    }
    const ok = await post('/api/blog-writer/seo/analyze', {
      content: '# Title\n\nText.',
      competitor_urls: ['https://competitor.example/blog'],
    });
    expect(ok.status).toBe(200);
  });

  it('declares 409 for cancel and rotate, and a server, in the OpenAPI document', async () => {
    const doc = (await call(`${api.url}/openapi.json`)).body;
    expect(doc.servers).toEqual([expect.objectContaining({ url: expect.any(String) })]);
    expect(Object.keys(doc.paths['/api/blog/tasks/{task_id}/cancel'].post.responses)).toEqual(
      expect.arrayContaining(['200', '409']),
    );
    expect(Object.keys(doc.paths['/api/settings/api-keys/{key_id}/rotate'].post.responses)).toEqual(
      expect.arrayContaining(['201', '409']),
    );
  });

  it('sends security headers on every answer, errors included', async () => {
    for (const r of [
      await call(`${api.url}/api/health`),
      await call(`${api.url}/api/nope`),
      await call(`${api.url}/openapi.json`),
    ]) {
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      expect(r.headers.get('x-frame-options')).toBe('DENY');
      expect(r.headers.get('referrer-policy')).toBe('no-referrer');
      expect(r.headers.get('content-security-policy')).toContain("default-src 'none'");
    }
    const docs = await call(`${api.url}/docs`);
    expect(docs.headers.get('content-security-policy')).toMatch(/script-src 'self' 'sha256-/);
  });

  it('keeps an idle connection open 65 s (clients reusing one never race the server closing it)', async () => {
    const r = await rawRequest(`${api.url}/api/health`, 'GET', { connection: 'keep-alive' });
    expect(r.headers['keep-alive']).toBe('timeout=65');
  });

  it('refuses path traversal on file routes', async () => {
    for (const p of [
      '/api/research/corpus/..%2F..%2Fpackage.json',
      '/api/research/corpus/%2e%2e',
      '/docs/assets/..%2F..%2F..%2Fpackage.json',
    ]) {
      const r = await call(`${api.url}${p}`);
      expect([p, r.status < 300]).toEqual([p, false]);
      expect(JSON.stringify(r.body ?? '')).not.toContain('"dependencies"');
    }
  });
});
