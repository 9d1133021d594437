/**
 * seo_score measures meaning: the coherence assessment and the cap at 50 for
 * an off-topic or repetitive text (docs/analysis.md "Coherence").
 *
 * Before this check the incoherent bookshop article scored 100 (with and
 * without keywords): structure, keyword counts and readability were all fine.
 */
import { analyzeSeo } from '../../../domain/analysis/seo';
import { SEO_WEIGHTS } from '../../../domain/analysis/seo-score';
import { BOOKSHOP_KEYWORDS, BOOKSHOP_TITLE, GOOD_ARTICLE, INCOHERENT_ARTICLE } from './fixtures/coherence-texts';

describe('the coherence assessment', () => {
  it('has a real weight, and the weights still sum to 100', () => {
    expect(SEO_WEIGHTS.coherence).toBe(15);
    expect(Object.values(SEO_WEIGHTS).reduce((a, b) => a + b, 0)).toBe(100);
  });

  it('is reported with the other assessments and in the coherence details', () => {
    const r = analyzeSeo({ content: GOOD_ARTICLE, keywords: BOOKSHOP_KEYWORDS });
    expect(r.assessments.find((a) => a.id === 'coherence')).toEqual({
      id: 'coherence',
      score: 100,
      weight: 15,
      applicable: true,
    });
    expect(r.coherence).toMatchObject({ subject_source: 'given', capped: false, cap: null, cap_reasons: [] });
    expect(r.coherence.uncapped_score).toBe(r.seo_score);
  });
});

describe('the incoherent bookshop article', () => {
  const inputs = [
    { content: INCOHERENT_ARTICLE },
    { content: INCOHERENT_ARTICLE, keywords: BOOKSHOP_KEYWORDS },
    { content: INCOHERENT_ARTICLE, keywords: BOOKSHOP_KEYWORDS, blog_title: BOOKSHOP_TITLE },
  ];

  it.each(inputs.map((i) => [i.keywords ?? [], i]))('scores 50 or less (keywords %j)', (_k, input) => {
    const r = analyzeSeo(input);
    expect(r.seo_score).toBeLessThanOrEqual(50);
    expect(r.coherence.capped).toBe(true);
    expect(r.coherence.cap).toBe(50);
    expect(r.coherence.cap_reasons).toEqual(['off_topic', 'repetitive']);
    expect(r.coherence.uncapped_score).toBeGreaterThan(50); // what it would have scored: structure is fine
    expect(r.coherence.topicality).toBeLessThan(0.6);
  });

  it('says why first, what to fix, and points at the off-topic and repeated sentences', () => {
    const r = analyzeSeo({ content: INCOHERENT_ARTICLE, keywords: BOOKSHOP_KEYWORDS });
    const first = r.findings[0];
    expect(first).toMatchObject({ assessment: 'coherence', severity: 'problem' });
    expect(first.message).toMatch(/^seo_score is capped at 50: only 17\.9% of the judged sentences are about/);
    expect(first.message).toMatch(/repeat an earlier sentence word for word/);
    expect(first.recommendation).toMatch(/cut the sentences about other subjects \(podcast, backlinks/);
    expect(r.recommendations[0]).toBe(first.recommendation);
    const offTopic = r.findings.filter((f) => f.assessment === 'coherence' && f.message.startsWith('Off topic'));
    expect(offTopic).toHaveLength(10); // listed up to 10
    expect(INCOHERENT_ARTICLE.slice(offTopic[0].start, offTopic[0].end)).toBe(
      'SEO is the most important part of any modern marketing strategy.',
    );
    const repeated = r.findings.filter((f) => f.message.startsWith('Repeated sentence'));
    expect(repeated.map((f) => INCOHERENT_ARTICLE.slice(f.start, f.end))).toEqual([
      'SEO is the most important part of any modern marketing strategy.',
      'Content is king, and consistent content wins in the end.',
      'SEO is the most important part of any modern marketing strategy.',
      'Content is king, and consistent content wins in the end.',
    ]);
  });
});

describe('a good article on the same subject', () => {
  it.each([[{}], [{ keywords: BOOKSHOP_KEYWORDS }], [{ keywords: BOOKSHOP_KEYWORDS, blog_title: BOOKSHOP_TITLE }]])(
    'scores well above 50 with topicality >= 0.8 (%j)',
    (extra) => {
      const r = analyzeSeo({ content: GOOD_ARTICLE, ...extra });
      expect(r.seo_score).toBeGreaterThanOrEqual(80);
      expect(r.coherence.topicality).toBeGreaterThanOrEqual(0.8);
      expect(r.coherence.capped).toBe(false);
      expect(r.findings.filter((f) => f.assessment === 'coherence')).toEqual([]);
    },
  );

  it('is capped once a sentence is pasted three times', () => {
    const s = 'Tickets cost five pounds, and the price comes off any book bought on the night.';
    const content = GOOD_ARTICLE.replace(s, `${s} ${s} ${s}`);
    const r = analyzeSeo({ content, keywords: BOOKSHOP_KEYWORDS });
    expect(r.seo_score).toBeLessThanOrEqual(50);
    expect(r.coherence).toMatchObject({ duplicate_sentences: 2, capped: true, cap_reasons: ['repetitive'] });
    expect(r.findings[0].message).toMatch(/^seo_score is capped at 50: 2 sentence\(s\) repeat an earlier sentence/);
    expect(r.findings[0].recommendation).toMatch(/^Say each thing once/);
    expect(analyzeSeo({ content: GOOD_ARTICLE, keywords: BOOKSHOP_KEYWORDS }).seo_score).toBeGreaterThan(80);
  });
});
