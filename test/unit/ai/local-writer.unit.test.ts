/**
 * The offline writer (domain/generation): determinism; a length that is an upper bound, never reached with
 * filler (a shortfall is reported in `coverage`); every key point stated as the user wrote it; only source
 * sentences about the brief quoted, cited and numbered 1..k by first citation; and the shapes of outline and
 * research summaries. Sources come from the shipped corpus, as the research step would give them.
 */
import { createCorpusProvider } from '../../../infra/research/corpus';
import {
  articleWordCount,
  citationNumbers,
  draftOutline,
  markdownWordCount,
  renumberArticle,
  renumberCitations,
  researchSummary,
  withoutRepeats,
  writeArticle,
  writeSection,
  localChatAnswer,
} from '../../../domain/generation';
import type { Source } from '../../../domain/generation';
import { isRelevant, keysOf } from '../../../domain/generation/compose';
import { splitSentences } from '../../../domain/analysis/sentences';

let sources: Source[];
beforeAll(async () => {
  sources = await createCorpusProvider({ publicBaseUrl: 'http://api.test' }).search(
    'keyword research search intent long-tail keywords',
    { limit: 6 },
  );
});

const POINTS = ['Start from customer questions', 'Use long-tail keywords', 'Match search intent'];
const section = (targetWords: number, extra: Partial<Parameters<typeof writeSection>[0]> = {}) =>
  writeSection({
    heading: 'Keyword Research Basics',
    keyPoints: POINTS,
    keywords: ['keyword research'],
    targetWords,
    sources,
    tone: 'friendly',
    audience: 'small business owners',
    ...extra,
  });
