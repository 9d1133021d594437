/**
 * What the engagement model measures in a text (domain/writers/engagement.ts): each factor's score (0–1) and what
 * was measured — reading ease, hook, questions, call to action, emoji, hashtags, length, the audience's interests,
 * and the coherence measure's relevance and repetition — and the emotional engagement it reports beside them.
 */
import { countText, fleschReadingEase } from '../analysis/readability';
import { splitSentences } from '../analysis/sentences';
import { tokenize } from '../analysis/words';
import { wordKey } from '../analysis/word-forms';
import { STOPWORDS } from '../analysis/stopwords';
import { CoherenceResult, documentUnits, measureCoherence, plainTextUnits } from '../analysis/coherence';
import { buildDocument } from '../analysis/text';
import { analysisLimits, FormatLimits } from './platforms';
import { charCount, emojiIn, hashtagsIn } from './text-limits';
import { EMOTION_WORDS } from './emotion';
import { clamp01, EngagementInput, FactorName, r1, r3 } from './engagement-model';

/** The prose of a post: hashtags and emoji removed (they are scored on their own). */
export const prose = (s: string) =>
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
