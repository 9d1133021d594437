/**
 * Coherence: is a text about its subject, and does it say each thing once?
 * (docs/analysis.md "Coherence"). Pure and lexical; the SEO analysis and the
 * engagement model both read it, so a text padded with sentences about other
 * subjects, or with the same template sentence over and over, cannot score
 * well on either.
 *
 * Topicality = on-topic sentences / judged body sentences. The subject is
 * what the caller gives (keywords, blog title, topic, brief) read together
 * with the text's own title, or the title alone: the H1 (else the first
 * sentence) plus the uncommon words of the other headings. Sentences are
 * compared by content-word stems (word-forms.ts, stopwords.ts):
 *  1. a sentence sharing a stem with the subject is on topic (a compound's
 *     head counts: "shop" names a "bookshop");
 *  2. otherwise the subject's vocabulary in this text (uncommon words and
 *     names recurring across on-topic sentences: "Maria", "novelist") is
 *     weighed against competing threads (uncommon words recurring in 3+ other
 *     sentences that never share a sentence with the subject and seldom meet
 *     its uncommon words: "podcast", "backlink"), in rounds;
 *  3. a sentence with neither ("She started with one reading in a back
 *     room.") continues the sentence before it in its paragraph, or is not
 *     judged.
 * "Uncommon" = not on the familiar-word list (easy-words.ts): "people",
 * "week" or "page" recur in any text and prove nothing either way.
 *
 * Repetition = duplicate sentences (the same words in the same order, case
 * and punctuation ignored, sentences of 4+ words) and the share of word
 * 4-grams that repeat an earlier 4-gram of the text (within sentences;
 * naming the subject again, a 4-gram of subject and function words only, is
 * not counted).
 */
import { STOPWORDS } from './stopwords';
import { CoherenceUnit, plainTextUnits } from './coherence-units';
import { Read, namesOf, readUnit, topicality } from './coherence-topicality';
import { Span } from './types';
import { tokenize } from './words';
import { wordKey } from './word-forms';

/** Below this topicality a text counts as off-topic: SEO and engagement are capped. */
export const TOPICALITY_CAP = 0.6;
/** Topicality from which the topic part of the coherence score is full (ordinary on-topic prose clears it). */
export const TOPICALITY_FULL = 0.8;
/** Topicality at which the topic part of the coherence score reaches 0. */
export const TOPICALITY_ZERO = 0.5;
/** Repeated 4-gram share ordinary prose stays under (the data/corpus articles measure 0–1.1 %). */
export const REPEATED_4GRAM_OK = 0.04;
/** Repeated 4-gram share above which a text counts as repetitive (capped). */
export const REPEATED_4GRAM_CAP = 0.1;
/** Duplicate sentences: a text with this many copies, or this share of its sentences copied, is repetitive. */
export const DUPLICATES_CAP = 2;
export const DUPLICATE_SHARE_CAP = 0.05;
/** Sentences shorter than this are not compared as duplicates ("Thank you.", "See you there!"). */
export const DUPLICATE_MIN_WORDS = 4;
/** The score cap for an off-topic or repetitive text (SEO and engagement). */
export const COHERENCE_SCORE_CAP = 50;

export interface DuplicateGroup {
  text: string;
  count: number;
  spans: Span[];
}

export interface CoherenceResult {
  /** Share 0..1 of attributed body sentences about the subject (1 when none can be judged). */
  topicality: number;
  /** Where the subject came from: the caller's keywords/topic, or the text's own title/first sentence. */
  subject_source: 'given' | 'text';
  /** The subject as read: the given phrases, or the title/first sentence. */
  subject: string;
  /** Body sentences, and those judged (on + off topic; the rest could not be attributed). */
  sentences: number;
  judged: number;
  on_topic: number;
  /** Body sentences judged not about the subject, in text order. */
  off_topic: Array<Span & { text: string }>;
  /** Terms of the competing thread(s), most frequent first (what the off-topic sentences are about). */
  other_terms: string[];
  /** Copies beyond the first of every duplicated sentence. */
  duplicate_sentences: number;
  duplicate_share: number;
  duplicates: DuplicateGroup[];
  /** Share of word 4-grams that repeat an earlier one. */
  repeated_4gram_share: number;
  /** 0..1 each: 1 = fully on topic / no repetition. */
  topic_score: number;
  repetition_score: number;
  /** topic_score × repetition_score. */
  coherence: number;
  off_topic_text: boolean;
  repetitive: boolean;
  /** off_topic_text or repetitive: scores built on this text are capped at COHERENCE_SCORE_CAP. */
  capped: boolean;
}

