import { checkClaims, checkStatement, extractClaims } from '../../../domain/analysis/claims';
import { createBm25Index, search } from '../../../domain/analysis/bm25';
import { extractFacts, numbersAgree } from '../../../domain/analysis/claim-facts';
import { compareMeaning } from '../../../domain/analysis/claim-meaning';

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
  it('reads number words, shares in words, ordinals and bounds; not digits inside a name', () => {
    const f = extractFacts(
      'The Picker X2 moved six pallets, a third of the stock, in the 15th week, for more than 150 hours.',
    );
    expect(f.numbers.map((n) => [n.text, n.value, n.unit, n.bound])).toEqual([
      ['six', 6, '', undefined],
      ['a third of', 33, '%', undefined],
      ['15th', 15, 'th', undefined],
      ['more than 150', 150, '', '>'],
    ]);
  });
  it('compares a bound with the value it speaks of', () => {
    const [fewer] = extractFacts('It moves fewer than 300 items.').numbers;
    const [over] = extractFacts('It moves more than 200 items.').numbers;
    const [exact] = extractFacts('It moves 300 items.').numbers;
    const [far] = extractFacts('It moves 3,200 items.').numbers;
    expect(numbersAgree(fewer, exact)).toBe(false);
    expect(numbersAgree(over, exact)).toBe(true);
    expect(numbersAgree(over, far)).toBe(false); // "over 200" is not confirmed by a value sixteen times larger
  });
});

describe('citation markers', () => {
  const sentence = (marker: string) => `Teams that review their calendar monthly catch gaps ${marker}.`;
  test.each(['[3]', '[1, 2]', '[1][2]', '[1-3]', '[12]'])('%s is never a figure or a number', (marker) => {
    expect(extractFacts(sentence(marker)).numbers).toEqual([]);
    const [claim] = extractClaims(sentence(marker));
    expect(claim.types).toEqual(['cited']);
    expect(claim.facts.numbers).toEqual([]);
    expect(claim.text).toBe('Teams that review their calendar monthly catch gaps.');
  });

  it('a cited sentence is checked like any claim: no statistic, and its source confirms it', () => {
    const source = [
      {
        title: 'Editorial calendars',
        url: 'https://example.org/calendars',
        excerpt: 'Teams that review their calendar monthly catch gaps [3].',
      },
    ];
    const r = checkClaims(sentence('[1][2]'), source).claim_analysis[0];
    expect(r.claim_types).not.toContain('statistic');
    expect(r.verification_status).toBe('verified');
    expect(r.recommendation).toBeUndefined();
  });

  it('real figures next to a marker are still read', () => {
    expect(extractFacts('About 45% of teams plan a month ahead [2].').numbers.map((n) => n.text)).toEqual(['45%']);
  });
});

describe('claim extraction', () => {
  it('keeps sentences with numbers, dates, names, comparisons and absolutes; skips questions', () => {
    const claims = extractClaims(
      '# Title\n\nWe like bread a lot. Bread sales rose 12% last year. Rye is healthier than white bread. Bakers always use starters. Bakers in Paris sell baguettes. Is bread good for you?',
    );
    expect(claims.map((c) => [c.text, c.types])).toEqual([
      ['Bread sales rose 12% last year.', ['statistic', 'effect']],
      ['Rye is healthier than white bread.', ['comparison', 'effect']],
      ['Bakers always use starters.', ['absolute']],
      ['Bakers in Paris sell baguettes.', ['entity']],
    ]);
  });
  it('general statements (hedged, denied, cause and effect) are claims; advice is not', () => {
    const claims = extractClaims(
      'Most readers skim first. Newsletters do not grow on their own. Stock photos hurt trust on landing pages. Do not skip the review. Keep it short.',
    );
    expect(claims.map((c) => [c.text, c.types])).toEqual([
      ['Most readers skim first.', ['comparison', 'qualified']],
      ['Newsletters do not grow on their own.', ['qualified', 'effect']],
      ['Stock photos hurt trust on landing pages.', ['effect']],
    ]);
  });
});

