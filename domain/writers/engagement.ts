/**
 * The engagement model (docs/writers.md "Engagement model"): a documented,
 * deterministic score of a text for a platform, with each factor's
 * contribution. Not trained on anyone's data; the weights and bands are
 * stated here and in the docs, so a client can see why a text scores as it
 * does and what would move it.
 *
 *   overall_score = 50 + Σ contribution            (0–100)
 *   contribution_i = (1 − β) · weight_i · (score_i − 0.5)     score_i ∈ [0, 1], Σ weight_i = 100
 *   historical contribution = β · (h − 50),  h = clamp(50 · rate / reference_rate, 0, 100)
 *   β = 0.3 when historical_performance.similar_content_avg_engagement is given, else 0
 *   off-topic or repetitive text: overall_score = min(overall_score, 50)
 *
 * A factor at 0.5 is neutral; better than that adds points, worse takes
 * them away. The probabilities are derived from overall_score with the
 * factors that drive each action (questions and CTA drive comments, ...).
 *
 * relevance and repetition come from the coherence measure
 * (domain/analysis/coherence.ts): the share of sentences about the topic
 * (the request's topic or brief, else the text's own first line) and the
 * text's repeated sentences and wording. An off-topic or repetitive text is
 * capped at 50 overall; the points the cap removes are booked on the factor
 * that caused it, so the contributions still add up to the score.
 */
import { countText, fleschReadingEase } from '../analysis/readability';
import { splitSentences } from '../analysis/sentences';
import { tokenize } from '../analysis/words';
import { wordKey } from '../analysis/word-forms';
import { STOPWORDS } from '../analysis/stopwords';
import {
  COHERENCE_SCORE_CAP,
  CoherenceResult,
  documentUnits,
  measureCoherence,
  plainTextUnits,
  REPEATED_4GRAM_CAP,
  TOPICALITY_CAP,
} from '../analysis/coherence';
import { buildDocument } from '../analysis/text';
import { AnalysisPlatform, analysisLimits, FormatLimits } from './platforms';
import { charCount, emojiIn, hashtagsIn } from './text-limits';
import { EMOTION_WORDS } from './emotion';
import type { WriterKind } from './types';

export const ENGAGEMENT_MODEL_VERSION = 'engagement-v2';

export type FactorName =
  | 'readability'
  | 'hook'
  | 'questions'
  | 'cta_strength'
  | 'emoji'
  | 'hashtags'
  | 'length'
  | 'posting_context'
  | 'relevance'
  | 'repetition';

/** Points each factor can move the score (±weight/2); they sum to 100. */
export const FACTOR_WEIGHTS: Record<FactorName, number> = {
  readability: 15,
  hook: 15,
  questions: 5,
  cta_strength: 10,
  emoji: 5,
  hashtags: 5,
  length: 15,
  posting_context: 10,
  relevance: 15,
  repetition: 5,
};

/** An off-topic or repetitive text scores at most this overall. */
export const ENGAGEMENT_CAP = COHERENCE_SCORE_CAP;

/** Share of the score taken from historical performance when it is given. */
export const HISTORY_BLEND = 0.3;

/** Engagement rate (percent) at which historical performance is neutral (h = 50): model parameters, not benchmarks. */
export const REFERENCE_RATE: Record<AnalysisPlatform, number> = {
  profnet: 2,
  socialnet: 1,
  photonet: 1.5,
  microblog: 0.5,
  videonet: 2,
};

export interface EngagementInput {
  content: string;
  platform: AnalysisPlatform;
  /** Writer format whose band applies (default: a feed post). */
  kind?: WriterKind;
  /** audience_demographics.interests */
  interests?: string[];
  /** historical_performance.similar_content_avg_engagement: average engagement rate of similar content, percent. */
  historicalRate?: number;
  /** What the text is meant to be about (the request's topic or brief); else its own first line or title. */
  topic?: string;
}

export interface FactorResult {
  factor: FactorName | 'historical_performance';
  /** What was measured, in the factor's unit (see `explanation`). */
  measured: number;
  /** 0–1; 1 is the best the factor allows. For historical_performance: h / 100. */
  score: number;
  /** Points of the factor (historical_performance: its blend share, 0.3). */
  weight: number;
  /** Points added to (or, negative, taken from) the neutral 50. */
  contribution: number;
  explanation: string;
}

