/**
 * The shipped research corpus and its BM25 search: the documents are well
 * formed, queries find the document written about them, and results carry
 * every Source field of the spec.
 */
import { createCorpusProvider, loadCorpus, parseCorpusDocument } from '../../../infra/research/corpus';
import { markdownWordCount } from '../../../domain/generation';

const corpus = createCorpusProvider({ publicBaseUrl: 'http://api.test/' });

describe('sample corpus', () => {
  const docs = loadCorpus();
  test('20-25 sample documents of 300-700 words with complete front matter and unique slugs', () => {
    expect(docs.length).toBeGreaterThanOrEqual(20);
    expect(docs.length).toBeLessThanOrEqual(25);
    expect(new Set(docs.map((d) => d.slug)).size).toBe(docs.length);
    for (const d of docs) {
      const words = markdownWordCount(d.body);
      expect(words).toBeGreaterThanOrEqual(300);
      expect(words).toBeLessThanOrEqual(700);
      expect(d.published_at).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      // Written for this project: typed as samples, with the kind each is written as, and no credibility claimed.
      expect(d.source_type).toBe('sample');
      expect(['industry', 'academic', 'government', 'web']).toContain(d.sample_of);
      expect(d.credibility_score).toBeNull();
    }
  });
});

describe('corpus search (BM25)', () => {
  test.each([
    ['long-tail keywords search volume', 'keyword-research'],
    ['best time to post on social media', 'social-media-posting-times'],
    ['outreach emails for backlinks follow-up', 'email-outreach-backlinks'],
    ['flesch reading ease sentence length', 'readability'],
    ['experience expertise authoritativeness trust', 'eeat'],
    ['repurpose one article into video and newsletter', 'content-repurposing'],
    ['podcast microphone episodes guests', 'podcasting-basics'],
    ['KPIs attribution dashboard', 'analytics-kpis'],
    ['buyer persona interviews', 'buyer-personas'],
    ['alt text captions screen readers', 'accessibility-content'],
    ['google business profile reviews near me', 'local-seo'],
  ])('"%s" ranks %s first', async (query, slug) => {
    const [top] = await corpus.search(query, { limit: 3 });
    expect(top.url).toBe(`http://api.test/api/research/corpus/${slug}`);
  });

  test('results are Source objects with index 1..n and an excerpt from the document', async () => {
    const results = await corpus.search('content calendar themes cadence', { limit: 4 });
    expect(results.map((r) => r.index)).toEqual([1, 2, 3, 4]);
    for (const r of results) {
      expect(Object.keys(r).sort()).toEqual([
        'credibility_score',
        'excerpt',
        'index',
        'published_at',
        'sample_of',
        'source_type',
        'title',
        'url',
      ]);
      expect(r).toMatchObject({ source_type: 'sample', credibility_score: null });
      const slug = r.url.split('/').pop()!;
      const doc = corpus.document(slug)!;
      expect(doc.title).toBe(r.title);
      expect(r.excerpt.length).toBeGreaterThan(40);
      expect(markdownWordCount(r.excerpt)).toBeLessThanOrEqual(130);
      expect(doc.body.replace(/\s+/g, ' ')).toContain(r.excerpt.split('. ')[0]);
    }
  });

  test('a query sharing no term returns nothing; unknown slugs are undefined', async () => {
    expect(await corpus.search('zzzz qqqq')).toEqual([]);
    expect(corpus.document('no-such-doc')).toBeUndefined();
  });

  test('documents without front matter get defaults, but never a credibility; HTML is reduced to text', () => {
    const d = parseCorpusDocument('My Notes.html', '<h1>Notes</h1><p>Plain &amp; simple.</p>');
    expect(d).toMatchObject({ slug: 'notes', title: 'My Notes', source_type: 'web', credibility_score: null });
    expect(d).not.toHaveProperty('sample_of');
    expect(d.body).toContain('Plain & simple.');
  });

  test("a corpus whose front matter claims a type and credibility keeps the claim (a deployment's own documents)", () => {
    const d = parseCorpusDocument(
      'report.md',
      '---\ntitle: Report\nsource_type: government\ncredibility_score: 0.9\n---\nText of the report.',
    );
    expect(d).toMatchObject({ source_type: 'government', credibility_score: 0.9 });
  });
});
