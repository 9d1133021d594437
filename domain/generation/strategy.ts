/**
 * contentStrategy: the offline writer's content strategy, grounded in the
 * research sources (the corpus documents on strategy, distribution, email,
 * social, analytics ...).
 *
 * - content pillars: the phrases the sources share most (terms.ts) that
 *   relate to the business, the audience or the goals; the rationale says how
 *   many sources cover each (a count, not an invented market figure);
 * - per goal and per content type: the source sentences that best match the
 *   goal or type (BM25 over every source sentence, each used once), each with
 *   its `[n]` citation; KPIs are the best-matching sentences that talk about
 *   measuring;
 * - the summary and the framings are templates and state no facts.
 * A goal or content type the sources say nothing about gets an empty list
 * and a note saying so, never filler advice.
 */
import type { Source } from './types';
import { bestEvidence, buildEvidencePool, EvidencePool, numberSources } from './evidence';
import { audienceOf } from './phrases';
import { capitalize, contentWords, withCitation } from './text';
import { termStats, topPhrases } from './terms';

export interface ContentStrategyInput {
  business_type: string;
  target_audience?: string;
  goals: string[];
  content_types: string[];
  sources?: Source[];
}

export interface CitedAdvice {
  text: string;
  source: number;
}

export interface ContentStrategyDraft {
  summary: string;
  content_pillars: Array<{ name: string; rationale: string; sources: number[] }>;
  goals: Array<{ goal: string; approach: CitedAdvice[]; kpis: CitedAdvice[]; note?: string }>;
  content_types: Array<{ content_type: string; recommendations: CitedAdvice[]; note?: string }>;
  distribution: CitedAdvice[];
  references: Array<{ index: number; title: string; url: string }>;
}

/** Words a goal or content type is searched with besides its own (known values of the spec and common ones). */
export const EXPANSIONS: Record<string, string> = {
  lead_generation: 'lead generation leads conversion subscribers email signup offer',
  brand_awareness: 'brand awareness reach audience distribution shares visibility',
  engagement: 'engagement comments shares community conversation',
  traffic: 'organic traffic search seo visits rankings',
  sales: 'sales conversion revenue customers purchase',
  retention: 'retention subscribers loyalty newsletter returning',
  thought_leadership: 'expertise authority original research eeat credibility',
  blog: 'blog posts articles long-form seo search',
  social: 'social media posts platforms posting',
  email: 'email newsletter subscribers inbox',
  video: 'video youtube watch',
  podcast: 'podcast episodes listeners audio',
};

const words = (s: string) => s.replace(/[_-]+/g, ' ').trim();
const MEASURE = /\b(measure|metric|kpi|track|rate|analytics|conversion|percent|%|\d)/i;

function advice(pool: EvidencePool, query: string, k: number, filter?: RegExp): CitedAdvice[] {
  const hits = bestEvidence(pool, query, filter ? k * 4 : k).filter((e) => !filter || filter.test(e.text));
  return hits.slice(0, k).map((e) => {
    pool.used.add(e.id);
    return { text: withCitation(e.text, e.n), source: e.n };
  });
}

export function contentStrategy(input: ContentStrategyInput): ContentStrategyDraft {
  const numbered = numberSources(input.sources ?? []);
  const pool = buildEvidencePool(numbered);
  const business = input.business_type.trim();
  const audience = audienceOf(input.target_audience);
  const queryOf = (v: string) => `${words(v)} ${EXPANSIONS[v.toLowerCase()] ?? ''} ${business}`;

  // Pillars: shared phrases of the sources that relate to the business, the audience or the goals.
  const texts = numbered.map(({ source }) => `${source.title}. ${source.excerpt ?? ''}`.toLowerCase());
  const focus = new Set(contentWords([business, audience, ...input.goals.map(words)].join(' ')));
  const phrases = topPhrases(termStats(texts), 30).filter((p) => p.words > 1 || focus.has(p.phrase));
  const related = (p: { phrase: string }) => contentWords(p.phrase).some((w) => focus.has(w));
  // Multi-word phrases tied to the business or goals first, then other shared multi-word phrases, then single words.
  const ranked = [
    ...phrases.filter((p) => p.words > 1 && related(p)),
    ...phrases.filter((p) => p.words > 1 && !related(p) && p.df >= 2),
    ...phrases.filter((p) => p.words === 1),
  ];
  const pillars = ranked.slice(0, 4).map((p) => {
    const covering = numbered.filter((_, i) => texts[i].includes(p.phrase.toLowerCase())).map((s) => s.n);
    return {
      name: capitalize(p.phrase),
      rationale: `Covered by ${covering.length} of ${numbered.length} research sources${
        contentWords(p.phrase).some((w) => focus.has(w)) ? `, and tied to ${business} or its goals` : ''
      }`,
      sources: covering,
    };
  });

  const goals = input.goals.map((g) => {
    const approach = advice(pool, queryOf(g), 2);
    const kpis = advice(pool, `${queryOf(g)} measure metric track`, 2, MEASURE);
    return {
      goal: g,
      approach,
      kpis,
      ...(approach.length + kpis.length === 0 ? { note: `The research sources say nothing about ${words(g)}` } : {}),
    };
  });
  const types = input.content_types.map((t) => {
    const recommendations = advice(pool, queryOf(t), 3);
    return {
      content_type: t,
      recommendations,
      ...(recommendations.length ? {} : { note: `The research sources say nothing about ${words(t)} content` }),
    };
  });
  const distribution = advice(pool, `distribution promote repurpose channels schedule ${audience}`, 3);

  const cited = new Set(
    [...goals.flatMap((g) => [...g.approach, ...g.kpis]), ...types.flatMap((t) => t.recommendations), ...distribution]
      .map((a) => a.source)
      .concat(pillars.flatMap((p) => p.sources)),
  );
  const goalList = input.goals.map(words).join(', ') || 'its goals';
  return {
    summary: `A content strategy for ${business} aimed at ${audience}, organised around ${pillars.length} pillar${
      pillars.length === 1 ? '' : 's'
    } and the goals ${goalList}, using ${input.content_types.map(words).join(', ') || 'the chosen formats'}. Every recommendation below quotes a research source.`,
    content_pillars: pillars,
    goals,
    content_types: types,
    distribution,
    references: numbered
      .filter((s) => cited.has(s.n))
      .map(({ n, source }) => ({ index: n, title: source.title, url: source.url })),
  };
}
