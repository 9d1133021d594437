/**
 * One generation call per kind of content: the prompt a text vendor gets,
 * the task the offline `local` provider runs instead, the completion budget,
 * and whether the answer is Markdown or JSON. Vendors are asked for exactly
 * the shape `local` returns, so the activity reads both the same way; and
 * vendors are asked to use only the numbered sources for facts, as `local`
 * does (pure).
 */
import type { LocalTask, ResearchSummaryInput, WriteArticleInput } from '../generation';
import type { PlatformPostInput, ContentStrategyInput, PersonasInput, KeywordInsightsInput } from '../generation';
import { researchPrompt } from '../blog/prompts';
import type { Source } from './types';

export type GenerationCall =
  | { kind: 'article'; input: WriteArticleInput & { content_type?: string } }
  | { kind: 'platform_post'; input: PlatformPostInput }
  | { kind: 'strategy'; input: ContentStrategyInput }
  | { kind: 'personas'; input: PersonasInput }
  | { kind: 'keyword_insights'; input: KeywordInsightsInput }
  | { kind: 'research'; input: ResearchSummaryInput };

export type GenerationKind = GenerationCall['kind'];

export interface CallSpec {
  messages: Array<{ role: 'system' | 'user' | 'assistant'; content: string }>;
  localTask: LocalTask;
  maxTokens: number;
  answer: 'markdown' | 'json';
}

const sourceList = (sources: Source[] = []) =>
  sources.map((s, i) => `[${s.index ?? i + 1}] ${s.title} (${s.url}) — ${s.excerpt ?? ''}`).join('\n') || '(none)';

const GROUNDED =
  'Use only facts stated in the numbered sources; cite them as [n]. Never invent numbers, names, quotes or dates.';
const json = (role: string) => `You are ${role}. Answer with one JSON object only, no prose. ${GROUNDED}`;

export function callSpec(c: GenerationCall): CallSpec {
  switch (c.kind) {
    case 'article': {
      const i = c.input;
      return {
        answer: 'markdown',
        maxTokens: Math.ceil(i.targetWords * 2.2) + 300,
        localTask: { kind: 'article', input: i },
        messages: [
          { role: 'system', content: `You are a professional blog writer. ${GROUNDED}` },
          {
            role: 'user',
            content: `Write a ${i.content_type ?? 'blog post'} of about ${i.targetWords} words in Markdown: "# Title", "##" sections, and a final "## References" list of the sources you cited.\nTopic: ${i.topic}\nKeywords: ${(i.keywords ?? []).join(', ')}\nAudience: ${i.audience ?? ''}\nTone: ${i.tone ?? ''}\n${(i.sections ?? []).length ? `Cover: ${(i.sections ?? []).map((s) => s.heading).join('; ')}\n` : ''}\nSources:\n${sourceList(i.sources)}`,
          },
        ],
      };
    }
    case 'platform_post': {
      const i = c.input;
      return {
        answer: 'json',
        maxTokens: Math.min(4000, Math.ceil(i.max_characters / 3) + 200),
        localTask: { kind: 'platform_post', input: i },
        messages: [
          { role: 'system', content: json('a social media writer') },
          {
            role: 'user',
            content: `Write a ${i.content_type ?? 'post'} for ${i.platform} of at most ${i.max_characters} characters.\nTopic: ${i.topic}\nTone: ${i.tone ?? ''}\nAudience: ${i.audience ?? ''}\nKey points: ${(i.key_points ?? []).join('; ')}\n${i.include_hashtags ? `End with at most ${i.max_hashtags} hashtags${(i.hashtags ?? []).length ? `, including ${(i.hashtags ?? []).join(' ')}` : ''}.` : 'No hashtags.'}\n${i.include_cta ? 'Include one call to action.' : 'No call to action.'}\n\nSources:\n${sourceList(i.sources)}\n\nReturn JSON {content: string (the whole post, hashtags included), hashtags: string[], call_to_action: string|null, character_count: integer, character_limit: ${i.max_characters}, sources: [{title, url}] (the sources you used)}.`,
          },
        ],
      };
    }
    case 'strategy': {
      const i = c.input;
      return {
        answer: 'json',
        maxTokens: 2500,
        localTask: { kind: 'strategy', input: i },
        messages: [
          { role: 'system', content: json('a content strategist') },
          {
            role: 'user',
            content: `Business: ${i.business_type}\nAudience: ${i.target_audience ?? ''}\nGoals: ${i.goals.join(', ')}\nContent types: ${i.content_types.join(', ')}\n\nSources:\n${sourceList(i.sources)}\n\nReturn JSON {summary: string, content_pillars: [{name, rationale, sources: number[]}], goals: [{goal, approach: [{text, source: n}], kpis: [{text, source: n}]}] (one per goal above), content_types: [{content_type, recommendations: [{text, source: n}]}] (one per type above), distribution: [{text, source: n}], references: [{index, title, url}]}.`,
          },
        ],
      };
    }
    case 'personas': {
      const i = c.input;
      return {
        answer: 'json',
        maxTokens: 2000,
        localTask: { kind: 'personas', input: i },
        messages: [
          { role: 'system', content: json('a market researcher who writes buyer personas') },
          {
            role: 'user',
            content: `Niche: ${i.business_niche}\nAge range: ${i.age_range ?? ''}\nProfession: ${i.profession ?? ''}\nPain points: ${i.pain_points.join('; ')}\n\nSources:\n${sourceList(i.sources)}\n\nReturn JSON {personas: [{label, summary, demographics: {age_range, profession}, pain_points: [{pain_point, insights: [{text, source: n}], content_ideas: string[]}] (one per pain point above), preferred_content: [{text, source: n}], channels: [{text, source: n}]}], references: [{index, title, url}]}. Do not invent names, incomes or quotes.`,
          },
        ],
      };
    }
    case 'keyword_insights': {
      const i = c.input;
      return {
        answer: 'json',
        maxTokens: 1500,
        localTask: { kind: 'keyword_insights', input: i },
        messages: [
          { role: 'system', content: json('an SEO analyst') },
          {
            role: 'user',
            content: `Classify the search intent of each keyword (informational, commercial, transactional or navigational) and group them into clusters. Use only these keywords, and no numbers.\nLanguage: ${i.language ?? 'en'}\nKeywords:\n${i.keywords.join('\n')}\n\nReturn JSON {keywords: [{keyword, intent, intent_signal: string (why)}], clusters: [{name, keywords: string[]}]}.`,
          },
        ],
      };
    }
    case 'research': {
      const i = c.input;
      return {
        answer: 'json',
        maxTokens: 1500,
        localTask: { kind: 'research', input: i },
        messages: researchPrompt(
          { topic: i.topic, keywords: i.keywords ?? [], industry: i.industry, audience: i.audience },
          i.sources,
        ),
      };
    }
  }
}
