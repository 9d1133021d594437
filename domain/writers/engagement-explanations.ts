/**
 * The words of the engagement model (domain/writers/engagement.ts): each factor's explanation, the suggestion that
 * would raise a weak factor, and the notice of a capped score.
 */
import { CoherenceResult, REPEATED_4GRAM_CAP, TOPICALITY_CAP } from '../analysis/coherence';
import type { FormatLimits } from './platforms';
import { ENGAGEMENT_CAP, FactorName } from './engagement-model';

export const EXPLAIN: Record<FactorName, (m: number, l: FormatLimits) => string> = {
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

export const SUGGEST: Record<FactorName, (m: number, l: FormatLimits) => string> = {
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

/** The suggestion that says why the score was capped and what lifts the cap (first in the list). */
export function capNotice(overall: number, c: CoherenceResult): string[] {
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
