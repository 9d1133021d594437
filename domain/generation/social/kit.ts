/**
 * What the offline social writer builds every piece from: the brief's own
 * words (topic, audience, industry, the client's fields) as written, the
 * research sources' sentences that are about the topic (ranked by BM25, kept
 * only when they name a phrase of the topic: social-compose.ts `topicScore`;
 * each used once per piece) and the sources' shared phrases that touch the
 * topic (poll and quiz options, highlights). The writer's own sentences are
 * frames that place the client's phrases after a preposition or as their own
 * sentences (compose.ts), never as the subject of a template verb; none states
 * a fact of its own, so every claim in a `local` piece comes from a named
 * source or from the request. A topic the sources do not cover gets no source
 * sentence: the piece is shorter, not padded. Choices between equivalent
 * frames are made by a hash of the brief: the same request gives the same piece.
 */
import { search } from '../../analysis/bm25';
import { contentKeys } from '../../analysis/word-forms';
import { Brief, namesIn, readBrief } from '../compose';
import { buildEvidencePool, EvidencePool, numberSources } from '../evidence';
import { keyPhrase, ToneFamily } from '../phrases';
import { briefHashtags, rankAbout, tagWords, topicMidSentence, topicScore } from '../social-compose';
import { topPhrases, termStats } from '../terms';
import { capitalize, hash32, pick, terminate, wordsWrittenLower } from '../text';
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
  /** The brief in the shared grammar's terms (compose.ts): topic, audience, tone family, what "about it" means. */
  b: Brief;
  family: ToneFamily;
  seed: string;
  /** The topic as the client wrote it (trimmed, no end punctuation): never lower-cased. */
  topic: string;
  /** The audience as written ("readers" when none was given). */
  audience: string;
  /** Names in the client's words ("Riverside Books"). */
  names: string[];
  /**
   * Best unused source sentences for `query` that are about the topic (and about `about`, when given: a slide's
   * focus), at most `maxWords` words each.
   */
  evidence(query: string, k: number, maxWords?: number, about?: string): Evidence[];
  /** Phrases the sources share that touch the topic and say more than it, best first (poll and quiz options). */
  phrases: string[];
  /** A deterministic choice keyed by the brief and `slot`. */
  pick<T>(items: readonly T[], slot: string): T;
  /** Source numbers whose sentences were used. */
  used: Set<number>;
}

/** Share of the best match's BM25 score a sentence needs to be considered at all. */
export const RELEVANCE_FLOOR = 0.45;

/** The client's texts of a brief, where names and the topic's words are. */
function clientTexts(brief: WriterBrief): string[] {
  const extra =
    brief.kind === 'event'
      ? [brief.event.name, brief.event.type ?? '', brief.contentFocus]
      : brief.kind === 'group_post'
        ? [brief.valueProposition]
        : brief.kind === 'ad_copy'
          ? [brief.product, ...brief.benefits]
          : brief.kind === 'page_about'
            ? [brief.businessType, ...brief.differentiators]
            : [];
  return [brief.topic, brief.audience, brief.industry, ...extra].filter(Boolean);
}

export function createKit(brief: WriterBrief, sources: Source[]): Kit {
  const numbered = numberSources(sources);
  const pool: EvidencePool = buildEvidencePool(numbered);
  const seed = `${brief.platform}|${brief.kind}|${brief.topic}|${brief.tone}|${brief.audience}|${brief.industry}`;
  const b = readBrief({
    topic: brief.topic,
    audience: brief.audience || undefined,
    tone: brief.brand.voice ? `${brief.tone} ${brief.brand.voice}` : brief.tone,
    commonWords: wordsWrittenLower([...sources.map((s) => s.excerpt ?? ''), ...clientTexts(brief).slice(1)]),
  });
  const used = new Set<number>();
  const topicKeys = new Set(contentKeys(b.topic));
  const stats = termStats(sources.map((s) => s.excerpt ?? ''));
  return {
    brief,
    b,
    family: b.family,
    seed,
    topic: b.topic,
    audience: b.audience ?? 'readers',
    names: namesIn(clientTexts(brief)),
    // Options a reader can choose between: phrases of two words or more that touch the topic without only
    // repeating it ("author", "events" are not options of a quiz on author events).
    phrases: topPhrases(stats, 24)
      .map((t) => t.phrase)
      .filter((p) => {
        const keys = contentKeys(p);
        return keys.length >= 2 && keys.some((k) => topicKeys.has(k)) && keys.some((k) => !topicKeys.has(k));
      })
      .slice(0, 8),
    used,
    pick: <T>(items: readonly T[], slot: string) => pick(items, `${seed}|${slot}`),
    evidence(query: string, k: number, maxWords = 32, about?: string): Evidence[] {
      if (k <= 0) return [];
      const hits = search(pool.index, query, k + pool.used.size + 24);
      // Sentences far below the best match share only a common word with the query: leave them out.
      const floor = (hits[0]?.score ?? 0) * RELEVANCE_FLOOR;
      const candidates = hits
        .filter((h) => h.score >= floor && !pool.used.has(h.id))
        .map((h) => pool.byId.get(h.id)!)
        .filter((e) => e.words <= maxWords);
      // With a focus (a slide's): about the focus, and about the topic or from a source about it ("subject lines"
      // sentences of a newsletter guide need not say "email newsletter").
      const ranked = about
        ? rankAbout(candidates, readBrief({ topic: about })).filter(
            (e) => topicScore(e.text, b, e.title) > 0 || topicScore(e.title, b) > 0,
          )
        : rankAbout(candidates, b);
      const out: Evidence[] = [];
      for (const e of ranked) {
        if (out.length >= k) break;
        pool.used.add(e.id);
        used.add(e.n);
        out.push({ text: terminate(e.text), n: e.n, title: e.title });
      }
      return out;
    },
  };
}

/** Fills `{topic}`, `{audience}`, `{industry}` ... of a frame; `{Topic}` capitalises the first letter only. */
export function frame(template: string, slots: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const v = slots[name.toLowerCase()] ?? '';
    return name[0] === name[0].toUpperCase() ? capitalize(v) : v;
  });
}

/** The slots every frame may use. */
export const slotsOf = (k: Kit, extra: Record<string, string> = {}): Record<string, string> => ({
  // `{topic}` stands mid-sentence (`{Topic}` opens one): a sentence-case first letter is lowered, names stay.
  topic: topicMidSentence(k.b),
  audience: k.audience,
  industry: k.brief.industry || 'your field',
  ...extra,
});

/**
 * Hashtags of a piece, as phrases the finisher makes tags of: the names, the topic's head phrase and its other
 * phrases (social-compose.ts `briefHashtags`: whole phrases, never a fragment), then the industry and `extra`
 * (an event's type).
 */
export function hashtagsFor(k: Kit, extra: string[] = []): string[] {
  if (!k.brief.includeHashtags) return [];
  const tags = briefHashtags(k.b, k.names, 5).map(tagWords);
  const more = [k.brief.industry, ...extra].map((x) => x.trim()).filter((x) => x && x.split(/\s+/).length <= 3);
  return [...new Set([...tags, ...more])];
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
