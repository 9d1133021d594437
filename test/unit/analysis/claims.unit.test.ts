import { checkClaims, extractClaims } from '../../../domain/analysis/claims';
import { createBm25Index, search } from '../../../domain/analysis/bm25';
import { extractFacts } from '../../../domain/analysis/claim-facts';

describe('BM25', () => {
  const docs = [
    { id: 'a', text: 'Sourdough bread uses a wild yeast starter.' },
    { id: 'b', text: 'Tax returns are due in April for most freelancers.' },
    { id: 'c', text: 'Bread flour has more protein than cake flour; bread needs it.' },
  ];
  const index = createBm25Index(docs);

  it('ranks matching documents first and omits non-matching ones', () => {
    const hits = search(index, 'bread flour protein', 10);
    expect(hits.map((h) => h.id)).toEqual(['c', 'a']);
    expect(hits[0].score).toBeGreaterThan(hits[1].score);
    expect(search(index, 'bread', 1)).toHaveLength(1);
    expect(search(index, 'unrelated words', 5)).toEqual([]);
  });

  it('survives a JSON round trip (storable index)', () => {
    const copy = JSON.parse(JSON.stringify(index));
    expect(search(copy, 'freelancers tax', 3)).toEqual(search(index, 'freelancers tax', 3));
    expect(search(copy, 'constructor', 3)).toEqual([]);
  });
});

describe('fact extraction', () => {
  it('normalises dates at their precision', () => {
    const f = extractFacts('Sales rose 12% in March 2023, after the 2023-03-15 launch and the 5 May 2022 pilot.');
    expect(f.dates.map((d) => [d.year, d.month, d.day])).toEqual([
      [2023, 3, 15],
      [2022, 5, 5],
      [2023, 3, undefined],
    ]);
    expect(f.numbers.map((n) => [n.value, n.unit])).toEqual([[12, '%']]);
  });
  it('reads scales and currencies', () => {
    expect(
      extractFacts('It raised $3.5 million and hired 1,200 people.').numbers.map((n) => [n.value, n.unit]),
    ).toEqual([
      [3500000, '$'],
      [1200, ''],
    ]);
  });
});

describe('claim extraction', () => {
  it('keeps sentences with numbers, dates, names, comparisons and absolutes; skips questions', () => {
    const claims = extractClaims(
      '# Title\n\nWe like bread a lot. Bread sales rose 12% last year. Rye is healthier than white bread. Bakers always use starters. Bakers in Paris sell baguettes. Is bread good for you?',
    );
    expect(claims.map((c) => [c.text, c.types])).toEqual([
      ['Bread sales rose 12% last year.', ['statistic']],
      ['Rye is healthier than white bread.', ['comparison']],
      ['Bakers always use starters.', ['absolute']],
      ['Bakers in Paris sell baguettes.', ['entity']],
    ]);
  });
});

describe('checkClaims', () => {
  const sources = [
    {
      title: 'Bakery market report',
      url: 'https://report.example/bakery',
      excerpt: 'Bread sales in France rose 12% in 2023. The average baguette cost 1.10 euros in March 2023.',
    },
    { title: 'Blog about rye', url: 'http://rye.example', excerpt: 'Rye bread contains more fibre than white bread.' },
  ];
  const content = [
    'Bread sales in France rose 12% in 2023.',
    'Bread sales in France rose 21% in 2023.',
    'The average baguette cost 1.10 euros in May 2023.',
    'Rye bread contains more fibre than white bread.',
    'Croissants were invented in Vienna in 1683.',
  ].join(' ');
  const r = checkClaims(content, [...sources, { title: 'bad', url: 'ftp://x', excerpt: 'Bread.' }]);

  it('labels verified, contradicted and unverified claims', () => {
    expect(r.claim_analysis.map((c) => c.verification_status)).toEqual([
      'verified',
      'contradicted',
      'contradicted',
      'verified',
      'unverified',
    ]);
    expect(r.hallucination_analysis).toEqual({
      total_claims: 5,
      verified_claims: 2,
      unverified_claims: 1,
      potential_hallucinations: 2,
    });
  });

  it('explains contradictions with the source value and lists supporting sources', () => {
    const wrong = r.claim_analysis[1];
    expect(wrong.recommendation).toContain('Bakery market report');
    expect(wrong.recommendation).toContain('12%');
    expect(wrong.supporting_sources[0].url).toBe('https://report.example/bakery');
    const ok = r.claim_analysis[0];
    expect(ok.confidence).toBeGreaterThanOrEqual(0.6);
    expect(ok.supporting_sources[0]).toEqual({
      title: 'Bakery market report',
      url: 'https://report.example/bakery',
      relevance_score: expect.any(Number),
    });
    expect(ok.recommendation).toBeUndefined();
    expect(content.slice(ok.start, ok.end)).toBe(ok.claim);
  });

  it('reports skipped sources and bounds overall confidence', () => {
    expect(r.recommendations.join(' ')).toMatch(/1 source\(s\) were skipped/);
    expect(r.overall_confidence).toBeGreaterThan(0);
    expect(r.overall_confidence).toBeLessThan(1);
  });

  it('ignores numeric disagreement when verify_statistics is false', () => {
    const x = checkClaims('Bread sales in France rose 21% in 2023.', sources, { verify_statistics: false });
    expect(x.claim_analysis[0].verification_status).not.toBe('contradicted');
  });

  it('treats text without claims as fully confident', () => {
    expect(checkClaims('What is bread?', sources)).toMatchObject({
      overall_confidence: 1,
      hallucination_analysis: { total_claims: 0 },
    });
  });
});
