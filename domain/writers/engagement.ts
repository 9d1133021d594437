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

import { tokenize } from '../analysis/words';
import type { CoherenceResult } from '../analysis/coherence';
import { analysisLimits } from './platforms';
import {
  clamp01,
  ENGAGEMENT_CAP,
  ENGAGEMENT_MODEL_VERSION,
  EngagementInput,
  EngagementPrediction,
  EngagementResult,
  FACTOR_WEIGHTS,
  FactorName,
  FactorResult,
  HISTORY_BLEND,
  r1,
  r3,
  REFERENCE_RATE,
} from './engagement-model';
import { coherenceOf, emotionalEngagement, factorScores, prose } from './engagement-factors';
import { capNotice, EXPLAIN, SUGGEST } from './engagement-explanations';

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
