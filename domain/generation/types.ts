/**
 * Inputs and outputs of the offline writer (`local` provider).
 *
 * Field names follow the callers: the blog workflows pass camelCase for the
 * medium generator (keyPoints, targetWords) and the outline/research shapes
 * of the spec are snake_case, so results can travel to clients unchanged.
 */
import type { Source } from '../analysis/types';
import type { Coverage } from './compose';

export type { Source };

export interface WriteSectionInput {
  heading: string;
  keyPoints?: string[];
  subheadings?: string[];
  keywords?: string[];
  /** Words of body text wanted (headings excluded): an upper bound (+10 %); the writer adds nothing to reach it. */
  targetWords: number;
  /** Research sources; `[n]` citations use `index` when present, else position + 1. */
  sources?: Source[];
  tone?: string;
  audience?: string;
  /** Topic of the whole article (lets a section mention it); defaults to the heading. */
  topic?: string;
  /** Force a bulleted list of the key points (otherwise decided from the heading). */
  list?: boolean;
  /**
   * What a source sentence must be about to be quoted (default: the heading, topic and keywords). A drafted
   * outline's template heading ("… What Local Readers Should Know") would otherwise make its own words relevant.
   */
  subject?: string;
  /** Free-form instructions of the request (compose.ts carries out the ones a rule can). */
  instructions?: string;
  /** A call to action to close with: its text, or `true` for one made from the topic. */
  cta?: string | boolean;
}

export interface SectionDraft {
  heading: string;
  /** Markdown body of the section, without its own `##` heading. */
  markdown: string;
  /** Body words as the project's counter counts them (domain/analysis countWords). */
  wordCount: number;
  /** Sources actually cited, each with `index` = the n of its `[n]` markers. */
  citations: Source[];
  /** How the brief was met, and why the text is shorter than asked when it is. */
  coverage: Coverage;
}

export interface ArticleSectionInput {
  id?: string;
  heading: string;
  keyPoints?: string[];
  subheadings?: string[];
  keywords?: string[];
  /** Relative share of the article; sections without one weigh equally. */
  targetWords?: number;
}

export interface WriteArticleInput {
  topic: string;
  title?: string;
  keywords?: string[];
  /** The outline to write; drafted from topic, keywords and sources when absent. */
  sections?: ArticleSectionInput[];
  sources?: Source[];
  tone?: string;
  audience?: string;
  /** Words of the article body, References list excluded: an upper bound (+10 %); nothing is added to reach it. */
  targetWords: number;
  /** Free-form instructions (compose.ts carries out the ones a rule can). */
  instructions?: string;
  /** A call to action to close with: its text, or `true` for one made from the topic. */
  cta?: string | boolean;
  /** The kind of post (`how-to-guide`, `listicle`, ...): a list-like kind gets a numbered list of items. */
  content_type?: string;
}

export interface ArticleDraft {
  title: string;
  /** Full Markdown: `# title`, sections as `##`, then `## References` with the cited sources. */
  markdown: string;
  /** Body words without the References list (see articleWordCount). */
  wordCount: number;
  sections: Array<SectionDraft & { id: string }>;
  /** Every cited source, ordered by its number. */
  references: Source[];
  coverage: Coverage;
}

export interface DraftOutlineInput {
  topic: string;
  keywords?: string[];
  sources?: Source[];
  /** Total words the article will have; spread over the sections. */
  wordCount: number;
  audience?: string;
  tone?: string;
}

export interface DraftOutlineSection {
  id: string;
  heading: string;
  subheadings: string[];
  key_points: string[];
  references: Source[];
  target_words: number;
  keywords: string[];
}

export interface DraftOutline {
  title_options: string[];
  outline: DraftOutlineSection[];
}

export interface ResearchSummaryInput {
  topic: string;
  keywords?: string[];
  industry?: string;
  audience?: string;
  sources: Source[];
  /** The queries the research step sent to a web-search vendor to find `sources` (none: no web search ran). */
  web_search_queries?: string[];
}

export interface ResearchSummary {
  keyword_analysis: { primary_keywords: string[]; secondary_keywords: string[]; search_volume: string };
  competitor_analysis: {
    top_competitors: string[];
    content_gaps: string[];
    opportunities: string[];
    /** Extra: why top_competitors is empty (every source is a sample document, not a published page). */
    note?: string;
  };
  suggested_angles: string[];
  search_queries: string[];
  grounding_metadata: {
    grounding_chunks: Array<{ title: string; url: string; confidence_score: number }>;
    web_search_queries: string[];
  };
}
