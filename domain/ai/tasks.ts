/**
 * What the gateway asks the offline writer (`local`, and the template under `llama`) to do, one kind per task of
 * every area. It lives here, above the areas, so that domain/generation no longer imports every area's input types
 * (and they no longer import it back through it): each area defines its inputs, this module only names them.
 */
import type { OutlineSection as OutlineSectionInput, Source } from '../analysis/types';
import type { FollowUpInput, GenerateEmailInput, PersonalizeInput, Tone } from '../outreach/writer';
import type { WriterBrief } from '../writers/types';
import type { PlanInput } from '../video/types';
import type { IdeaInput } from '../podcast/analysis';
import type { ScriptInput } from '../podcast/script';
import type {
  ContentStrategyInput,
  DraftOutlineInput,
  KeywordInsightsInput,
  PersonasInput,
  PlatformPostInput,
  ResearchSummaryInput,
  ShortCopyInput,
  SocialPostInput,
  WriteArticleInput,
  WriteSectionInput,
} from '../generation';

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
