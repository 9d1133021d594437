/**
 * The content generation AI tasks (domain/ai/task.ts) of the general family and the developer API, one per kind
 * of content, each declared once: the prompt a text vendor gets, the task the offline `local` provider runs
 * instead, the shape of a valid answer and the completion budget. Vendors are asked for exactly the shape `local`
 * returns, and to use only the numbered sources for facts, as `local` does (pure). A call's purpose is the
 * workflow's (`blog_writer.article`, `v1.content.blog_post`, ...): one kind serves several routes.
 */
import { defineAiTask, type AiTask } from '../ai/task';
import { anyString, arr } from '../schema';
import { numberedSources } from '../ai/chat';
import type {
  ContentStrategyInput,
  KeywordInsightsInput,
  PersonasInput,
  PlatformPostInput,
  ResearchSummaryInput,
  WriteArticleInput,
} from '../generation';
import { researchPrompt } from '../blog/prompts';
import type { Source } from './types';

/** One generation call of a content workflow: the kind and what it is written from. */
export type GenerationCall =
  | { kind: 'article'; input: WriteArticleInput & { content_type?: string } }
  | { kind: 'platform_post'; input: PlatformPostInput }
  | { kind: 'strategy'; input: ContentStrategyInput }
  | { kind: 'personas'; input: PersonasInput }
  | { kind: 'keyword_insights'; input: KeywordInsightsInput }
  | { kind: 'research'; input: ResearchSummaryInput };

export type GenerationKind = GenerationCall['kind'];

/** A call's input with the purpose the workflow meters it under. */
export interface ContentCall<I> {
  purpose: string;
  input: I;
}

/** The answer of the JSON kinds: an object holding at least what the kind's schema requires. */
export type ContentObject = Record<string, unknown>;

const sourceList = (sources: Source[] = []) => numberedSources(sources, '(none)');

const GROUNDED =
  'Use only facts stated in the numbered sources; cite them as [n]. Never invent numbers, names, quotes or dates.';
const json = (role: string) => `You are ${role}. Answer with one JSON object only, no prose. ${GROUNDED}`;
const cited = {
  type: 'array',
  items: { type: 'object', required: ['text'], properties: { text: { type: 'string' } } },
};
const purpose = (c: ContentCall<unknown>) => c.purpose;

/** An article in Markdown: `# Title`, `##` sections and a final `## References` list of the sources cited. */
export const CONTENT_ARTICLE = defineAiTask<ContentCall<WriteArticleInput & { content_type?: string }>, string>({
  purpose,
  answer: 'markdown',
  prompt: ({ input: i }) => [
    { role: 'system', content: `You are a professional blog writer. ${GROUNDED}` },
    {
      role: 'user',
      content: `Write a ${i.content_type ?? 'blog post'} of about ${i.targetWords} words in Markdown: "# Title", "##" sections, and a final "## References" list of the sources you cited.\nTopic: ${i.topic}\nKeywords: ${(i.keywords ?? []).join(', ')}\nAudience: ${i.audience ?? ''}\nTone: ${i.tone ?? ''}\n${(i.sections ?? []).length ? `Cover: ${(i.sections ?? []).map((s) => s.heading).join('; ')}\n` : ''}\nSources:\n${sourceList(i.sources)}`,
    },
  ],
  local: ({ input }) => ({ kind: 'article', input }),
  maxTokens: ({ input: i }) => Math.ceil(i.targetWords * 2.2) + 300,
});

/** A post for one platform, within its character limit (checked by the activity). */
export const CONTENT_PLATFORM_POST = defineAiTask<ContentCall<PlatformPostInput>, ContentObject>({
  purpose,
  answer: 'json',
  prompt: ({ input: i }) => [
    { role: 'system', content: json('a social media writer') },
    {
      role: 'user',
      content: `Write a ${i.content_type ?? 'post'} for ${i.platform} of at most ${i.max_characters} characters.\nTopic: ${i.topic}\nTone: ${i.tone ?? ''}\nAudience: ${i.audience ?? ''}\nKey points: ${(i.key_points ?? []).join('; ')}\n${i.include_hashtags ? `End with at most ${i.max_hashtags} hashtags${(i.hashtags ?? []).length ? `, including ${(i.hashtags ?? []).join(' ')}` : ''}.` : 'No hashtags.'}\n${i.include_cta ? 'Include one call to action.' : 'No call to action.'}\n\nSources:\n${sourceList(i.sources)}\n\nReturn JSON {content: string (the whole post, hashtags included), hashtags: string[], call_to_action: string|null, character_count: integer, character_limit: ${i.max_characters}, sources: [{title, url}] (the sources you used)}.`,
    },
  ],
  local: ({ input }) => ({ kind: 'platform_post', input }),
  output: {
    type: 'object',
    required: ['content'],
    properties: { content: { type: 'string', minLength: 1 }, hashtags: arr(anyString) },
  },
  maxTokens: ({ input: i }) => Math.min(4000, Math.ceil(i.max_characters / 3) + 200),
});

