/**
 * The offline writer (domain/generation): determinism, length within ±10 %
 * by the project's word counter, citations only from the given sources with
 * every [n] resolving, and the shapes of outline and research summaries.
 * Sources come from the shipped corpus, as the research step would give them.
 */
import { createCorpusProvider } from '../../../infra/research/corpus';
import {
  articleWordCount,
  citationNumbers,
  draftOutline,
  markdownWordCount,
  researchSummary,
  writeArticle,
  writeSection,
  localChatAnswer,
} from '../../../domain/generation';
import type { Source } from '../../../domain/generation';

let sources: Source[];
beforeAll(async () => {
  sources = await createCorpusProvider({ publicBaseUrl: 'http://api.test' }).search(
    'keyword research search intent long-tail keywords',
    { limit: 6 },
  );
});

const section = (targetWords: number, extra: Partial<Parameters<typeof writeSection>[0]> = {}) =>
  writeSection({
    heading: 'Keyword Research Basics',
    keyPoints: ['Start from customer questions', 'Use long-tail keywords', 'Match search intent'],
    keywords: ['keyword research'],
    targetWords,
    sources,
    tone: 'friendly',
    audience: 'small business owners',
    ...extra,
  });

describe('writeSection', () => {
  test('same input, same output', () => {
    expect(section(400)).toEqual(section(400));
  });

  test.each([150, 400, 800, 1500])('meets %i words within ±10 %% (project word counter)', (target) => {
    const out = section(target);
    expect(out.wordCount).toBe(markdownWordCount(out.markdown));
    expect(Math.abs(out.wordCount - target) / target).toBeLessThanOrEqual(0.1);
  });

  test.each(['professional', 'casual', 'persuasive', undefined])(
    'tone %s also lands within ±10 %% for 300 words',
    (tone) => {
      const out = section(300, { tone, list: false, subheadings: ['Questions', 'Long tail', 'Intent'] });
      expect(Math.abs(out.wordCount - 300) / 300).toBeLessThanOrEqual(0.1);
    },
  );

  test('cites only the given sources, and every [n] is one of its citations', () => {
    const out = section(800);
    const given = new Set(sources.map((s) => s.index));
    const used = citationNumbers(out.markdown);
    expect(used.length).toBeGreaterThan(0);
    for (const n of used) expect(given.has(n)).toBe(true);
    expect(out.citations.map((c) => c.index)).toEqual(used);
    for (const c of out.citations) expect(sources.find((s) => s.index === c.index)!.url).toBe(c.url);
  });

  test('without sources: no citations at all, length still met', () => {
    const out = section(400, { sources: [] });
    expect(citationNumbers(out.markdown)).toEqual([]);
    expect(out.citations).toEqual([]);
    expect(Math.abs(out.wordCount - 400) / 400).toBeLessThanOrEqual(0.1);
  });

  test('structure: a list for list-like sections, subheadings when given', () => {
    expect(section(300, { heading: 'Five Tips for Keyword Research' }).markdown).toMatch(
      /^- \*\*Start from customer questions\.\*\*/m,
    );
    expect(section(400, { list: false, subheadings: ['Customer Questions', 'Long Tail', 'Intent'] }).markdown).toMatch(
      /^### Customer Questions$/m,
    );
  });
});

describe('writeArticle', () => {
  test.each([150, 400, 800, 1500])('%i words within ±10 %%, references resolve every [n]', (target) => {
    const a = writeArticle({
      topic: 'keyword research for small businesses',
      keywords: ['keyword research'],
      sources,
      targetWords: target,
      tone: 'professional',
      audience: 'small business owners',
    });
    expect(a.wordCount).toBe(articleWordCount(a.markdown));
    expect(Math.abs(a.wordCount - target) / target).toBeLessThanOrEqual(0.1);
    expect(a.markdown.startsWith(`# ${a.title}\n`)).toBe(true);
    const used = citationNumbers(a.markdown.split('## References')[0]);
    expect(a.references.map((r) => r.index)).toEqual(used);
    for (const r of a.references) expect(a.markdown).toContain(`${r.index}. ${r.title.replace(/\.$/, '')}. <${r.url}>`);
    expect(
      writeArticle({
        topic: 'keyword research for small businesses',
        keywords: ['keyword research'],
        sources,
        targetWords: target,
        tone: 'professional',
        audience: 'small business owners',
      }),
    ).toEqual(a);
  });

  test('writes a given outline in order with ## headings', () => {
    const a = writeArticle({
      topic: 'content calendars',
      title: 'Plan Better',
      sources,
      targetWords: 600,
      sections: [{ heading: 'Why Plan' }, { heading: 'How to Start', keyPoints: ['Pick a cadence', 'Assign owners'] }],
    });
    expect(a.markdown).toMatch(/^# Plan Better\n\n## Why Plan\n/);
    expect(a.markdown.indexOf('## How to Start')).toBeGreaterThan(a.markdown.indexOf('## Why Plan'));
  });
});

describe('draftOutline and researchSummary', () => {
  test('outline: title options, sections with all spec fields, targets summing to the word count', () => {
    const o = draftOutline({ topic: 'keyword research', keywords: ['long-tail keywords'], sources, wordCount: 1500 });
    expect(o.title_options.length).toBeGreaterThanOrEqual(3);
    expect(o.outline.length).toBe(6);
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
    expect(r.competitor_analysis.top_competitors.length).toBeGreaterThan(0);
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
