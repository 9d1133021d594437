/**
 * Vendor prompts of the synchronous blog edits (pure). Each asks for the
 * shape the `local` provider returns for the same task (domain/blog/revise.ts):
 * JSON for section enhancement and outline optimization, Markdown for a
 * revised section, so activities parse both answers the same way.
 */
import type { OutlineSection } from '../analysis/types';
import type { ChatTurn as ChatMessage } from '../ai/chat';

export function enhanceSectionPrompt(section: OutlineSection, focus: string): ChatMessage[] {
  return [
    {
      role: 'system',
      content:
        'You are an editor who improves blog outlines. Answer with one JSON object only, no prose. Never invent facts or sources.',
    },
    {
      role: 'user',
      content: `Improve this outline section with the focus "${focus}".\n\n${JSON.stringify({ heading: section.heading, subheadings: section.subheadings ?? [], key_points: section.key_points ?? [], keywords: section.keywords ?? [] })}\n\nReturn JSON {heading: string, subheadings: string[], key_points: string[], keywords: string[], improvements_made: string[] (one short sentence per change)}.`,
    },
  ];
}

export function optimizeOutlinePrompt(outline: OutlineSection[], focus: string): ChatMessage[] {
  const total = outline.reduce((a, s) => a + (s.target_words ?? 0), 0);
  return [
    { role: 'system', content: 'You are an editor who plans blog posts. Answer with one JSON object only, no prose.' },
    {
      role: 'user',
      content: `Optimize this outline with the focus "${focus}". Keep every section id; you may reword headings, subheadings and key points and move words between sections${total ? `; target_words must still sum to ${total}` : ''}.\n\n${JSON.stringify(outline.map((s) => ({ id: s.id, heading: s.heading, subheadings: s.subheadings ?? [], key_points: s.key_points ?? [], keywords: s.keywords ?? [], target_words: s.target_words })))}\n\nReturn JSON {outline: [{id, heading, subheadings, key_points, keywords, target_words}], improvements_made: string[]}.`,
    },
  ];
}

export function reviseSectionPrompt(r: {
  content: string;
  focus: string;
  audience?: string;
  tone?: string;
}): ChatMessage[] {
  return [
    {
      role: 'system',
      content:
        'You revise blog sections in Markdown. Keep every fact, number and [n] citation; do not add claims. Answer with the revised Markdown only.',
    },
    {
      role: 'user',
      content: `Focus: ${r.focus}\nAudience: ${r.audience ?? 'general readers'}\nTone: ${r.tone ?? 'professional'}\n\n${r.content}`,
    },
  ];
}