/** A content strategy: pillars, an approach per goal and recommendations per content type, cited. */
export const CONTENT_STRATEGY = defineAiTask<ContentCall<ContentStrategyInput>, ContentObject>({
  purpose,
  answer: 'json',
  prompt: ({ input: i }) => [
    { role: 'system', content: json('a content strategist') },
    {
      role: 'user',
      content: `Business: ${i.business_type}\nAudience: ${i.target_audience ?? ''}\nGoals: ${i.goals.join(', ')}\nContent types: ${i.content_types.join(', ')}\n\nSources:\n${sourceList(i.sources)}\n\nReturn JSON {summary: string, content_pillars: [{name, rationale, sources: number[]}], goals: [{goal, approach: [{text, source: n}], kpis: [{text, source: n}]}] (one per goal above), content_types: [{content_type, recommendations: [{text, source: n}]}] (one per type above), distribution: [{text, source: n}], references: [{index, title, url}]}.`,
    },
  ],
  local: ({ input }) => ({ kind: 'strategy', input }),
  output: {
    type: 'object',
    required: ['summary', 'content_pillars', 'goals', 'content_types'],
    properties: { summary: { type: 'string' }, content_pillars: { type: 'array' }, goals: { type: 'array' } },
  },
  maxTokens: () => 2500,
});

/** Buyer personas, one insight set per pain point, cited (no invented names, incomes or quotes). */
export const CONTENT_PERSONAS = defineAiTask<ContentCall<PersonasInput>, ContentObject>({
  purpose,
  answer: 'json',
  prompt: ({ input: i }) => [
    { role: 'system', content: json('a market researcher who writes buyer personas') },
    {
      role: 'user',
      content: `Niche: ${i.business_niche}\nAge range: ${i.age_range ?? ''}\nProfession: ${i.profession ?? ''}\nPain points: ${i.pain_points.join('; ')}\n\nSources:\n${sourceList(i.sources)}\n\nReturn JSON {personas: [{label, summary, demographics: {age_range, profession}, pain_points: [{pain_point, insights: [{text, source: n}], content_ideas: string[]}] (one per pain point above), preferred_content: [{text, source: n}], channels: [{text, source: n}]}], references: [{index, title, url}]}. Do not invent names, incomes or quotes.`,
    },
  ],
  local: ({ input }) => ({ kind: 'personas', input }),
  output: {
    type: 'object',
    required: ['personas'],
    properties: { personas: { type: 'array', minItems: 1, items: { type: 'object', required: ['label'] } } },
  },
  maxTokens: () => 2000,
});

/** The search intent of each keyword, and the keywords grouped into clusters. */
export const CONTENT_KEYWORD_INSIGHTS = defineAiTask<ContentCall<KeywordInsightsInput>, ContentObject>({
  purpose,
  answer: 'json',
  prompt: ({ input: i }) => [
    { role: 'system', content: json('an SEO analyst') },
    {
      role: 'user',
      content: `Classify the search intent of each keyword (informational, commercial, transactional or navigational) and group them into clusters. Use only these keywords, and no numbers.\nLanguage: ${i.language ?? 'en'}\nKeywords:\n${i.keywords.join('\n')}\n\nReturn JSON {keywords: [{keyword, intent, intent_signal: string (why)}], clusters: [{name, keywords: string[]}]}.`,
    },
  ],
  local: ({ input }) => ({ kind: 'keyword_insights', input }),
  output: {
    type: 'object',
    required: ['keywords', 'clusters'],
    properties: { keywords: { type: 'array', items: { type: 'object', required: ['keyword', 'intent'] } } },
  },
  maxTokens: () => 1500,
});

/** A research summary of a topic over its sources (the blog writer's research prompt). */
export const CONTENT_RESEARCH = defineAiTask<ContentCall<ResearchSummaryInput>, ContentObject>({
  purpose,
  answer: 'json',
  prompt: ({ input: i }) =>
    researchPrompt(
      { topic: i.topic, keywords: i.keywords ?? [], industry: i.industry, audience: i.audience },
      i.sources,
    ),
  local: ({ input }) => ({ kind: 'research', input }),
  output: {
    type: 'object',
    required: ['keyword_analysis', 'competitor_analysis', 'suggested_angles', 'search_queries'],
    properties: { suggested_angles: arr(anyString), search_queries: arr(anyString), distribution: cited },
  },
  maxTokens: () => 1500,
});

type JsonCall = Exclude<GenerationCall, { kind: 'article' }>;

const JSON_TASKS: {
  [K in JsonCall['kind']]: AiTask<ContentCall<Extract<JsonCall, { kind: K }>['input']>, ContentObject>;
} = {
  platform_post: CONTENT_PLATFORM_POST,
  strategy: CONTENT_STRATEGY,
  personas: CONTENT_PERSONAS,
  keyword_insights: CONTENT_KEYWORD_INSIGHTS,
  research: CONTENT_RESEARCH,
};

/** The task of a JSON kind's call (every kind but `article`), for its call's input. */
export const jsonTaskOf = (c: JsonCall) =>
  // The map pairs each kind with its own input's task; TypeScript cannot follow the pairing through `c.kind`.
  JSON_TASKS[c.kind] as AiTask<ContentCall<JsonCall['input']>, ContentObject>;
