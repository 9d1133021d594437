/**
 * Prompt enhancement. With a text vendor configured the prompt is rewritten
 * by the AI gateway (activities/image.ts, `enhancePromptMessages` below);
 * offline it is enriched deterministically: the style preset's and the
 * quality's descriptors and the template's purpose are appended, leaving out
 * words the prompt already has. The response says which one happened.
 */
import type { ChatMessageLike } from './types';
import type { Quality } from './dimensions';

const STYLE_WORDS: Record<string, string[]> = {
  photographic: ['photographic', 'natural light', 'shallow depth of field', 'sharp focus'],
  cinematic: ['cinematic lighting', 'wide shot', 'dramatic atmosphere', 'film color grading'],
  'digital-art': ['digital illustration', 'clean shapes', 'rich colors'],
  vibrant: ['vibrant colors', 'high contrast', 'bold composition'],
  minimalist: ['minimalist', 'generous negative space', 'simple shapes', 'muted palette'],
  'line-art': ['line art', 'clean outlines', 'monochrome'],
  anime: ['anime style', 'cel shading', 'expressive colors'],
  '3d-model': ['3D render', 'soft global illumination', 'studio lighting'],
  'neon-punk': ['neon lights', 'cyberpunk mood', 'glowing accents'],
  'fantasy-art': ['fantasy art', 'epic scale', 'painterly detail'],
};

const QUALITY_WORDS: Record<Quality, string[]> = {
  draft: ['simple composition'],
  standard: ['well composed', 'detailed'],
  premium: ['highly detailed', 'professional quality', 'balanced composition'],
};

/** Style presets the enrichment knows (any other preset is passed on unchanged as a word). */
export const KNOWN_STYLES = Object.keys(STYLE_WORDS);

export interface EnrichInput {
  prompt: string;
  style_preset?: string;
  quality: Quality;
  template?: { name: string; use_cases: string[]; aspect_label: string };
}

/** The offline enrichment: the prompt plus descriptors it does not yet contain. */
export function enrichPrompt(i: EnrichInput): string {
  const lower = i.prompt.toLowerCase();
  const extra: string[] = [];
  const add = (w: string) => {
    if (!lower.includes(w.toLowerCase()) && !extra.includes(w)) extra.push(w);
  };
  const style = i.style_preset?.toLowerCase();
  if (style) (STYLE_WORDS[style] ?? [style.replace(/[-_]/g, ' ')]).forEach(add);
  QUALITY_WORDS[i.quality].forEach(add);
  if (i.template) add(`for a ${i.template.aspect_label.toLowerCase()} (${i.template.use_cases[0]})`);
  const base = i.prompt.trim().replace(/[.\s]+$/, '');
  return extra.length ? `${base}, ${extra.join(', ')}` : base;
}

/** The messages a text vendor gets to rewrite an image prompt (one line back, no commentary). */
export function enhancePromptMessages(i: EnrichInput): ChatMessageLike[] {
  return [
    {
      role: 'system',
      content:
        'You rewrite prompts for an image generation model. Keep the subject and every concrete detail the user gave; add composition, lighting, style and detail cues. Answer with the rewritten prompt only, one line, at most 80 words, no quotes.',
    },
    {
      role: 'user',
      content: [
        `Prompt: ${i.prompt}`,
        i.style_preset ? `Style preset: ${i.style_preset}` : '',
        `Quality: ${i.quality}`,
        i.template
          ? `Template: ${i.template.name} (${i.template.aspect_label}; for ${i.template.use_cases.join(', ')})`
          : '',
      ]
        .filter(Boolean)
        .join('\n'),
    },
  ];
}

/** A vendor's rewrite, cleaned: first non-empty line, quotes stripped, at most 2000 characters; empty = unusable. */
export function cleanEnhanced(text: string): string {
  const line = text
    .split('\n')
    .map((l) => l.trim())
    .find(Boolean);
  return (line ?? '')
    .replace(/^(prompt|rewritten prompt)\s*:\s*/i, '')
    .replace(/^["'“]+|["'”]+$/g, '')
    .slice(0, 2000);
}
