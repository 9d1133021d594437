/**
 * researchSummary: the analytical half of a research result, computed from
 * the sources the research step found. Every field is a documented
 * heuristic over those sources, never an invented market figure:
 *
 * - primary keywords: the request keywords, then the shared phrases (terms.ts)
 *   that contain a topic word; secondary: the next shared phrases.
 * - search_volume: no search-engine data exists offline, so it reports how
 *   widely the sources cover the main keyword ("high" = more than half of
 *   them), and says so in the string.
 * - top competitors: the published pages among the sources (a sample
 *   document, `source_type: "sample"`, is nobody's page: never listed),
 *   ranked by credibility × relevance to the topic; a source without a
 *   credibility (null) counts 0.5, below any rated source of equal relevance.
 *   When every source is a sample, the list is empty and `note` says why.
 * - content gaps: request keywords and topic words that at most one source
 *   covers, and sources older than the newest by two years or more (sample
 *   documents' dates are sample values: not counted).
 * - opportunities: pairs of strong phrases that never appear in the same
 *   source (an article connecting them adds something), and the audience
 *   when no source addresses it by name.
 * - suggested angles and search queries: templates over topic, keywords,
 *   phrases and audience (queries to run next, not queries that ran).
 * - grounding chunks: each source with confidence = its credibility (0.5
 *   when none is claimed: a sample document never scores above 0.5) scaled
 *   by its topic relevance, rounded to two decimals.
 * - web_search_queries: the queries the research step sent to a web-search
 *   vendor (input.web_search_queries), empty when no web search ran.
 */
import { createBm25Index, search } from '../analysis/bm25';
import type { ResearchSummary, ResearchSummaryInput, Source } from './types';
import { audienceOf } from './phrases';
import { capitalize, contentWords } from './text';
import { termStats, topPhrases } from './terms';

const round2 = (x: number): number => Math.round(x * 100) / 100;
const textOf = (s: Source): string => `${s.title}. ${s.excerpt ?? ''}`.toLowerCase();
const domainOf = (url: string): string => /^https?:\/\/([^/]+)/i.exec(url)?.[1]?.replace(/^www\./, '') ?? url;
/** The credibility a ranking may use: the source's own claim, else a neutral 0.5 (no authority from nothing). */
const credibilityOf = (s: Source): number => s.credibility_score ?? 0.5;
const isSample = (s: Source): boolean => s.source_type === 'sample';

