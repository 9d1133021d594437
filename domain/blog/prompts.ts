/**
 * Prompts for text vendors (pure). Each asks for the same shape the `local`
 * provider returns for the task (JSON for research and outlines, Markdown with
 * [n] citations for sections), so activities parse both answers the same way.
 */
import type { Source } from './types';

import type { ChatTurn as ChatMessage } from '../ai/chat';

const sourceList = (sources: Source[]) =>
  sources.map((s, i) => `[${s.index ?? i + 1}] ${s.title} (${s.url}) — ${s.excerpt}`).join('\n');

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

export function sectionPrompt(
  s: {
    title: string;
    heading: string;
    keyPoints: string[];
    keywords: string[];
    targetWords: number;
    tone?: string;
    audience?: string;
  },
  sources: Source[],
): ChatMessage[] {
  return [
    {
      role: 'system',
      content:
        'You write clear, accurate blog sections in Markdown. Cite sources as [n] using only the numbered sources given. Do not repeat the section heading.',
    },
    {
      role: 'user',
      content: `Article: ${s.title}\nSection: ${s.heading}\nKey points: ${s.keyPoints.join('; ')}\nKeywords: ${s.keywords.join(', ')}\nTone: ${s.tone ?? 'professional'}\nAudience: ${s.audience ?? 'general readers'}\nLength: ${s.targetWords} words (±10%).\n\nSources:\n${sourceList(sources)}`,
    },
  ];
}
