/** Keyword research pieces: the DataForSEO answer parser, corpus statistics and the merged report's provenance. */
import { parseDataForSeo } from '../../../infra/keywords';
import { corpusKeywordStats } from '../../../domain/keywords/corpus-stats';
import { keywordReport } from '../../../domain/keywords/report';
import { keywordInsights } from '../../../domain/generation';

const docs = [
  {
    slug: 'a',
    title: 'Keyword research basics',
    body: 'Keyword research starts with customers. Keyword research tools help.',
  },
  { slug: 'b', title: 'Email', body: 'Newsletters need keyword research too.' },
  { slug: 'c', title: 'Video', body: 'Nothing about it here.' },
];

describe('parseDataForSeo', () => {
  it('reads ideas and maps competition to lower case, unknown numbers to null', () => {
    const ideas = parseDataForSeo({
      status_code: 20000,
      tasks: [
        {
          status_code: 20000,
          result: [
            {
              keyword: 'a',
              search_volume: 10,
              competition: 'HIGH',
              competition_index: 90,
              cpc: null,
              monthly_searches: null,
            },
            { nope: true },
          ],
        },
      ],
    });
    expect(ideas).toEqual([
      {
        keyword: 'a',
        search_volume: 10,
        competition: 'high',
        competition_index: 90,
        cpc: null,
        low_top_of_page_bid: null,
        high_top_of_page_bid: null,
        monthly_searches: [],
      },
    ]);
  });
  it('turns status codes inside the body into typed vendor errors', () => {
    expect(() => parseDataForSeo({ status_code: 40100, status_message: 'auth' })).toThrow(
      expect.objectContaining({ code: 'VENDOR_REQUEST_REJECTED' }),
    );
    expect(() => parseDataForSeo({ status_code: 20000, tasks: [{ status_code: 50000 }] })).toThrow(
      expect.objectContaining({ code: 'VENDOR_UNAVAILABLE' }),
    );
    expect(() => parseDataForSeo({ status_code: 20000, tasks: [] })).toThrow(
      expect.objectContaining({ code: 'VENDOR_BAD_RESPONSE' }),
    );
  });
});

describe('corpus keyword statistics', () => {
  it('counts documents and phrase occurrences with word forms folded', () => {
    const s = corpusKeywordStats(docs, ['keyword research', 'newsletter']);
    expect(s.corpus_documents).toBe(3);
    expect(s.keywords[0]).toMatchObject({
      keyword: 'keyword research',
      documents: 2,
      occurrences: 4,
      found_in: ['a', 'b'],
    });
    expect(s.keywords[1]).toMatchObject({ keyword: 'newsletter', documents: 1, occurrences: 1 });
  });
});

describe('keyword report', () => {
  it('gives every number its source and nulls what no source has', () => {
    const corpus = corpusKeywordStats(docs, ['keyword research']);
    const r = keywordReport({
      seed_keywords: ['keyword research'],
      language: 'de',
      corpus,
      vendor: { configured: false, name: null, how_to_configure: 'set X' },
      insights: keywordInsights({ keywords: ['keyword research'] }),
      intentBy: { provider: 'local', model: 'local-extractive-v1' },
    });
    expect(r.keywords[0]).toMatchObject({
      keyword: 'keyword research',
      search_volume: null,
      corpus: { documents: 2, of: 3 },
      sources: { search_volume: null, corpus: 'research corpus (3 documents)', intent: 'local rules (modifier words)' },
    });
    expect(r.data_sources.corpus.note).toBe('the research corpus is English');
    expect(r.data_sources.keyword_vendor.note).toContain('set X');
  });
});
