/**
 * The engagement model's parameters (domain/writers/engagement.ts; docs/writers.md "Engagement model"): its version,
 * the factors and their weights, the cap, the history blend and the reference rates; the shapes of its input and
 * result, and the rounding of its figures.
 */
import { COHERENCE_SCORE_CAP } from '../analysis/coherence';
import type { AnalysisPlatform } from './platforms';
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

export const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
export const r1 = (x: number) => Math.round(x * 10) / 10;
export const r3 = (x: number) => Math.round(x * 1000) / 1000;