const clamp01 = (x: number): number => Math.min(1, Math.max(0, x));
const r4 = (x: number): number => Math.round(x * 10000) / 10000;

function repetition(reads: Read[], subjectKeys: ReadonlySet<string>) {
  const body = reads.filter((r) => !r.unit.heading);
  const groups = new Map<string, DuplicateGroup>();
  let grams = 0;
  let repeatedGrams = 0;
  const seen = new Set<string>();
  for (const { unit: u, tokens } of body) {
    const words = tokens.filter((t) => t.kind !== 'url').map((t) => t.text.toLowerCase().replace(/[’']/g, ''));
    if (words.length >= DUPLICATE_MIN_WORDS) {
      const norm = words.join(' ');
      const g = groups.get(norm) ?? { text: u.text, count: 0, spans: [] };
      g.count++;
      g.spans.push({ start: u.start, end: u.end });
      groups.set(norm, g);
    }
    const keys = words.map((w) => wordKey(w));
    // Naming the subject again is not repetition: a 4-gram of subject words (and function words) is free.
    const free = words.map((w, i) => STOPWORDS.has(w) || subjectKeys.has(keys[i]));
    for (let i = 0; i + 4 <= keys.length; i++) {
      const gram = `${keys[i]} ${keys[i + 1]} ${keys[i + 2]} ${keys[i + 3]}`;
      grams++;
      if (!seen.has(gram)) seen.add(gram);
      else if (!(free[i] && free[i + 1] && free[i + 2] && free[i + 3])) repeatedGrams++;
    }
  }
  const duplicates = [...groups.values()].filter((g) => g.count > 1);
  const duplicateSentences = duplicates.reduce((n, g) => n + g.count - 1, 0);
  return {
    duplicates,
    duplicateSentences,
    duplicateShare: body.length === 0 ? 0 : duplicateSentences / body.length,
    repeatedShare: grams === 0 ? 0 : repeatedGrams / grams,
  };
}

/**
 * The coherence of a text given as units (documentUnits / plainTextUnits)
 * against `subject` (keywords, topic, brief; empty: the text's own title).
 */
export function measureCoherence(units: CoherenceUnit[], subject: string[] = []): CoherenceResult {
  const tokens = units.map((u) => tokenize(u.text));
  const names = namesOf(units, tokens);
  const reads = units.map((u, i) => readUnit(u, tokens[i], names));
  const t = topicality(reads, subject);
  const r = repetition(reads, t.subjectKeys);
  const topicScore = clamp01((t.topicality - TOPICALITY_ZERO) / (TOPICALITY_FULL - TOPICALITY_ZERO));
  const gramScore = clamp01(1 - (r.repeatedShare - REPEATED_4GRAM_OK) / (REPEATED_4GRAM_CAP - REPEATED_4GRAM_OK));
  // Every copied sentence costs a quarter; a text at the duplicate cap scores at most 0.5.
  const repetitionScore = Math.min(gramScore, clamp01(1 - 0.25 * r.duplicateSentences));
  const offTopic = t.judged > 0 && t.topicality < TOPICALITY_CAP;
  const repetitive =
    r.duplicateSentences >= DUPLICATES_CAP ||
    (r.duplicateSentences > 0 && r.duplicateShare >= DUPLICATE_SHARE_CAP) ||
    r.repeatedShare > REPEATED_4GRAM_CAP;
  return {
    topicality: r4(t.topicality),
    subject_source: t.subjectSource,
    subject: t.subject,
    sentences: t.sentences,
    judged: t.judged,
    on_topic: t.on,
    off_topic: t.off,
    other_terms: t.otherTerms,
    duplicate_sentences: r.duplicateSentences,
    duplicate_share: r4(r.duplicateShare),
    duplicates: r.duplicates,
    repeated_4gram_share: r4(r.repeatedShare),
    topic_score: r4(topicScore),
    repetition_score: r4(repetitionScore),
    coherence: r4(topicScore * repetitionScore),
    off_topic_text: offTopic,
    repetitive,
    capped: offTopic || repetitive,
  };
}

/** Coherence of a plain text (a post, a caption) against an optional subject. */
export function textCoherence(text: string, subject: string[] = []): CoherenceResult {
  return measureCoherence(plainTextUnits(text), subject);
}

/** The units the measure reads (coherence-units.ts): callers build them and measure them from here. */
export { documentUnits, plainTextUnits } from './coherence-units';
export type { CoherenceUnit } from './coherence-units';