const sentencesOf = (md: string) => {
  const text = md.replace(/^#+ .*$/gm, '').replace(/^- /gm, '');
  return splitSentences(text).map((sp) => text.slice(sp.start, sp.end).trim());
};
const BOOKSHOP = {
  heading: 'Author events at Riverside Books',
  topic: 'author events at an independent bookshop',
  keyPoints: [
    'Riverside Books hosts an author reading every Thursday evening',
    "children's story time runs on Saturday mornings",
  ],
  targetWords: 400,
  audience: 'local readers and families',
  instructions: 'Mention that signed copies are available after each reading.',
  cta: 'Book your free seat on the Riverside Books website',
};

describe('writeSection', () => {
  test('same input, same output', () => {
    expect(section(400)).toEqual(section(400));
  });

  test.each([150, 400, 800, 1500])('%i words: never over the target + 10 %%, a shortfall said', (target) => {
    const out = section(target);
    expect(out.wordCount).toBe(markdownWordCount(out.markdown));
    expect(out.wordCount).toBeLessThanOrEqual(target * 1.1);
    expect(out.coverage.words).toBe(out.wordCount);
    expect(Boolean(out.coverage.shortfall)).toBe(out.wordCount < target * 0.9);
    if (out.coverage.shortfall) expect(out.coverage.shortfall).toMatch(/adds nothing to reach a length/);
  });

  test('every key point as written, each sentence once, quoted sentences about the section', () => {
    const out = section(800);
    for (const p of POINTS) expect(out.markdown).toContain(`${p}.`);
    const all = sentencesOf(out.markdown);
    expect(new Set(all).size).toBe(all.length);
    const keys = keysOf('Keyword Research Basics', 'keyword research', ...POINTS);
    for (const s of all.filter((x) => /\[\d+\]/.test(x))) expect(isRelevant(s, keys)).toBe(true);
    expect(out.coverage).toMatchObject({ key_points: 3, key_points_used: 3, basis: 'brief_and_sources' });
  });

  test('every [n] is the given number of a source it returns; renumbered 1..k in reading order for the reader', () => {
    const out = section(800);
    const used = citationNumbers(out.markdown);
    expect(used.length).toBeGreaterThan(0);
    expect(out.citations.map((c) => c.index)).toEqual(used);
    for (const c of out.citations) expect(sources.find((s) => s.index === c.index)!.url).toBe(c.url);
    const [done] = renumberCitations([{ content: out.markdown, sources: out.citations }]);
    const first = [...done.content.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
    expect([...new Set(first)]).toEqual(used.map((_, i) => i + 1));
    expect(done.sources.map((s) => s.index)).toEqual(used.map((_, i) => i + 1));
  });

  test('without sources: no citations, the brief alone, and the shortfall said', () => {
    const out = section(400, { sources: [] });
    expect(citationNumbers(out.markdown)).toEqual([]);
    expect(out.citations).toEqual([]);
    expect(out.coverage).toMatchObject({ basis: 'brief', sources_used: 0 });
    expect(out.coverage.shortfall).toMatch(/no source sentence/);
  });

  test('a subject the sources do not cover: nothing quoted, names and capitals kept, instruction and CTA carried out', () => {
    const out = writeSection({ ...BOOKSHOP, sources });
    expect(out.citations).toEqual([]);
    expect(out.markdown).toBe(
      [
        'Riverside Books hosts an author reading every Thursday evening.',
        "Children's story time runs on Saturday mornings.",
        'Signed copies are available after each reading. Book your free seat on the Riverside Books website.',
      ].join('\n\n'),
    );
    expect(out.coverage.instructions_followed).toEqual([
      'Mention that signed copies are available after each reading.',
    ]);
  });

  test('structure: a list for list-like sections, subheadings over their key points when given one each', () => {
    expect(section(300, { heading: 'Five Tips for Keyword Research' }).markdown).toMatch(
      /^- Start from customer questions\./m,
    );
    const md = section(400, { list: false, subheadings: ['Customer Questions', 'Long Tail', 'Intent'] }).markdown;
    expect(md).toMatch(/^### Customer Questions\n\nStart from customer questions\./m);
  });

  test('key points given as phrases the sources say nothing about: named in one sentence, never a fragment', () => {
    const out = writeSection({
      heading: 'Why regular events matter',
      keyPoints: ['Consistency', 'planning ahead', 'Riverside Books'],
      targetWords: 80,
      sources: [],
    });
    expect(out.markdown).toBe('This section covers consistency, planning ahead and Riverside Books.');
    expect(out.coverage.key_points_used).toBe(3);
    // In a list a phrase is an item of its own.
    const list = writeSection({
      heading: 'Tips',
      keyPoints: ['Consistency', 'Planning ahead'],
      targetWords: 80,
      sources: [],
      list: true,
    });
    expect(list.markdown).toBe('- Consistency.\n- Planning ahead.');
  });
});

describe('writeArticle', () => {
  test.each([150, 400, 800, 1500])('%i words at most (+10 %%), references numbered 1..k in reading order', (target) => {
    const input = {
      topic: 'keyword research for small businesses',
      keywords: ['keyword research'],
      sources,
      targetWords: target,
      tone: 'professional',
      audience: 'small business owners',
    };
    const a = writeArticle(input);
    expect(a.wordCount).toBe(articleWordCount(a.markdown));
    expect(a.wordCount).toBeLessThanOrEqual(target * 1.1);
    expect(a.markdown.startsWith(`# ${a.title}\n`)).toBe(true);
    const body = a.markdown.split('## References')[0];
    expect(a.references.map((r) => r.index)).toEqual(citationNumbers(body));
    // What the reader gets (the activity's last step): 1..k in reading order, the References list exactly those.
    const done = renumberArticle(a.markdown, sources);
    const used = citationNumbers(done.markdown.split('## References')[0]);
    expect(used).toEqual(used.map((_, i) => i + 1));
    expect(done.references.map((r) => r.index)).toEqual(used);
    for (const r of done.references)
      expect(done.markdown).toContain(`${r.index}. ${r.title.replace(/\.$/, '')}. <${r.url}>`);
    const all = sentencesOf(body);
    expect(new Set(all).size).toBe(all.length);
    expect(writeArticle(input)).toEqual(a);
  });

  test('writes a given outline in order with ## headings', () => {
    const a = writeArticle({
      topic: 'keyword research',
      title: 'Plan Better',
      sources,
      targetWords: 600,
      sections: [{ heading: 'Why Plan' }, { heading: 'How to Start', keyPoints: ['Pick a cadence', 'Assign owners'] }],
    });
    expect(a.markdown).toMatch(/^# Plan Better\n\n.+\n\n## Why Plan\n/);
    expect(a.markdown.indexOf('## How to Start')).toBeGreaterThan(a.markdown.indexOf('## Why Plan'));
    // Key points as written; a heading the sources say nothing about is stated rather than left empty.
    expect(a.markdown).toMatch(/## How to Start\n\nPick a cadence\.\n\nAssign owners\./);
  });

  test('a subject no source covers: an honest short article, no quoted padding', () => {
    const a = writeArticle({
      topic: 'author events at an independent bookshop',
      sources,
      targetWords: 800,
      audience: 'local readers and families',
    });
    expect(a.references).toEqual([]);
    expect(a.wordCount).toBeLessThan(60);
    expect(a.coverage.shortfall).toMatch(/none of the sources is about it/);
  });

  test('a listicle is a numbered list: the key points as items, the call to action after it', () => {
    const a = writeArticle({
      topic: 'author events at an independent bookshop',
      sources,
      targetWords: 400,
      content_type: 'listicle',
      sections: BOOKSHOP.keyPoints.map((p) => ({ heading: p, keyPoints: [p] })),
      cta: BOOKSHOP.cta,
    });
    expect(a.markdown).toContain(
      [
        '1. Riverside Books hosts an author reading every Thursday evening.',
        "2. Children's story time runs on Saturday mornings.",
      ].join('\n'),
    );
    expect(a.markdown.trim().endsWith('Book your free seat on the Riverside Books website.')).toBe(true);
    expect(a.coverage.items).toEqual({ wanted: 2, written: 2 });
  });

  test('a listicle without key points lists what the sources about the topic say, one cited sentence an item', () => {
    const a = writeArticle({ topic: 'keyword research', sources, targetWords: 400, content_type: 'tips' });
    const items = a.markdown.split('\n').filter((l) => /^\d+\. /.test(l) && !l.includes('<http'));
    expect(items.length).toBeGreaterThanOrEqual(3);
    for (const item of items) expect(item).toMatch(/\[\d+\]\.$/);
    // Off the sources' subjects: no item is invented.
    const off = writeArticle({
      topic: 'author events at an independent bookshop',
      sources,
      targetWords: 400,
      content_type: 'listicle',
    });
    expect(off.markdown.split('\n').filter((l) => /^\d+\. /.test(l))).toEqual([]);
    expect(off.coverage.shortfall).toMatch(/none of the sources is about it/);
  });

  test('withoutRepeats: a sentence an earlier section said is dropped from a later one, whatever its frame', () => {
    const [a, b] = withoutRepeats([
      { content: 'Seats are limited for every reading. A calendar lists every planned piece [1].' },
      {
        content:
          'As “Guide” notes, a calendar lists every planned piece [2]. Book early for the Thursday reading.\n\n- Seats are limited for every reading.',
      },
    ]);
    expect(a.content).toBe('Seats are limited for every reading. A calendar lists every planned piece [1].');
    expect(b.content).toBe('Book early for the Thursday reading.');
  });

  test('renumberCitations: sections numbered from 1 each get one numbering for the post', () => {
    const [a, b] = renumberCitations([
      {
        content: 'One [1]. Two [2].',
        sources: [
          { ...sources[0], index: 1 },
          { ...sources[1], index: 2 },
        ],
      },
      {
        content: 'Three [1]. Four [2].',
        sources: [
          { ...sources[1], index: 1 },
          { ...sources[2], index: 2 },
        ],
      },
    ]);
    expect(a.content).toBe('One [1]. Two [2].');
    expect(b.content).toBe('Three [2]. Four [3].');
    expect(b.sources.map((s) => [s.index, s.url])).toEqual([
      [2, sources[1].url],
      [3, sources[2].url],
    ]);
  });
});

describe('draftOutline and researchSummary', () => {
  test('outline: title options, sections with all spec fields, targets summing to the word count', () => {
    const o = draftOutline({ topic: 'keyword research', keywords: ['long-tail keywords'], sources, wordCount: 1500 });
    expect(o.title_options.length).toBeGreaterThanOrEqual(3);
    // Sections only for what the request and the sources about it give (at most one per 250 words).
    expect(o.outline.length).toBeGreaterThanOrEqual(2);
    expect(o.outline.length).toBeLessThanOrEqual(6);
    expect(o.outline.reduce((n, s) => n + s.target_words, 0)).toBe(1500);
    for (const s of o.outline) {
      expect(s).toEqual({
        id: expect.any(String),
        heading: expect.any(String),
        subheadings: expect.any(Array),
        key_points: expect.any(Array),
        references: expect.any(Array),
        target_words: expect.any(Number),
        keywords: expect.any(Array),
      });
      expect(s.key_points.length).toBeGreaterThan(0);
      for (const r of s.references) expect(sources.some((x) => x.url === r.url && x.index === r.index)).toBe(true);
    }
    expect(
      draftOutline({ topic: 'keyword research', keywords: ['long-tail keywords'], sources, wordCount: 1500 }),
    ).toEqual(o);
  });

  test('research summary: keywords from the request and the sources, honest search_volume, grounding for every source', () => {
    const r = researchSummary({
      topic: 'keyword research',
      keywords: ['long-tail keywords'],
      audience: 'marketers',
      sources,
    });
    expect(r.keyword_analysis.primary_keywords[0]).toBe('long-tail keywords');
    expect(r.keyword_analysis.secondary_keywords.length).toBeGreaterThan(2);
    expect(r.keyword_analysis.search_volume).toMatch(/no search-engine volume/);
    // The corpus's sources are sample documents: nobody's page, so no competitor (test/unit/ai/research-sources).
    expect(r.competitor_analysis.top_competitors).toEqual([]);
    expect(r.suggested_angles.length).toBeGreaterThan(2);
    expect(r.search_queries).toContain('keyword research');
    expect(r.grounding_metadata.grounding_chunks.map((g) => g.url)).toEqual(sources.map((s) => s.url));
    for (const g of r.grounding_metadata.grounding_chunks) expect(g.confidence_score).toBeGreaterThanOrEqual(0);
  });

  test('plain chat: an extractive summary made of the prompt sentences', () => {
    const text =
      'Content calendars keep publishing steady. They list owners and dates. Content calendars also leave room for news. The weather was nice.';
    const out = localChatAnswer(
      [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: text },
      ],
      15,
    );
    expect(out.length).toBeGreaterThan(0);
    for (const sentence of out.split(/(?<=\.)\s+/)) expect(text).toContain(sentence);
    expect(out).not.toContain('weather');
  });
});
