/**
 * Prompts for text vendors (pure). Each asks for the same shape the `local`
 * provider returns for the task (JSON for research and outlines, Markdown with
 * [n] citations for sections), so activities parse both answers the same way.
 */
import type { Source } from './types';

import { numberedSources, type ChatTurn as ChatMessage } from '../ai/chat';

const sourceList = (sources: Source[]) => numberedSources(sources);

export function researchPrompt(
  r: { topic: string; keywords: string[]; industry?: string; audience?: string },
  sources: Source[],
): ChatMessage[] {
  return [
    {
      role: 'system',
      content: 'You are a content-marketing research analyst. Answer with one JSON object only, no prose.',
    },
    {
      role: 'user',
      content: `Topic: ${r.topic}\nKeywords: ${r.keywords.join(', ')}\nIndustry: ${r.industry ?? ''}\nAudience: ${r.audience ?? ''}\n\nSources:\n${sourceList(sources)}\n\nReturn JSON with keys: keyword_analysis {primary_keywords: string[], secondary_keywords: string[], search_volume: string}, competitor_analysis {top_competitors: string[], content_gaps: string[], opportunities: string[]}, suggested_angles: string[], search_queries: string[], grounding_metadata {grounding_chunks: [{title, url, confidence_score 0-1}] (only the sources above)}.`,
    },
  ];
}

export function outlinePrompt(
  r: { topic: string; keywords: string[]; wordCount: number; audience?: string; tone?: string; instructions?: string },
  sources: Source[],
): ChatMessage[] {
  return [
    { role: 'system', content: 'You are an editor who plans blog posts. Answer with one JSON object only, no prose.' },
    {
      role: 'user',
      content: `Plan a blog post of about ${r.wordCount} words.\nTopic: ${r.topic}\nKeywords: ${r.keywords.join(', ')}\nAudience: ${r.audience ?? ''}\nTone: ${r.tone ?? ''}\n${r.instructions ? `Instructions: ${r.instructions}\n` : ''}\nSources:\n${sourceList(sources)}\n\nReturn JSON {title_options: string[3..5], outline: [{id: "s1", heading, subheadings: string[], key_points: string[], references: [numbers of the sources above], target_words: integer, keywords: string[]}]}; target_words must sum to ${r.wordCount}.`,
    },
  ];
}

/** What a section is about and how long it is: the title, its heading and points, its keywords, tone and audience. */
export interface SectionBrief {
  title: string;
  heading: string;
  keyPoints: string[];
  keywords: string[];
  targetWords: number;
  tone?: string;
  audience?: string;
}

/**
 * One section. The brief is the writer's own role, in sentences: asked with labelled fields in the user turn
 * (`Section: … Key points: …`), the default model wrote the fields back as its answer, and given the brief as a
 * user's request it answered the requester ("The sections you provide are quite good…"); told it is the blogger
 * writing the section, it wrote the section (docs/quality.md, 2026-11-27). A sentence of the brief written back is
 * an echo of the instructions (domain/ai/repair.ts), asked again and then refused.
 */
export function sectionPrompt(s: SectionBrief, sources: Source[]): ChatMessage[] {
  const points = s.keyPoints.length
    ? ` make ${s.keyPoints.length === 1 ? 'this point' : 'these points'} in your own words: ${s.keyPoints.join('; ')}.`
    : ' write what a reader needs to know about it.';
  const keywords = s.keywords.length ? ` Use these words where they fit naturally: ${s.keywords.join(', ')}.` : '';
  return [
    {
      role: 'system',
      content:
        `You are a blogger writing one section of your blog post "${s.title}" for ${s.audience ?? 'general readers'}, in a ${s.tone ?? 'professional'} tone. ` +
        `The section is "${s.heading}". In about ${s.targetWords} words,${points}${keywords} ` +
        'Write in Markdown, without the heading. Cite sources as [n] using only the numbered sources given, and only for what they say.',
    },
    { role: 'user', content: `The sources you may cite, by number:\n${sourceList(sources)}\n\nWrite the section now.` },
  ];
}
