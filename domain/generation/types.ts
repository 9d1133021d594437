/**
 * Inputs and outputs of the offline writer (`local` provider).
 *
 * Field names follow the callers: the blog workflows pass camelCase for the
 * medium generator (keyPoints, targetWords) and the outline/research shapes
 * of the spec are snake_case, so results can travel to clients unchanged.
 */
import type { OutlineSection as OutlineSectionInput, Source } from '../analysis/types';
import type { FollowUpInput, GenerateEmailInput, PersonalizeInput, Tone } from '../outreach/writer';
import type { WriterBrief } from '../writers/types';
import type { PlatformPostInput } from './platform-post';
import type { ContentStrategyInput } from './strategy';
import type { PersonasInput } from './personas';
import type { KeywordInsightsInput } from './keywords';
import type { PlanInput } from '../video/types';
import type { ShortCopyInput } from './copy';
import type { IdeaInput } from '../podcast/analysis';
import type { ScriptInput } from '../podcast/script';

export type { Source };
import type { SocialPostInput } from './calendar-post';

export interface WriteSectionInput {
  heading: string;
  keyPoints?: string[];
  subheadings?: string[];
  keywords?: string[];
  /** Words of body text wanted (headings excluded); the writer lands within ±10 %. */
  targetWords: number;
  /** Research sources; `[n]` citations use `index` when present, else position + 1. */
  sources?: Source[];
  tone?: string;
  audience?: string;
  /** Topic of the whole article (lets a section mention it); defaults to the heading. */
  topic?: string;
  /** Force a bulleted list of the key points (otherwise decided from the heading). */
  list?: boolean;
}

export interface SectionDraft {
  heading: string;
  /** Markdown body of the section, without its own `##` heading. */
  markdown: string;
  /** Body words as the project's counter counts them (domain/analysis countWords). */
  wordCount: number;
  /** Sources actually cited, each with `index` = the n of its `[n]` markers. */
  citations: Source[];
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
  /** Words of the article body, References list excluded; the writer lands within ±10 %. */
  targetWords: number;
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
}

export interface ResearchSummary {
  keyword_analysis: { primary_keywords: string[]; secondary_keywords: string[]; search_volume: string };
  competitor_analysis: { top_competitors: string[]; content_gaps: string[]; opportunities: string[] };
  suggested_angles: string[];
  search_queries: string[];
  grounding_metadata: {
    grounding_chunks: Array<{ title: string; url: string; confidence_score: number }>;
    web_search_queries: string[];
  };
}

/** What the gateway asks the `local` provider to do when no vendor is configured. */
export type LocalTask =
  | { kind: 'section'; input: WriteSectionInput }
  | { kind: 'article'; input: WriteArticleInput }
  | { kind: 'outline'; input: DraftOutlineInput }
  | { kind: 'research'; input: ResearchSummaryInput }
  // Synchronous blog edits (domain/blog/revise.ts): JSON, JSON and Markdown answers.
  | { kind: 'enhance_section'; input: { section: OutlineSectionInput; focus: string } }
  | { kind: 'optimize_outline'; input: { outline: OutlineSectionInput[]; focus: string } }
  | { kind: 'revise_section'; input: { content: string; focus: string } }
  // Backlink outreach emails (domain/outreach/writer.ts): JSON answers.
  | { kind: 'outreach_email'; input: GenerateEmailInput }
  | { kind: 'outreach_personalize'; input: PersonalizeInput }
  | { kind: 'outreach_subjects'; input: { topic: string; tone?: Tone } }
  | { kind: 'outreach_follow_up'; input: FollowUpInput }
  // Professional- and social-network writers (domain/generation/social): a JSON draft of the brief's kind.
  | { kind: 'social'; input: { brief: WriterBrief; sources: Source[] } }
  // Calendar posts (domain/generation/calendar-post.ts): JSON {title, thread_content, hashtags}.
  | { kind: 'social_post'; input: SocialPostInput }
  // Content generation of the general and developer families (docs/content.md): JSON answers.
  | { kind: 'platform_post'; input: PlatformPostInput }
  | { kind: 'strategy'; input: ContentStrategyInput }
  | { kind: 'personas'; input: PersonasInput }
  | { kind: 'keyword_insights'; input: KeywordInsightsInput }
  // Video studio (domain/video/plan.ts): a plan as JSON, the shape vendors are asked for.
  | { kind: 'video_plan'; input: PlanInput }
  // Short copy (domain/generation/copy.ts): JSON {form, text, characters}.
  | { kind: 'short_copy'; input: ShortCopyInput }
  // Podcast maker (domain/podcast/analysis.ts, script.ts): JSON answers.
  | { kind: 'podcast_idea'; input: IdeaInput }
  | { kind: 'podcast_analysis'; input: IdeaInput }
  | { kind: 'podcast_queries'; input: IdeaInput & { count?: number; previous?: string[] } }
  | { kind: 'podcast_script'; input: ScriptInput };