export interface EngagementPrediction {
  overall_score: number;
  like_probability: number;
  comment_probability: number;
  share_probability: number;
  save_probability: number;
}

export interface EngagementResult {
  model: string;
  platform: AnalysisPlatform;
  engagement_prediction: EngagementPrediction;
  factors: FactorResult[];
  content_improvements: { readability_score: number; emotional_engagement: number; call_to_action_strength: number };
  optimization_suggestions: string[];
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
const r1 = (x: number) => Math.round(x * 10) / 10;
const r3 = (x: number) => Math.round(x * 1000) / 1000;

/** The prose of a post: hashtags and emoji removed (they are scored on their own). */
const prose = (s: string) =>
  s
    .replace(/(^|\s)#[\p{L}\p{N}_]+/gu, ' ')
    .replace(/\p{Extended_Pictographic}|\uFE0F|\u200D/gu, ' ')
    .replace(/[ \t]+/g, ' ');

function sentencesOf(text: string): string[] {
  return text
    .split('\n')
    .flatMap((line) => splitSentences(line).map((sp) => line.slice(sp.start, sp.end).trim()))
    .filter((s) => /[\p{L}\p{N}]/u.test(s));
}

export function readingEase(text: string): number {
  const sentences = sentencesOf(prose(text)).map((s) => ({ tokens: tokenize(s) }));
  const c = countText(sentences);
  return c.words ? fleschReadingEase(c) : 0;
}

const band = (n: number, [lo, hi]: [number, number], below: number, above: number) =>
  n < lo ? clamp01(1 - below * (lo - n)) : n > hi ? clamp01(1 - above * (n - hi)) : 1;

const CTA_VERBS =
  /^(?:[^\p{L}]*)(comment|share|follow|join|register|sign up|subscribe|download|read|save|tag|tell|reply|visit|book|try|start|get|grab|click|tap|message|dm|learn|discover|watch|listen|reserve|apply|contact|call|shop|buy|order|claim|explore|check|drop|let us know|let me know|rsvp|see|send)\b/iu;
const CTA_ANYWHERE =
  /\b(comment|share|follow|join|register|sign up|subscribe|download|save|tag|reply|visit|book|rsvp|message|dm|learn more|shop|order)\b/i;
const CTA_TARGET =
  /\b(comments?|below|link|bio|dm|inbox|today|now|this week|tonight|free|spot|seat|register|sign up|profile|page)\b/i;
const YOU = /\b(you|your|you're|yours)\b/i;

/** 0–1: is there an explicit, concrete call to action near the end? */
export function ctaScore(text: string): number {
  const last = sentencesOf(prose(text)).slice(-3);
  let best = 0;
  for (const s of last) {
    let v = CTA_VERBS.test(s) ? 0.6 : CTA_ANYWHERE.test(s) ? 0.3 : 0;
    if (v > 0 && CTA_TARGET.test(s)) v += 0.2;
    if (v > 0 && YOU.test(s)) v += 0.2;
    best = Math.max(best, v);
  }
  return clamp01(best);
}

/** 0–1: a first line that is short, creates curiosity, speaks to the reader and stands on its own line. */
export function hookScore(text: string): number {
  const lines = text.trim().split('\n');
  const firstLine = prose(lines[0] ?? '').trim();
  const first = sentencesOf(firstLine)[0] ?? firstLine;
  const words = tokenize(first).filter((t) => t.kind !== 'url').length;
  if (words === 0) return 0;
  const brevity = words <= 12 ? 1 : words >= 30 ? 0 : (30 - words) / 18;
  const curiosity = /\?|\d/.test(first) ? 1 : 0;
  const address = YOU.test(first) ? 1 : 0;
  const standalone = lines.length > 1 && sentencesOf(firstLine).length <= 2 ? 1 : 0;
  return clamp01(0.4 * brevity + 0.25 * curiosity + 0.2 * address + 0.15 * standalone);
}

const contentKeysOf = (s: string) =>
  new Set(
    tokenize(s)
      .filter((t) => t.kind === 'word' && !STOPWORDS.has(t.text.toLowerCase()))
      .map((t) => wordKey(t.text)),
  );

/** 0–100: density of emotion words, exclamation and direct address. */
export function emotionalEngagement(text: string): number {
  const words = tokenize(prose(text)).filter((t) => t.kind === 'word');
  if (!words.length) return 0;
  const emotional = words.filter((w) => EMOTION_WORDS.has(w.text.toLowerCase())).length;
  const density = Math.min(1, emotional / words.length / 0.08);
  return r1(100 * clamp01(0.6 * density + 0.2 * (/!/.test(text) ? 1 : 0) + 0.2 * (YOU.test(text) ? 1 : 0)));
}

/**
 * The coherence of a post: its prose (hashtags and emoji removed) against the
 * topic. A text with Markdown headings (an article) is read as Markdown, any
 * other text line by line.
 */
export function coherenceOf(content: string, topic?: string): CoherenceResult {
  const text = prose(content.trim());
  const units = /^#{1,6}[ \t]+\S/m.test(text) ? documentUnits(buildDocument(text)) : plainTextUnits(text);
  return measureCoherence(units, topic?.trim() ? [topic] : []);
}

/** The factor scores of a text (0–1 each) and what was measured. */
export function factorScores(
  input: EngagementInput,
  limits: FormatLimits = analysisLimits(input.platform, input.kind),
  coherence: CoherenceResult = coherenceOf(input.content, input.topic),
): Record<FactorName, { score: number; measured: number }> {
  const text = input.content.trim();
  const fre = readingEase(text);
  const questions = sentencesOf(prose(text)).filter((s) => /\?["”’)]*$/.test(s)).length;
  const emoji = emojiIn(text).length;
  const tags = hashtagsIn(text).length;
  const chars = charCount(text);
  const interests = (input.interests ?? []).map((i) => i.trim()).filter(Boolean);
  const keys = contentKeysOf(text);
  const covered = interests.filter((i) => [...contentKeysOf(i)].some((k) => keys.has(k))).length;
  return {
    readability: {
      measured: r1(fre),
      score: r3(fre < 60 ? clamp01((fre - 10) / 50) : fre <= 80 ? 1 : Math.max(0.7, 1 - (fre - 80) * 0.015)),
    },
    hook: { measured: r3(hookScore(text)), score: r3(hookScore(text)) },
    questions: {
      measured: questions,
      score: questions === 0 ? 0.2 : questions === 1 ? 1 : questions === 2 ? 0.85 : 0.6,
    },
    cta_strength: { measured: r3(ctaScore(text)), score: r3(ctaScore(text)) },
    emoji: { measured: emoji, score: r3(band(emoji, limits.optimal_emoji, 0.3, 0.2)) },
    hashtags: { measured: tags, score: r3(band(tags, limits.optimal_hashtags, 0.35, 0.15)) },
    length: {
      measured: chars,
      score: r3(
        chars < limits.optimal_characters[0]
          ? chars / limits.optimal_characters[0]
          : chars > limits.optimal_characters[1]
            ? clamp01(1 - (chars - limits.optimal_characters[1]) / limits.optimal_characters[1])
            : 1,
      ),
    },
    posting_context: {
      measured: interests.length ? r3(covered / interests.length) : 0,
      score: interests.length ? r3(covered / interests.length) : 0.5,
    },
    relevance: { measured: r3(coherence.topicality), score: r3(coherence.topic_score) },
    repetition: { measured: r3(coherence.repeated_4gram_share), score: r3(coherence.repetition_score) },
  };
}

/**
 * overall_score from factor scores (0–1) and an optional historical score h (0–100):
 * 50 + Σ (1 − β)·w·(s − 0.5) + β·(h − 50). Strictly increasing in every score.
 */
export function blend(
  scores: Record<FactorName, number>,
  historical?: number,
): { overall: number; parts: Record<string, number> } {
  const beta = historical === undefined ? 0 : HISTORY_BLEND;
  const parts: Record<string, number> = {};
  for (const f of Object.keys(FACTOR_WEIGHTS) as FactorName[])
    parts[f] = (1 - beta) * FACTOR_WEIGHTS[f] * (scores[f] - 0.5);
  if (historical !== undefined) parts.historical_performance = beta * (historical - 50);
  const overall = 50 + Object.values(parts).reduce((a, b) => a + b, 0);
  return { overall: Math.min(100, Math.max(0, overall)), parts };
}

/** The probabilities of each action, from the overall score and the factors that drive that action. */
export function predictions(overall: number, s: Record<FactorName, number>, words: number): EngagementPrediction {
  const p = overall / 100;
  const depth = Math.min(1, words / 150);
  return {
    overall_score: r1(overall),
    like_probability: r3(clamp01(0.1 + 0.8 * p)),
    comment_probability: r3(clamp01(p * (0.35 + 0.65 * ((s.questions + s.cta_strength) / 2)))),
    share_probability: r3(clamp01(p * (0.3 + 0.35 * s.readability + 0.35 * s.hook))),
    save_probability: r3(clamp01(p * (0.3 + 0.4 * depth + 0.3 * s.readability))),
  };
}

const EXPLAIN: Record<FactorName, (m: number, l: FormatLimits) => string> = {
  readability: (m) => `Flesch reading ease ${m}; 60–80 scores best`,
  hook: (m) => `first-line hook ${m} (short, curious, speaks to the reader, on its own line)`,
  questions: (m) => `${m} question(s); one scores best`,
  cta_strength: (m) => `call to action ${m} (an imperative near the end, a concrete target, "you")`,
  emoji: (m, l) => `${m} emoji; ${l.optimal_emoji[0]}–${l.optimal_emoji[1]} scores best`,
  hashtags: (m, l) => `${m} hashtag(s); ${l.optimal_hashtags[0]}–${l.optimal_hashtags[1]} scores best`,
  length: (m, l) => `${m} characters; ${l.optimal_characters[0]}–${l.optimal_characters[1]} scores best`,
  posting_context: (m) => `share ${m} of the audience's interests the text mentions (0.5 neutral when none given)`,
  relevance: (m) =>
    `share ${m} of the judged sentences are about the topic; 0.8 or more scores best, below ${TOPICALITY_CAP} the score is capped at ${ENGAGEMENT_CAP}`,
  repetition: (m) =>
    `share ${m} of the word sequences repeat earlier wording; a repeated sentence costs 0.25, above ${REPEATED_4GRAM_CAP} or with repeated sentences the score is capped at ${ENGAGEMENT_CAP}`,
};

const SUGGEST: Record<FactorName, (m: number, l: FormatLimits) => string> = {
  readability: (m) =>
    m < 60
      ? `Use shorter sentences and plainer words: reading ease is ${m}, aim for 60–80.`
      : `Add a little substance: reading ease ${m} reads as oversimplified; 60–80 scores best.`,
  hook: () =>
    'Open with a short first line of its own (under 12 words) that asks a question, names a number or speaks to "you".',
  questions: (m) =>
    m === 0 ? 'Ask the audience one question to invite comments.' : `Keep one question: ${m} dilute the ask.`,
  cta_strength: () =>
    'End with an explicit call to action: an imperative verb, where to act ("in the comments", "register today") and "you".',
  emoji: (m, l) =>
    m < l.optimal_emoji[0]
      ? `Add ${l.optimal_emoji[0] - m} emoji: ${l.optimal_emoji[0]}–${l.optimal_emoji[1]} do best here.`
      : `Remove ${m - l.optimal_emoji[1]} emoji: more than ${l.optimal_emoji[1]} reads as noise here.`,
  hashtags: (m, l) =>
    m < l.optimal_hashtags[0]
      ? `Add ${l.optimal_hashtags[0] - m} relevant hashtag(s): ${l.optimal_hashtags[0]}–${l.optimal_hashtags[1]} do best here.`
      : `Remove ${m - l.optimal_hashtags[1]} hashtag(s): ${l.optimal_hashtags[0]}–${l.optimal_hashtags[1]} do best here.`,
  length: (m, l) =>
    m < l.optimal_characters[0]
      ? `Add detail: ${m} characters is short; ${l.optimal_characters[0]}–${l.optimal_characters[1]} performs best here.`
      : `Tighten the text: ${m} characters is long; ${l.optimal_characters[0]}–${l.optimal_characters[1]} performs best here.`,
  posting_context: () => "Mention the audience's interests in the text so the post reads as written for them.",
  relevance: (m) =>
    `Stay on the topic: only ${Math.round(m * 100)}% of the sentences are about it; cut or rewrite the ones about other subjects.`,
  repetition: () => 'Say each thing once: delete repeated sentences and vary wording that recurs.',
};

export function analyzeEngagement(input: EngagementInput): EngagementResult {
  const limits = analysisLimits(input.platform, input.kind);
  const coherence = coherenceOf(input.content, input.topic);
  const measured = factorScores(input, limits, coherence);
  const scores = Object.fromEntries(Object.entries(measured).map(([k, v]) => [k, v.score])) as Record<
    FactorName,
    number
  >;
  const h =
    input.historicalRate === undefined
      ? undefined
      : Math.min(100, Math.max(0, (50 * input.historicalRate) / REFERENCE_RATE[input.platform]));
  const blended = blend(scores, h);
  const { overall, parts } = capped(blended, coherence);
  const factors: FactorResult[] = (Object.keys(FACTOR_WEIGHTS) as FactorName[]).map((f) => ({
    factor: f,
    measured: measured[f].measured,
    score: scores[f],
    weight: FACTOR_WEIGHTS[f],
    contribution: r3(parts[f]),
    explanation:
      EXPLAIN[f](measured[f].measured, limits) +
      (parts[f] !== blended.parts[f]
        ? `; includes −${r1(blended.parts[f] - parts[f])} points of the cap at ${ENGAGEMENT_CAP}`
        : ''),
  }));
  if (h !== undefined)
    factors.push({
      factor: 'historical_performance',
      measured: input.historicalRate!,
      score: r3(h / 100),
      weight: HISTORY_BLEND,
      contribution: r3(parts.historical_performance),
      explanation: `similar content averaged ${input.historicalRate}% engagement; ${REFERENCE_RATE[input.platform]}% is neutral on ${input.platform}`,
    });
  const words = tokenize(prose(input.content)).filter((t) => t.kind === 'word').length;
  // The cap's own suggestion replaces the factor suggestions of its causes.
  const notice = capNotice(blended.overall, coherence);
  const suggestions = (Object.keys(FACTOR_WEIGHTS) as FactorName[])
    .filter((f) => scores[f] < 0.75 && !(f === 'posting_context' && !(input.interests ?? []).length))
    .filter(
      (f) =>
        !(
          notice.length &&
          ((f === 'relevance' && coherence.off_topic_text) || (f === 'repetition' && coherence.repetitive))
        ),
    )
    .sort((a, b) => FACTOR_WEIGHTS[b] * (1 - scores[b]) - FACTOR_WEIGHTS[a] * (1 - scores[a]) || a.localeCompare(b))
    .slice(0, 5)
    .map((f) => SUGGEST[f](measured[f].measured, limits));
  return {
    model: ENGAGEMENT_MODEL_VERSION,
    platform: input.platform,
    engagement_prediction: predictions(overall, scores, words),
    factors,
    content_improvements: {
      readability_score: r1(Math.min(100, Math.max(0, measured.readability.measured))),
      emotional_engagement: emotionalEngagement(input.content),
      call_to_action_strength: r1(100 * scores.cta_strength),
    },
    optimization_suggestions: [...notice, ...suggestions].slice(0, 5),
  };
}

/**
 * The cap of an off-topic or repetitive text: overall at most ENGAGEMENT_CAP,
 * the points removed booked on relevance (off topic) or else repetition.
 */
export function capped(
  b: { overall: number; parts: Record<string, number> },
  c: Pick<CoherenceResult, 'capped' | 'off_topic_text'>,
): { overall: number; parts: Record<string, number> } {
  if (!c.capped || b.overall <= ENGAGEMENT_CAP) return b;
  const cause: FactorName = c.off_topic_text ? 'relevance' : 'repetition';
  return {
    overall: ENGAGEMENT_CAP,
    parts: { ...b.parts, [cause]: b.parts[cause] - (b.overall - ENGAGEMENT_CAP) },
  };
}

/** The suggestion that says why the score was capped and what lifts the cap (first in the list). */
function capNotice(overall: number, c: CoherenceResult): string[] {
  if (!c.capped || overall <= ENGAGEMENT_CAP) return [];
  const out: string[] = [];
  if (c.off_topic_text) {
    const others = c.other_terms.slice(0, 3).join(', ');
    out.push(
      `Capped at ${ENGAGEMENT_CAP}: only ${Math.round(c.topicality * 100)}% of the sentences are about "${c.subject}"${others ? ` (the rest is about ${others})` : ''}. Cut or rewrite them; the cap lifts at ${Math.round(TOPICALITY_CAP * 100)}%.`,
    );
  }
  if (c.repetitive) {
    out.push(
      `Capped at ${ENGAGEMENT_CAP}: ${c.duplicate_sentences ? `${c.duplicate_sentences} sentence(s) repeat an earlier one` : `${Math.round(c.repeated_4gram_share * 100)}% of the wording repeats`}. Say each thing once.`,
    );
  }
  return out;
}
