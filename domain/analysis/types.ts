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
  /**
   * 0–1 when someone claims a credibility for the source (a web result's domain heuristic, a corpus document whose
   * front matter gives one); null when none is claimed (the sample corpus: docs/providers.md "Research sources").
   */
  credibility_score?: number | null;
  published_at?: string;
  index?: number;
  /** `web`, `academic`, `industry`, `government`, or `sample` (a sample document written for this project). */
  source_type?: string;
  /** For `source_type: "sample"`: the kind of source the sample is written as (it is not one). */
  sample_of?: string;
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
