/**
 * The blog writer's AI tasks (domain/ai/task.ts), each declared once: the vendor prompt, the offline writer's
 * task, the shape of a valid answer, the budget and, where the in-process model may write over the offline
 * writer's answer, its plan (title options of an outline; sections and revisions rephrased, citations kept). The
 * blog activities (activities/blog.ts, blog-sync.ts) call them through the gateway's `run` and get typed answers.
 */
import { defineAiTask } from '../ai/task';
import { anyString, arr } from '../schema';
import { markdownWordCount, MODEL_PLANS } from '../generation';
import type { DraftOutline, ResearchSummary, ResearchSummaryInput, WriteSectionInput } from '../generation';
import type { OutlineSection } from '../analysis/types';
import { outlinePrompt, researchPrompt, sectionPrompt, type SectionBrief } from './prompts';
import { enhanceSectionPrompt, optimizeOutlinePrompt, reviseSectionPrompt } from './prompts-sync';
import type { EnhancedSection } from './revise';
import type { Source } from './types';

/** The research summary of a topic over its sources (the offline writer also reads the web search queries). */
export const BLOG_RESEARCH = defineAiTask<ResearchSummaryInput & { keywords: string[] }, ResearchSummary>({
  purpose: 'blog.research',
  answer: 'json',
  prompt: (i) =>
    researchPrompt({ topic: i.topic, keywords: i.keywords, industry: i.industry, audience: i.audience }, i.sources),
  local: (input) => ({ kind: 'research', input }),
  output: {
    type: 'object',
    required: ['keyword_analysis', 'competitor_analysis', 'suggested_angles', 'search_queries'],
    properties: {
      keyword_analysis: {
        type: 'object',
        required: ['primary_keywords', 'secondary_keywords'],
        properties: { primary_keywords: arr(anyString), secondary_keywords: arr(anyString) },
      },
      competitor_analysis: {
        type: 'object',
        required: ['top_competitors', 'content_gaps', 'opportunities'],
        properties: { top_competitors: arr(anyString), content_gaps: arr(anyString), opportunities: arr(anyString) },
      },
      suggested_angles: arr(anyString),
      search_queries: arr(anyString),
    },
  },
  maxTokens: () => 1500,
});

export interface OutlineTaskInput {
  topic: string;
  keywords: string[];
  sources: Source[];
  wordCount: number;
  audience?: string;
  tone?: string;
  /** The user's instructions (vendors only: the offline writer plans from the brief and the sources). */
  instructions?: string;
}

/** An outline: title options and sections (a vendor answers references as source numbers). */
export const BLOG_OUTLINE = defineAiTask<OutlineTaskInput, DraftOutline>({
  purpose: 'blog.outline',
  answer: 'json',
  prompt: (i) =>
    outlinePrompt(
      {
        topic: i.topic,
        keywords: i.keywords,
        wordCount: i.wordCount,
        audience: i.audience,
        tone: i.tone,
        instructions: i.instructions,
      },
      i.sources,
    ),
  local: (i) => ({
    kind: 'outline',
    input: {
      topic: i.topic,
      keywords: i.keywords,
      sources: i.sources,
      wordCount: i.wordCount,
      audience: i.audience,
      tone: i.tone,
    },
  }),
  output: {
    type: 'object',
    required: ['title_options', 'outline'],
    properties: {
      title_options: arr(anyString, { minItems: 1 }),
      outline: {
        type: 'array',
        minItems: 1,
        items: { type: 'object', required: ['heading'], properties: { heading: { type: 'string' } } },
      },
    },
  },
  maxTokens: () => 2000,
  // Without a vendor, the in-process model writes the title options (headlines); the outline stays grounded.
  plan: (i) =>
    MODEL_PLANS.headlines('title_options.*', {
      topic: i.topic,
      audience: i.audience,
      tone: i.tone,
      keyPoints: i.keywords.slice(0, 3),
    }),
});

export interface SectionTaskInput {
  /** The article's title (named in the vendor prompt's brief). */
  title: string;
  /** What the offline writer writes from; the vendor prompt says the same. */
  section: WriteSectionInput;
}

const briefOf = ({ title, section: s }: SectionTaskInput): SectionBrief => ({
  title,
  heading: s.heading,
  keyPoints: s.keyPoints ?? [],
  keywords: s.keywords ?? [],
  targetWords: s.targetWords,
  tone: s.tone,
  audience: s.audience,
});

/** One section in Markdown citing its sources as [n]. */
const sectionTask = (purpose: string) =>
  defineAiTask<SectionTaskInput, string>({
    purpose,
    answer: 'markdown',
    prompt: (i) => sectionPrompt(briefOf(i), i.section.sources ?? []),
    local: ({ section }) => ({ kind: 'section', input: section }),
    maxTokens: ({ section }) => Math.ceil(section.targetWords * 2.5) + 100,
    // Without a vendor, the in-process model rephrases the grounded sentences (citations kept).
    plan: () => MODEL_PLANS.rewriteText(),
  });

/** A section written on its own (the synchronous section routes). */
export const BLOG_SECTION = sectionTask('blog.section');
/** A section of a medium-length post (the async pipeline). */
export const BLOG_MEDIUM_SECTION = sectionTask('blog.medium.section');

/** An outline section improved with a focus (a vendor may leave out its keywords). */
export const BLOG_ENHANCE_SECTION = defineAiTask<
  { section: OutlineSection; focus: string },
  Omit<EnhancedSection, 'keywords'> & { keywords?: string[] }
>({
  purpose: 'blog.outline.enhance_section',
  answer: 'json',
  prompt: (i) => enhanceSectionPrompt(i.section, i.focus),
  local: (input) => ({ kind: 'enhance_section', input }),
  output: {
    type: 'object',
    required: ['heading', 'subheadings', 'key_points', 'improvements_made'],
    properties: {
      heading: { type: 'string' },
      subheadings: arr(anyString),
      key_points: arr(anyString),
      keywords: arr(anyString),
      improvements_made: arr(anyString),
    },
  },
  maxTokens: () => 800,
});

/** An outline optimized with a focus: the same section ids, reworded, with what was improved. */
export const BLOG_OPTIMIZE_OUTLINE = defineAiTask<
  { outline: OutlineSection[]; focus: string },
  { outline: OutlineSection[]; improvements_made: string[] }
>({
  purpose: 'blog.outline.optimize',
  answer: 'json',
  prompt: (i) => optimizeOutlinePrompt(i.outline, i.focus),
  local: (input) => ({ kind: 'optimize_outline', input }),
  output: {
    type: 'object',
    required: ['outline', 'improvements_made'],
    properties: {
      outline: {
        type: 'array',
        items: {
          type: 'object',
          required: ['id', 'heading'],
          properties: { id: { type: 'string' }, heading: { type: 'string' }, target_words: { type: 'number' } },
        },
      },
      improvements_made: arr(anyString),
    },
  },
  maxTokens: () => 2000,
});

/** A section revised with a focus, in Markdown (facts, numbers and citations kept). */
export const BLOG_REVISE_SECTION = defineAiTask<
  { content: string; focus: string; audience?: string; tone?: string },
  string
>({
  purpose: 'blog.section.optimize',
  answer: 'markdown',
  prompt: reviseSectionPrompt,
  local: (i) => ({ kind: 'revise_section', input: { content: i.content, focus: i.focus } }),
  maxTokens: (i) => Math.ceil(markdownWordCount(i.content) * 2) + 200,
  plan: () => MODEL_PLANS.rewriteText(),
});
