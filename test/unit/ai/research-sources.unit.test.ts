/**
 * Honest labels of research answers: sample documents of the corpus claim no credibility or authority (no
 * competitor, no confidence above 0.5, no authority count, no quality points), real web sources keep their
 * classification, and web_search_queries lists only queries sent to a web-search vendor.
 */
import { researchSummary } from '../../../domain/generation';
import { assessOutline } from '../../../domain/blog/outline-assess';
import { createCorpusProvider, createResearchProvider } from '../../../infra/research';
import type { WebSearchProvider } from '../../../infra/research';
import type { OutlineSection, Source } from '../../../domain/blog/types';

const corpus = createCorpusProvider({ publicBaseUrl: 'http://api.test' });
const web = (url: string, title: string, credibility_score: number, source_type = 'web'): Source => ({
  title,
  url,
  excerpt: `${title}: keyword research starts from search intent and long-tail keywords.`,
  credibility_score,
  published_at: '2025-01-10',
  source_type,
});

describe('research summary over sample documents', () => {
  let samples: Source[];
  beforeAll(async () => {
    samples = await corpus.search('keyword research search intent long-tail keywords', { limit: 5 });
  });

  test('no competitor, a note saying why, confidence at most 0.5, no web search claimed', () => {
    const r = researchSummary({ topic: 'keyword research', keywords: ['long-tail keywords'], sources: samples });
    expect(r.competitor_analysis.top_competitors).toEqual([]);
    expect(r.competitor_analysis.note).toMatch(/5 sources are sample documents/);
    for (const g of r.grounding_metadata.grounding_chunks) expect(g.confidence_score).toBeLessThanOrEqual(0.5);
    expect(r.grounding_metadata.web_search_queries).toEqual([]);
    expect(r.search_queries.length).toBeGreaterThan(2); // suggestions stay where they are
    // Sample dates are sample values: no "stale sources" gap drawn from them.
    expect(r.competitor_analysis.content_gaps.join(' ')).not.toMatch(/older than the newest/);
  });

  test('web sources are competitors ranked by credibility × relevance; samples never are', () => {
    const sources = [
      ...samples.slice(0, 2),
      web('https://www.agency.example.com/kw', 'Keyword research for agencies', 0.6),
      web('https://research.example.edu/intent', 'Search intent and keyword research', 0.85, 'academic'),
    ];
    const r = researchSummary({
      topic: 'keyword research',
      sources,
      web_search_queries: ['keyword research'],
    });
    expect(r.competitor_analysis.top_competitors).toEqual([
      'Search intent and keyword research (research.example.edu)',
      'Keyword research for agencies (agency.example.com)',
    ]);
    expect(r.competitor_analysis.note).toBeUndefined();
    expect(r.grounding_metadata.web_search_queries).toEqual(['keyword research']);
  });
});

describe('outline assessment', () => {
  const section = (id: string, references: Source[]): OutlineSection => ({
    id,
    heading: id,
    subheadings: [],
    key_points: ['a', 'b'],
    references,
    target_words: 200,
    keywords: [],
  });

  test('sample references: unrated, no authority, no credibility points, said in improvements', async () => {
    const samples = await corpus.search('content calendar', { limit: 3 });
    expect(samples.map((s) => s.sample_of)).toEqual(expect.arrayContaining([expect.any(String)]));
    const a = assessOutline([section('s1', samples.slice(0, 2)), section('s2', samples.slice(2))], samples);
    expect(a.source_mapping_stats).toMatchObject({
      total_sources_mapped: 3,
      coverage_percentage: 100,
      average_relevance_score: null,
      high_confidence_mappings: 0,
    });
    expect(a.grounding_insights).toEqual({
      confidence_analysis: {
        high_confidence_sources: 0,
        medium_confidence_sources: 0,
        low_confidence_sources: 0,
        unrated_sources: 3,
      },
      authority_analysis: { academic_sources: 0, industry_sources: 0, government_sources: 0, sample_sources: 3 },
    });
    // 4 × coverage 1 + 3 × credibility 0 + 3 × structure 1.
    expect(a.optimization_results.overall_quality_score).toBe(7);
    expect(a.optimization_results.improvements_made.join(' ')).toMatch(/3 of 3 references claim no credibility/);
  });

  test('rated web references keep their bands and authority', () => {
    const gov = web('https://stats.example.gov/a', 'Official statistics', 0.9, 'government');
    const blog = web('https://blog.example.com/b', 'A blog post', 0.6);
    const a = assessOutline([section('s1', [gov, blog])], [gov, blog]);
    expect(a.source_mapping_stats.average_relevance_score).toBe(0.75);
    expect(a.grounding_insights.confidence_analysis).toEqual({
      high_confidence_sources: 1,
      medium_confidence_sources: 1,
      low_confidence_sources: 0,
      unrated_sources: 0,
    });
    expect(a.grounding_insights.authority_analysis.government_sources).toBe(1);
    expect(a.optimization_results.overall_quality_score).toBe(9.3);
  });
});

describe('research provider reports the web searches it made', () => {
  const vendor = (queries: string[]): WebSearchProvider => ({
    vendor: 'tavily',
    async search(query) {
      queries.push(query);
      return [web('https://example.gov/x', 'Keyword research guide', 0.9, 'government')];
    },
  });

  test('corpus only: sources found, no web search query', async () => {
    const found = await createResearchProvider({ corpus }).find('keyword research', { limit: 3 });
    expect(found.sources.length).toBe(3);
    expect(found.web_search_queries).toEqual([]);
  });

  test('with a vendor: exactly the query sent to it; its sources keep their own typing', async () => {
    const sent: string[] = [];
    const found = await createResearchProvider({ corpus, web: vendor(sent) }).find('keyword research', { limit: 3 });
    expect(found.web_search_queries).toEqual(sent);
    expect(sent).toEqual(['keyword research']);
    expect(found.sources[0]).toMatchObject({ source_type: 'government', credibility_score: 0.9 });
    expect(found.sources[1]).toMatchObject({ source_type: 'sample', credibility_score: null });
  });
});
