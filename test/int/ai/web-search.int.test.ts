/**
 * Web-search adapters (Tavily, Exa) against a scripted server on loopback:
 * request shape and auth header, mapping to Source, retry on 5xx, and the
 * merge with the local corpus.
 */
import { createWebSearchProvider } from '../../../infra/research/web-search';
import { createCorpusProvider } from '../../../infra/research/corpus';
import { createResearchProvider } from '../../../infra/research';
import { VendorBadResponseError, VendorRequestRejectedError } from '../../../infra/ai/errors';
import { FakeVendor, startFakeVendor } from '../../support/fake-vendor';

let server: FakeVendor | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
// Quick retries; a time-out the loopback server's immediate answers never come near, on a loaded machine either.
const fast = { backoffBaseMs: 10, backoffMaxMs: 50 };

const tavilyBody = {
  query: 'content calendar',
  results: [
    {
      title: 'Planning content',
      url: 'https://www.example.gov/plan',
      content: 'A content calendar keeps publishing steady. It lists owners and dates.',
      score: 0.92,
      published_date: '2024-05-01T10:00:00Z',
    },
    { title: 'Calendar tips', url: 'https://blog.example.com/tips', content: 'Plan themes by month.', score: 0.2 },
    { title: 'Study', url: 'https://cs.example.edu/paper', content: 'x'.repeat(2000), score: 0.8 },
  ],
};

describe('web search adapters', () => {
  test('Tavily: POST /search {query, max_results} with Bearer key, mapped to Source', async () => {
    server = await startFakeVendor([{ status: 503 }, { body: tavilyBody }], '');
    const tavily = createWebSearchProvider(
      { vendor: 'tavily', apiKey: 'tvly-key', baseUrl: server.origin, timeoutMs: 10000, maxRetries: 2 },
      fast,
    );
    const sources = await tavily.search('content calendar', { limit: 3 });
    expect(server.requests).toHaveLength(2); // the 503 was retried
    const req = server.requests[1];
    expect(req.path).toBe('/search');
    expect(req.headers.authorization).toBe('Bearer tvly-key');
    expect(req.body).toMatchObject({ query: 'content calendar', max_results: 3 });
    expect(sources[0]).toEqual({
      title: 'Planning content',
      url: 'https://www.example.gov/plan',
      excerpt: 'A content calendar keeps publishing steady. It lists owners and dates.',
      source_type: 'government',
      credibility_score: 0.9,
      published_at: '2024-05-01',
      index: 1,
    });
    expect(sources[1]).toMatchObject({ source_type: 'web', credibility_score: 0.5, published_at: '', index: 2 });
    expect(sources[2].source_type).toBe('academic');
    expect(sources[2].excerpt.length).toBeLessThanOrEqual(701);
  });

  test('Exa: POST /search {query, numResults} with x-api-key, text or highlights as excerpt', async () => {
    server = await startFakeVendor(
      [
        {
          body: {
            results: [
              {
                title: 'Exa page',
                url: 'https://example.org/a',
                text: 'Readable text wins.',
                publishedDate: '2023-02-03',
                score: 0.5,
              },
              { url: 'https://example.org/b', highlights: ['One.', 'Two.'] },
            ],
          },
        },
      ],
      '',
    );
    const exa = createWebSearchProvider(
      { vendor: 'exa', apiKey: 'exa-key', baseUrl: server.origin, timeoutMs: 10000, maxRetries: 0 },
      fast,
    );
    const sources = await exa.search('readability', { limit: 5 });
    expect(server.requests[0].headers['x-api-key']).toBe('exa-key');
    expect(server.requests[0].body).toMatchObject({ query: 'readability', numResults: 5 });
    expect(sources).toEqual([
      {
        title: 'Exa page',
        url: 'https://example.org/a',
        excerpt: 'Readable text wins.',
        source_type: 'web',
        credibility_score: 0.6,
        published_at: '2023-02-03',
        index: 1,
      },
      {
        title: 'https://example.org/b',
        url: 'https://example.org/b',
        excerpt: 'One. Two.',
        source_type: 'web',
        credibility_score: 0.6,
        published_at: '',
        index: 2,
      },
    ]);
  });

  test('errors are typed: 403 rejected, a body without results is a bad response', async () => {
    server = await startFakeVendor([{ status: 403, body: { detail: 'forbidden' } }], '');
    const a = createWebSearchProvider(
      { vendor: 'tavily', apiKey: 'k', baseUrl: server.origin, timeoutMs: 10000, maxRetries: 2 },
      fast,
    );
    await expect(a.search('x')).rejects.toBeInstanceOf(VendorRequestRejectedError);
    await server.close();
    server = await startFakeVendor([{ body: { nothing: true } }], '');
    const b = createWebSearchProvider(
      { vendor: 'exa', apiKey: 'k', baseUrl: server.origin, timeoutMs: 10000, maxRetries: 0 },
      fast,
    );
    await expect(b.search('x')).rejects.toBeInstanceOf(VendorBadResponseError);
  });

  test('research provider alternates web and corpus results and renumbers them', async () => {
    server = await startFakeVendor([{ body: tavilyBody }], '');
    const web = createWebSearchProvider(
      { vendor: 'tavily', apiKey: 'k', baseUrl: server.origin, timeoutMs: 10000, maxRetries: 0 },
      fast,
    );
    const research = createResearchProvider({
      corpus: createCorpusProvider({ publicBaseUrl: 'http://api.test' }),
      web,
    });
    const sources = await research.search('content calendar', { limit: 4 });
    expect(research.name).toBe('tavily+corpus');
    expect(sources.map((s) => s.index)).toEqual([1, 2, 3, 4]);
    expect(sources[0].url).toBe('https://www.example.gov/plan');
    expect(sources[1].url).toBe('http://api.test/api/research/corpus/content-calendar');
    // The vendor's sources keep their own typing; the corpus's are sample documents claiming no credibility.
    expect(sources[0]).toMatchObject({ source_type: 'government', credibility_score: 0.9 });
    expect(sources[1]).toMatchObject({ source_type: 'sample', credibility_score: null });
    // find() reports exactly the queries the vendor received (research answers list them as web_search_queries).
    const found = await research.find('editorial calendar', { limit: 2 });
    expect(found.web_search_queries).toEqual(['editorial calendar']);
    expect(server.requests.map((r) => (r.body as { query: string }).query)).toEqual([
      'content calendar',
      'editorial calendar',
    ]);
  });
});
