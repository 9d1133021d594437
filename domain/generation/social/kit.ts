/**
 * What the offline social writer builds every piece from: the brief's own
 * words (topic, audience, industry, the client's fields), the research
 * sources' sentences (ranked by BM25, each used once per piece) and the
 * sources' shared phrases (for hashtags and on-screen text). The writer's own
 * sentences are frames around those; none states a fact of its own, so every
 * claim in a `local` piece comes from a named source or from the request.
 * Choices between equivalent frames are made by a hash of the brief: the same
 * request gives the same piece.
 */
import { search } from '../../analysis/bm25';
import { buildEvidencePool, EvidencePool, numberSources } from '../evidence';
import { audienceOf, keyPhrase, toneFamily, ToneFamily } from '../phrases';
import { topPhrases, termStats } from '../terms';
import { capitalize, hash32, pick, properNouns, terminate, wordsIn } from '../text';
import type { Source } from '../types';
import type { WriterBrief } from '../../writers/types';

export interface Evidence {
  /** The source sentence, lightly tidied (no citation marker: social text does not carry [n]). */
  text: string;
  /** Its source's number in `sources`. */
  n: number;
  title: string;
}

export interface Kit {
  brief: WriterBrief;
  family: ToneFamily;
  seed: string;
  /** The topic as a phrase for the middle of a sentence. */
  topic: string;
  /** The audience as a plural noun phrase ("readers" when none was given). */
  audience: string;
  /** Best unused source sentences for `query`, at most `maxWords` words each. */
  evidence(query: string, k: number, maxWords?: number): Evidence[];
  /** Phrases the sources share, best first (for hashtags and on-screen text). */
  phrases: string[];
  /** A deterministic choice keyed by the brief and `slot`. */
  pick<T>(items: readonly T[], slot: string): T;
  /** Source numbers whose sentences were used. */
  used: Set<number>;
}

/** Share of the best match's BM25 score a sentence needs to be used. */
export const RELEVANCE_FLOOR = 0.45;

export function createKit(brief: WriterBrief, sources: Source[]): Kit {
  const numbered = numberSources(sources);
  const pool: EvidencePool = buildEvidencePool(numbered);
  const proper = properNouns(sources.map((s) => s.excerpt ?? ''));
  const seed = `${brief.platform}|${brief.kind}|${brief.topic}|${brief.tone}|${brief.audience}|${brief.industry}`;
  const topic = lowerTopic(brief.topic, proper);
  const used = new Set<number>();
  const stats = termStats(sources.map((s) => s.excerpt ?? ''));
  return {
    brief,
    family: toneFamily(brief.brand.voice ? `${brief.tone} ${brief.brand.voice}` : brief.tone),
    seed,
    topic,
    audience: audienceOf(brief.audience),
    phrases: topPhrases(stats, 8).map((t) => t.phrase),
    used,
    pick: <T>(items: readonly T[], slot: string) => pick(items, `${seed}|${slot}`),
    evidence(query: string, k: number, maxWords = 32): Evidence[] {
      const out: Evidence[] = [];
      const hits = search(pool.index, query, k + pool.used.size + 12);
      // Sentences far below the best match share only a common word with the query: leave them out.
      const floor = (hits[0]?.score ?? 0) * RELEVANCE_FLOOR;
      for (const hit of hits) {
        if (out.length >= k) break;
        const e = pool.byId.get(hit.id)!;
        if (pool.used.has(e.id) || e.words > maxWords || hit.score < floor) continue;
        pool.used.add(e.id);
        used.add(e.n);
        out.push({ text: terminate(e.text), n: e.n, title: e.title });
      }
      return out;
    },
  };
}

/** "Content Marketing For Startups" → "content marketing for startups", keeping acronyms and proper nouns. */
function lowerTopic(topic: string, proper: ReadonlySet<string>): string {
  return topic
    .trim()
    .replace(/[.!?]+$/, '')
    .split(/\s+/)
    .map((w) => (/^\p{Lu}\p{Ll}+$/u.test(w) && !proper.has(w) ? w.toLowerCase() : w))
    .join(' ');
}

/** Fills `{topic}`, `{audience}`, `{industry}` ... of a frame; `{Topic}` is capitalised. */
export function frame(template: string, slots: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const v = slots[name.toLowerCase()] ?? '';
    return name[0] === name[0].toUpperCase() ? capitalize(v) : v;
  });
}

/** The slots every frame may use. */
export const slotsOf = (k: Kit, extra: Record<string, string> = {}): Record<string, string> => ({
  topic: k.topic,
  audience: k.audience,
  industry: k.brief.industry || 'your field',
  ...extra,
});

/**
 * Hashtags of a piece: the topic, the industry, the sources' shared two- and
 * three-word phrases, then the topic's own longer words (the finisher caps them).
 */
export function hashtagsFor(k: Kit, extra: string[] = []): string[] {
  if (!k.brief.includeHashtags) return [];
  const words = k.brief.topic.split(/\s+/).filter((w) => w.length > 4);
  const shared = k.phrases.filter((p) => wordsIn(p) >= 2).slice(0, 3);
  return [k.brief.topic, k.brief.industry, ...extra, ...shared, ...words].filter((t) => t && wordsIn(t) <= 3);
}

const EMOJI: Record<ToneFamily, { lead: string; point: string; cta: string }> = {
  formal: { lead: '📌', point: '▪️', cta: '👉' },
  friendly: { lead: '✨', point: '✅', cta: '👇' },
  persuasive: { lead: '🚀', point: '🔥', cta: '👉' },
  neutral: { lead: '💡', point: '•', cta: '👉' },
};

/** The piece's emoji for a role, or "" when the brief asked for none. */
export function emoji(k: Kit, role: 'lead' | 'point' | 'cta'): string {
  if (!k.brief.includeEmoji) return role === 'point' ? '•' : '';
  return EMOJI[k.family][role];
}

/** A short label for a sentence (on-screen text, slide titles): its key phrase, capitalised. */
export const labelOf = (sentence: string): string => capitalize(keyPhrase(sentence));

/** Deterministic number from the brief (template rotation). */
export const seedNumber = (k: Kit, slot: string) => hash32(`${k.seed}|${slot}`);