export function researchSummary(input: ResearchSummaryInput): ResearchSummary {
  const topic = input.topic.trim();
  const keywords = (input.keywords ?? []).map((k) => k.trim()).filter(Boolean);
  const sources = input.sources ?? [];
  const audience = audienceOf(input.audience);
  const texts = sources.map(textOf);
  const coverage = (phrase: string) => texts.filter((t) => t.includes(phrase.toLowerCase())).length;

  const stats = termStats(sources.map((s) => `${s.title}. ${s.excerpt ?? ''}`));
  const topicWords = new Set(contentWords(topic));
  const phrases = topPhrases(stats, 14, keywords).map((s) => s.phrase);
  const onTopic = phrases.filter((p) => contentWords(p).some((w) => topicWords.has(w)));
  const primary = [...new Set([...keywords, ...onTopic.slice(0, 3)])].slice(0, Math.max(3, keywords.length));
  const primarySet = new Set(primary.map((p) => p.toLowerCase()));
  // Multi-word phrases first: "search intent" says more about a topic than "search".
  const secondary = phrases
    .filter((p) => !primarySet.has(p.toLowerCase()))
    .sort((a, b) => Number(b.includes(' ')) - Number(a.includes(' ')))
    .slice(0, 8);

  const main = primary[0] ?? topic;
  const mainCoverage = coverage(main);
  const level =
    sources.length === 0
      ? 'unknown'
      : mainCoverage / sources.length > 0.5
        ? 'high'
        : mainCoverage / sources.length > 0.2
          ? 'medium'
          : 'low';
  const search_volume = `${level} (estimated from coverage: "${main}" appears in ${mainCoverage} of ${sources.length} sources; no search-engine volume data offline)`;

  const index = createBm25Index(sources.map((s, i) => ({ id: String(i), text: textOf(s) })));
  const relevance = new Map(
    search(index, [topic, ...keywords].join(' '), sources.length).map((h) => [Number(h.id), h.score]),
  );
  const best = Math.max(1e-9, ...relevance.values());
  const rel = (i: number) => (relevance.get(i) ?? 0) / best;
  const ranked = sources
    .map((s, i) => ({ s, i, score: credibilityOf(s) * (0.25 + 0.75 * rel(i)) }))
    .filter(({ s }) => !isSample(s))
    .sort((a, b) => b.score - a.score || a.i - b.i);
  // Corpus documents live on our own API host, so they are labelled by type; web sources by their domain.
  const top_competitors = ranked
    .slice(0, 5)
    .map(
      ({ s }) =>
        `${s.title} (${/\/api\/research\/corpus\//.test(s.url) ? `${s.source_type ?? 'web'} source` : domainOf(s.url)})`,
    );
  const samples = sources.filter(isSample).length;

  const content_gaps: string[] = [];
  for (const k of [...keywords, ...topicWords]) {
    const c = coverage(k);
    if (sources.length && c <= 1)
      content_gaps.push(`Little coverage of "${k}": ${c} of ${sources.length} sources mention it`);
  }
  // A sample document's date is a sample value too: only published sources date the research.
  const dates = sources
    .filter((s) => !isSample(s))
    .map((s) => Date.parse(s.published_at ?? ''))
    .filter((d) => !Number.isNaN(d));
  if (dates.length) {
    const newest = Math.max(...dates);
    const stale = dates.filter((d) => newest - d >= 2 * 365 * 86_400_000).length;
    if (stale)
      content_gaps.push(
        `${stale} of ${dates.length} dated sources are two or more years older than the newest one; fresher data is an opening`,
      );
  }
  if (content_gaps.length === 0 && secondary.length)
    content_gaps.push(
      `Sources mention "${secondary[secondary.length - 1]}" only in passing; a deeper treatment is possible`,
    );

  const opportunities: string[] = [];
  const strong = phrases.slice(0, 6);
  for (let a = 0; a < strong.length && opportunities.length < 3; a++) {
    for (let b = a + 1; b < strong.length && opportunities.length < 3; b++) {
      const together = texts.some((t) => t.includes(strong[a].toLowerCase()) && t.includes(strong[b].toLowerCase()));
      if (!together && coverage(strong[a]) && coverage(strong[b]))
        opportunities.push(`Connect "${strong[a]}" with "${strong[b]}": no source covers both`);
    }
  }
  if (audience !== 'readers' && !texts.some((t) => t.includes(audience.toLowerCase())))
    opportunities.push(`Write for ${audience} explicitly: no source addresses them by name`);
  if (opportunities.length === 0)
    opportunities.push(`Synthesise the ${sources.length} sources into one practical guide to ${topic}`);

  const secondaryFor = (i: number) => secondary[i] ?? keywords[i] ?? topic;
  const suggested_angles = [
    /\bfor\b/i.test(topic) ? `A step-by-step guide to ${topic}` : `A step-by-step guide to ${topic} for ${audience}`,
    `${capitalize(main)}: what ${sources.length || 'the'} sources agree on and where they differ`,
    `Common mistakes in ${secondaryFor(0)} and how to avoid them`,
    `How ${secondaryFor(0)} and ${secondaryFor(1)} work together in ${topic}`,
    input.industry
      ? `${capitalize(topic)} in ${input.industry}: a practical playbook`
      : `${capitalize(topic)} on a small budget`,
  ];
  const search_queries = [
    ...new Set([
      topic,
      ...keywords.map((k) => `${k} best practices`),
      `how to ${main.toLowerCase().startsWith('how to') ? main.slice(7) : `improve ${main}`}`,
      `${main} examples`,
      `${main} statistics`,
      ...phrases.slice(0, 3).map((p) => `${topic} ${p}`),
      ...(input.industry ? [`${topic} ${input.industry}`] : []),
    ]),
  ].slice(0, 10);

  return {
    keyword_analysis: { primary_keywords: primary, secondary_keywords: secondary, search_volume },
    competitor_analysis: {
      top_competitors,
      content_gaps: content_gaps.slice(0, 6),
      opportunities,
      ...(samples && !top_competitors.length
        ? {
            note: `No competitor pages: the ${samples === 1 ? 'source is a sample document' : `${samples} sources are sample documents`} written for this platform, not published pages (web search finds real ones)`,
          }
        : {}),
    },
    suggested_angles,
    search_queries,
    grounding_metadata: {
      grounding_chunks: sources.map((s, i) => ({
        title: s.title,
        url: s.url,
        confidence_score: round2(credibilityOf(s) * (0.5 + 0.5 * rel(i))),
      })),
      web_search_queries: [...(input.web_search_queries ?? [])],
    },
  };
}
