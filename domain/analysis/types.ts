/**
 * Shared shapes of the analysis domain. Field names follow the API
 * specification (snake_case) because these objects travel to clients as-is.
 */

/** Character offsets into the original input string, end exclusive. */
export interface Span {
  start: number;
  end: number;
}

/** A research source as the blog writer passes it around (spec: Source). */
export interface Source {
  title: string;
  url: string;
  excerpt: string;
  credibility_score?: number;
  published_at?: string;
  index?: number;
  source_type?: string;
}

export interface KeywordAnalysis {
  primary_keywords?: string[];
  secondary_keywords?: string[];
  search_volume?: string;
}

export interface CompetitorAnalysis {
  top_competitors?: unknown[];
  content_gaps?: unknown[];
  opportunities?: unknown[];
}

/** The subset of the research result the SEO routes read. */
export interface ResearchData {
  sources?: Source[];
  keyword_analysis?: KeywordAnalysis;
  competitor_analysis?: CompetitorAnalysis;
}

/** Outline section (spec: Outline section). All but id and heading optional on input. */
export interface OutlineSection {
  id: string;
  heading: string;
  subheadings?: string[];
  key_points?: string[];
  references?: Source[];
  target_words?: number;
  keywords?: string[];
}
