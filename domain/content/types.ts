/**
 * Requests and results of content generation (Document 1, general family
 * and developer API). Request field names are the spec's; the workflows get
 * them validated, with defaults applied, and the caller's identity beside
 * them (never inside).
 */
import type { Coverage } from '../generation/compose';
import type { Source } from '../analysis/types';

export type { Source };

/** Words of each `length` value (the spec's `medium`, `long`, `long_form`, and `short`): our choice. */
export const LENGTH_WORDS: Record<string, number> = { short: 500, medium: 1000, long: 1800, long_form: 2500 };
export const LENGTHS = Object.keys(LENGTH_WORDS);
export const DEFAULT_WORDS = LENGTH_WORDS.medium;

export interface BlogWriterRequest {
  topic: string;
  target_audience?: string;
  content_type: string;
  word_count?: number;
  tone: string;
  /** Integration-route field (Document 1, "Alternative paths"). */
  keywords: string[];
  /** Integration-route field: `short`, `medium`, `long`, `long_form`; word_count wins when both are given. */
  length?: string;
}

/** Words a blog request asks for: word_count, else its length, else medium. */
export const wordsWanted = (r: Pick<BlogWriterRequest, 'word_count' | 'length'>): number =>
  r.word_count ?? LENGTH_WORDS[r.length ?? ''] ?? DEFAULT_WORDS;

/**
 * A research summary with the searches that really ran: `grounding_metadata.web_search_queries` lists the queries
 * sent to the web-search vendor (none without one), whatever the writer answered; suggested queries stay in
 * `search_queries`.
 */
export function searchedAs<T extends Record<string, unknown>>(summary: T, webSearchQueries: string[]): T {
  const grounding = (summary.grounding_metadata ?? {}) as { grounding_chunks?: unknown };
  return {
    ...summary,
    grounding_metadata: { grounding_chunks: grounding.grounding_chunks ?? [], web_search_queries: webSearchQueries },
  };
}

/** Research depth: how many sources are read (our choice). */
export const RESEARCH_DEPTHS: Record<string, number> = { basic: 4, standard: 8, comprehensive: 12 };
/** Source kinds a research request may ask for; each maps to the corpus documents' source_type (and web search). */
export const SOURCE_KINDS = ['web', 'academic', 'industry', 'government'] as const;

export interface BlogResearchRequest {
  topic: string;
  research_depth: string;
  sources: string[];
}

export interface ProfnetRequest {
  content_type: string;
  topic: string;
  tone: string;
  include_hashtags: boolean;
  target_audience?: string;
  /** Integration-route field: hashtags the post must carry. */
  hashtags: string[];
}

export interface StrategyRequest {
  business_type: string;
  target_audience?: string;
  goals: string[];
  content_types: string[];
}

export interface PersonasRequest {
  business_niche: string;
  target_demographics: { age_range?: string; profession?: string; pain_points: string[] };
}

export interface KeywordResearchRequest {
  seed_keywords: string[];
  language: string;
  location?: string;
  competition_level?: string;
}

/** POST /v1/content/generate. */
export interface GenerateRequest {
  type: 'blog_post' | 'social_media';
  topic: string;
  key_points: string[];
  tone: string;
  length: string;
  seo_optimized: boolean;
  platform?: string;
  include_hashtags: boolean;
  include_cta: boolean;
  include_research: boolean;
}

/** POST /v1/content/generate/batch. */
export interface BatchRequest {
  type: 'blog_post' | 'social_media';
  topics: string[];
  tone: string;
  length: string;
  seo_optimized: boolean;
  platform?: string;
  include_hashtags: boolean;
  include_cta: boolean;
}

/** What the analysis engine measured on a generated text (the spec's metadata fields and where they come from). */
export interface ContentScores {
  word_count: number;
  /** Flesch reading ease clamped to 0–100. */
  readability_score: number;
  /** SEO score 0–100 of domain/analysis for the keywords. */
  seo_score: number;
}

/** Which provider wrote a text: what the gateway reported. */
export interface Provenance {
  provider: string;
  model: string;
  offline: boolean;
  /** The offline writer's account of how it met the brief (domain/generation/compose.ts). */
  coverage?: Coverage;
}
