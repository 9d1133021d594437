/**
 * Shapes of the SEO analysis (POST /api/blog/seo/analyze body minus the
 * envelope). `findings` and `readability_details` are documented extras.
 */
import { ReadabilityScores, TextCounts } from './readability';
import { ResearchData, Span } from './types';

export type AssessmentId =
  | 'keyword_density'
  | 'keyword_placement'
  | 'heading_structure'
  | 'subheading_distribution'
  | 'paragraph_length'
  | 'sentence_length'
  | 'passive_voice'
  | 'transition_words'
  | 'consecutive_sentences'
  | 'text_length'
  | 'readability'
  | 'links'
  | 'image_alt'
  | 'list_usage'
  | 'coherence';

export interface Finding extends Span {
  assessment: AssessmentId;
  severity: 'problem' | 'improvement';
  message: string;
  recommendation: string;
}

/** One scored check: `score` 0..1; not `applicable` checks are left out of seo_score. */
export interface Assessment {
  id: AssessmentId;
  score: number;
  applicable: boolean;
  findings: Finding[];
}

export interface SeoAnalyzeInput {
  content: string;
  blog_title?: string;
  keywords?: string[];
  research_data?: ResearchData;
}

export interface SeoAnalyzeOptions {
  /** The site's own URL; links to its host count as internal. */
  site_url?: string;
}

export interface HeadingInfo extends Span {
  level: number;
  text: string;
}

export interface SeoAnalysisResult {
  seo_score: number;
  density: { primary_keywords: Record<string, number>; secondary_keywords: Record<string, number> };
  structure: {
    heading_hierarchy: {
      is_valid: boolean;
      headings: HeadingInfo[];
      skipped_levels: Array<Span & { from: number; to: number; heading: string }>;
      multiple_h1: boolean;
    };
    heading_distribution: { h1: number; h2: number; h3: number };
    paragraph_length: { paragraphs: number; average_words: number; max_words: number; over_limit: number };
    list_usage: { lists: number; list_items: number; has_lists: boolean };
  };
  readability: { flesch_reading_ease: number; flesch_kincaid_grade: number; gunning_fog: number; coleman_liau: number };
  link_suggestions: Array<{ text: string; suggested_url: string; context: string } & Span>;
  image_alt_status: {
    images_with_alt: number;
    images_without_alt: number;
    alt_text_quality: 'good' | 'fair' | 'poor' | 'no_images';
  };
  recommendations: string[];
  /** Extra: every problem found, with offsets into `content`. */
  findings: Finding[];
  /** Extra: all readability formulas, the raw counts and the text statistics. */
  readability_details: ReadabilityScores & {
    counts: TextCounts;
    reading_time_minutes: number;
    sentence_length: { average_words: number; over_20_words_share: number };
    passive_voice_share: number;
    transition_word_share: number;
  };
  /** Extra: per-assessment scores 0-100 and the weights used. */
  assessments: Array<{ id: AssessmentId; score: number; weight: number; applicable: boolean }>;
  /** Extra: what the coherence assessment measured, and whether seo_score was capped (docs/analysis.md "Coherence"). */
  coherence: CoherenceDetails;
}

export interface CoherenceDetails {
  /** The subject sentences were judged against, and where it came from (keywords/blog_title, or the text's title). */
  subject: string;
  subject_source: 'given' | 'text';
  /** Share 0..1 of judged body sentences about the subject. */
  topicality: number;
  sentences: number;
  judged_sentences: number;
  off_topic_sentences: number;
  /** Terms of the other subjects the off-topic sentences are about, most frequent first (at most 10). */
  other_terms: string[];
  duplicate_sentences: number;
  repeated_4gram_share: number;
  /** The coherence assessment's score 0-100 (topic part × repetition part). */
  score: number;
  /** seo_score was capped (at `cap`) because the text is off-topic or repetitive; `cap_reasons` say why. */
  capped: boolean;
  cap: number | null;
  cap_reasons: Array<'off_topic' | 'repetitive'>;
  /** seo_score before the cap. */
  uncapped_score: number;
}