describe('meaning against the source', () => {
  const sources = [
    {
      title: 'Content strategy handbook',
      url: 'https://handbook.example.org/content-strategy',
      excerpt:
        'Publishing fewer, better-researched pieces usually beats publishing many thin ones. ' +
        'Teams that review their editorial calendar monthly catch gaps before they become missed weeks. ' +
        'Updating old articles can lift their search traffic. ' +
        'Most readers skim a page before deciding to read it in full.',
    },
  ];
  const check = (claim: string) => checkClaims(claim, sources).claim_analysis[0];

  it('the inverted rewrite is contradicted, with or without its marker, and the reason names the words', () => {
    for (const claim of [
      'Publishing fewer, better-researched pieces is often a recipe for disaster.',
      'Publishing fewer, better-researched pieces is often a recipe for disaster [3].',
    ]) {
      const r = check(claim);
      expect(r.verification_status).toBe('contradicted');
      expect(r.recommendation).toContain('"disaster" where the source says "beats"');
      expect(r.supporting_sources).toEqual([
        expect.objectContaining({ url: 'https://handbook.example.org/content-strategy' }),
      ]);
    }
  });

  test.each([
    // faithful paraphrases
    ['Publishing fewer but better-researched articles usually beats publishing lots of thin ones.', 'verified'],
    [
      'Teams that check their editorial calendar every month catch gaps before they turn into missed weeks.',
      'verified',
    ],
    ['Refreshing old articles can increase their search traffic.', 'verified'],
    ['Readers mostly skim a page before they commit to reading it fully.', 'verified'],
    // negation added or removed
    ['Publishing fewer, better-researched pieces does not usually beat publishing many thin ones.', 'contradicted'],
    [
      'Teams that review their editorial calendar monthly never catch gaps before they become missed weeks.',
      'contradicted',
    ],
    // antonyms
    ['Updating old articles can hurt their search traffic.', 'contradicted'],
    ['Publishing more, better-researched pieces usually beats publishing many thin ones.', 'contradicted'],
    // the comparison's sides swapped
    ['Publishing many thin pieces usually beats publishing fewer, better-researched ones.', 'contradicted'],
    // hedges and quantifiers
    ['Publishing fewer, better-researched pieces always beats publishing many thin ones.', 'contradicted'],
    ['Updating old articles will lift their search traffic.', 'contradicted'],
    ['Few readers skim a page before deciding to read it in full.', 'contradicted'],
    ['All readers skim a page before deciding to read it in full.', 'contradicted'],
    // about something else: neither confirmed nor reversed
    ['Podcasts usually earn more search traffic than old articles.', 'unverified'],
  ])('%j -> %s', (claim, status) => expect(check(claim).verification_status).toBe(status));

  it('checkStatement checks a sentence that is no claim by the extractor (the model-rewrite gate)', () => {
    const original = [{ title: '', url: 'about:original', excerpt: 'Teams that plan ahead catch gaps early.' }];
    expect(
      checkStatement('Teams that plan ahead catch gaps early.', original, { validate_sources: false }),
    ).toMatchObject({ verification_status: 'verified', claim_types: [] });
    expect(
      checkStatement("Teams that plan ahead don't catch gaps early.", original, { validate_sources: false })
        .verification_status,
    ).toBe('contradicted');
  });

  it('an adjective naming the subject is no reversal ("small teams" against "more posts"); notes are no "not"', () => {
    const survey = [
      {
        title: 'Publishing survey 2023',
        url: 'https://example.org/survey',
        excerpt: 'Teams that planned a content calendar published 25% more posts than teams that did not.',
      },
    ];
    expect(
      checkClaims('A content calendar helps small teams publish on a steady schedule.', survey).claim_analysis[0]
        .verification_status,
    ).not.toBe('contradicted');
    expect(
      compareMeaning('Publish show notes with a summary for every episode.', 'Publish a summary for every episode.')
        .verdict,
    ).toBe('same');
  });

  it('compareMeaning: two reversals leave it unsure; a negation that says the same is the same', () => {
    expect(compareMeaning('Prices did not rise in 2023.', 'Prices fell in 2023.').verdict).toBe('unsure');
    expect(
      compareMeaning(
        'Weekly shows keep subscribers longer than shows without a regular schedule.',
        'Weekly shows keep subscribers longer than shows with an irregular schedule.',
      ).verdict,
    ).toBe('same');
    expect(compareMeaning('Most families visit at weekends.', 'Most families visit on weekdays.')).toEqual({
      verdict: 'contradicted',
      reason: '"weekends" where the source says "weekdays"',
    });
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
