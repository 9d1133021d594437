/**
 * Prompt enhancement. What an enhanced prompt may promise depends on who
 * draws the image:
 *
 * - A vendor image model (vendor_a, vendor_c, ...): with a text vendor
 *   configured the prompt is rewritten by the AI gateway (activities/image.ts,
 *   `enhancePromptMessages` below); offline it is enriched deterministically:
 *   the style preset's and the quality's descriptors (photographic, natural
 *   light, ...) and the template's purpose are appended, leaving out words the
 *   prompt already has.
 * - The offline procedural renderer (`local`, domain/image/procedural.ts)
 *   draws gradients and flat shapes, not photographs: the enhanced prompt is
 *   the prompt plus a description of exactly what it will draw (drawPlan, the
 *   renderer's own decisions), and says that the preset's photographic or
 *   painterly words apply to vendor renderers only. No text vendor is asked (a
 *   rewrite would promise lighting and lenses nothing draws), and the renderer
 *   draws from the client's prompt, so enhancement never changes the picture.
 *
 * The response says which one happened (request.prompt_enhancement).
 */
import type { ChatMessageLike } from './types';
import type { Quality } from './dimensions';
import { drawPlan, DrawPlan } from './procedural';

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
  /** Who draws the image: a vendor model (default) or the offline procedural renderer (`local`). */
  renderer?: 'vendor' | 'local';
  /** Text the offline renderer writes on the image (quote and title templates). */
  overlay?: { kind: 'quote' | 'title'; text: string };
}

/** Model name of the description of an offline rendering (prompt_enhancement.model). */
export const LOCAL_RENDER_DESCRIPTION = 'local-render-description-v1';
/** Model name of the offline enrichment for vendor renderers. */
export const LOCAL_ENRICHMENT = 'local-enrichment-v1';

const listed = (items: string[]): string =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;

const LAYER_WORDS: Record<DrawPlan['layer'], string> = {
  bokeh: 'soft glowing circles',
  polygons: 'translucent coloured polygons',
  lines: 'thin straight lines',
  circles: 'translucent coloured circles',
};

/** What the offline renderer will draw, in words (the same decisions as renderSvg). */
export function describeOfflineRender(i: EnrichInput): string {
  const plan = drawPlan({ prompt: i.prompt, style_preset: i.style_preset, quality: i.quality, overlay: i.overlay });
  const shade = [plan.dark ? 'dark' : '', plan.tone === 'plain' ? '' : plan.tone].filter(Boolean).join(' ');
  const colours =
    plan.colours.length === 0
      ? 'colours picked from the seed'
      : plan.colours.length === 1
        ? `${plan.colours[0]} and a second colour picked from the seed`
        : listed(plan.colours.slice(0, 2));
  const parts = [`a ${shade ? `${shade} ` : ''}two-colour gradient background (${colours})`];
  if (plan.stars) parts.push('small white dots as stars');
  if (plan.celestial) parts.push(`a glowing ${plan.celestial} disc`);
  const preset = i.style_preset?.toLowerCase();
  parts.push(`${LAYER_WORDS[plan.layer]}${preset ? ` for the ${preset} preset` : ''}`);
  if (plan.mountains) parts.push('two layers of mountain silhouettes');
  if (plan.skyline) parts.push('a skyline of flat building blocks');
  if (plan.waves) parts.push('three layers of waves');
  if (plan.trees) parts.push('triangle trees');
  if (plan.vignette) parts.push('a dark vignette at the corners');
  if (plan.overlay)
    parts.push(`the ${plan.overlay.kind} "${plan.overlay.text}" in white text on a translucent dark panel`);
  const styleNote =
    preset && STYLE_WORDS[preset]
      ? `; the ${preset} preset's style words (${STYLE_WORDS[preset].join(', ')}) apply to vendor renderers only`
      : '';
  return `drawn offline as a flat procedural illustration, not a photograph: ${listed(parts)}${styleNote}`;
}

/**
 * The offline enrichment: for a vendor renderer the prompt plus descriptors it does not yet contain; for the
 * offline renderer the prompt plus a description of what it will draw.
 */
export function enrichPrompt(i: EnrichInput): string {
  if (i.renderer === 'local') return `${i.prompt.trim().replace(/[.\s]+$/, '')} — ${describeOfflineRender(i)}`;
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
