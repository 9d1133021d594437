/**
 * developPersonas: the offline writer's persona from the demographics the
 * client gives, grounded in the research sources.
 *
 * One persona per request: the client describes one segment (age range,
 * profession, pain points); inventing further segments would be inventing
 * data. The persona carries exactly what was given, and for each pain point
 * the source sentences that best address it (BM25, `[n]` citations) and
 * content ideas (templates over the pain point, the profession and the
 * niche). Preferred formats and channels are the source sentences about
 * formats and channels that best match the niche and profession. The label
 * ("Marketing managers, 25-34, in B2B SaaS") is built from the input; no
 * invented name, income or quote.
 */
import type { Source } from './types';
import { bestEvidence, buildEvidencePool, EvidencePool, numberSources } from './evidence';
import { rotate, withCitation } from './text';
import { softLower } from './platform-post';
import type { CitedAdvice } from './strategy';

export interface PersonasInput {
  business_niche: string;
  age_range?: string;
  profession?: string;
  pain_points: string[];
  sources?: Source[];
}

export interface PersonaDraft {
  label: string;
  summary: string;
  demographics: { age_range: string | null; profession: string | null };
  pain_points: Array<{ pain_point: string; insights: CitedAdvice[]; content_ideas: string[]; note?: string }>;
  preferred_content: CitedAdvice[];
  channels: CitedAdvice[];
}

export interface PersonasDraft {
  personas: PersonaDraft[];
  references: Array<{ index: number; title: string; url: string }>;
}

const IDEAS = [
  '{Pain}: a practical guide for {who} in {niche}',
  'Checklist: tackling {pain} in {niche}',
  'Questions {who} ask about {pain}, answered',
  'How {who} in {niche} deal with {pain}: a worked example',
  '{Pain} in {niche}: mistakes to avoid',
];

const plural = (p: string) => (/s$/i.test(p) ? p : /y$/i.test(p) ? `${p.slice(0, -1)}ies` : `${p}s`);
const cap = (s: string) => (s ? s[0].toUpperCase() + s.slice(1) : s);

function cited(pool: EvidencePool, query: string, k: number): CitedAdvice[] {
  return bestEvidence(pool, query, k).map((e) => {
    pool.used.add(e.id);
    return { text: withCitation(e.text, e.n), source: e.n };
  });
}

export function developPersonas(input: PersonasInput): PersonasDraft {
  const numbered = numberSources(input.sources ?? []);
  const pool = buildEvidencePool(numbered);
  const niche = input.business_niche.trim();
  const profession = input.profession?.trim() || null;
  const age = input.age_range?.trim() || null;
  const who = profession ? plural(softLower(profession)) : 'buyers';
  const label = [cap(who), age, `in ${niche}`].filter(Boolean).join(', ');

  const pains = input.pain_points.map((p) => {
    const pain = p.trim().replace(/[.!?]+$/, '');
    const insights = cited(pool, `${pain} ${profession ?? ''} ${niche}`, 2);
    const ideas = rotate(IDEAS, pain)
      .slice(0, 3)
      .map((t) =>
        t
          .replace('{Pain}', cap(pain))
          .replace('{pain}', softLower(pain))
          .replace('{who}', who)
          .replace('{niche}', niche),
      );
    return {
      pain_point: pain,
      insights,
      content_ideas: ideas,
      ...(insights.length ? {} : { note: `The research sources say nothing about ${softLower(pain)}` }),
    };
  });
  const preferred = cited(pool, `content formats ${who} prefer read watch listen ${niche}`, 2);
  const channels = cited(pool, `channels platforms social email search reach ${who} ${niche}`, 2);
  const usedSources = new Set([...pains.flatMap((p) => p.insights), ...preferred, ...channels].map((a) => a.source));
  return {
    personas: [
      {
        label,
        summary: `${cap(who)}${age ? ` aged ${age}` : ''} working in or buying from ${niche}, whose main problems are ${
          pains.map((p) => softLower(p.pain_point)).join(', ') || 'not given'
        }. Insights below quote the research sources.`,
        demographics: { age_range: age, profession },
        pain_points: pains,
        preferred_content: preferred,
        channels,
      },
    ],
    references: numbered
      .filter((s) => usedSources.has(s.n))
      .map(({ n, source }) => ({ index: n, title: source.title, url: source.url })),
  };
}
