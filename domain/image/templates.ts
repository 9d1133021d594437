/**
 * The image studio's template catalogue (Document 2 "Template") and its three
 * reads: list with filters, search ranked by relevance, recommend by use case
 * and platform. A template fixes size, style and quality for a kind of image;
 * `POST /create` with a template_id takes those unless the request names them.
 * `overlay` tells the offline renderer to write text on the image (quote
 * cards, title cards); vendors get it as part of the prompt instead.
 */
import type { Platform } from './formats';
import type { Quality } from './dimensions';

export interface TemplateAspect {
  ratio: string;
  width: number;
  height: number;
  label: string;
}

export interface Template {
  id: string;
  name: string;
  category: string;
  platform: Platform | 'any';
  aspect_ratio: TemplateAspect;
  description: string;
  recommended_provider: string;
  style_preset: string;
  quality: Quality;
  use_cases: string[];
  /** Text the offline renderer writes on the image: the quoted text or the prompt as a title. Not part of the spec's body. */
  overlay?: 'quote' | 'title';
}

const a = (ratio: string, width: number, height: number, label: string): TemplateAspect => ({
  ratio,
  width,
  height,
  label,
});

type Row = Omit<Template, 'aspect_ratio'> & { aspect: TemplateAspect };
const t = (r: Row): Template => {
  const { aspect, ...rest } = r;
  return { ...rest, aspect_ratio: aspect };
};

export const TEMPLATES: readonly Template[] = Object.freeze([
  t({
    id: 'profnet_post_landscape',
    name: 'Professional feed post',
    category: 'social_post',
    platform: 'profnet',
    aspect: a('1.91:1', 1200, 627, 'Landscape feed image'),
    description: 'A clean, corporate feed image for thought-leadership and company updates.',
    recommended_provider: 'vendor_c',
    style_preset: 'photographic',
    quality: 'standard',
    use_cases: ['thought leadership', 'company announcement', 'hiring', 'product launch'],
  }),
  t({
    id: 'profnet_quote_card',
    name: 'Professional quote card',
    category: 'quote',
    platform: 'profnet',
    aspect: a('1:1', 1200, 1200, 'Square feed image'),
    description: 'A square card with a short quote over a calm gradient background.',
    recommended_provider: 'local',
    style_preset: 'minimalist',
    quality: 'standard',
    use_cases: ['quote', 'insight', 'testimonial', 'thought leadership'],
    overlay: 'quote',
  }),
  t({
    id: 'profnet_banner',
    name: 'Profile background banner',
    category: 'banner',
    platform: 'profnet',
    aspect: a('4:1', 1584, 396, 'Profile background'),
    description: 'A wide, low-detail banner that leaves room for the profile photo at the lower left.',
    recommended_provider: 'vendor_d',
    style_preset: 'minimalist',
    quality: 'standard',
    use_cases: ['personal branding', 'profile banner', 'company page'],
  }),
  t({
    id: 'socialnet_feed_square',
    name: 'Community feed square',
    category: 'social_post',
    platform: 'socialnet',
    aspect: a('1:1', 1080, 1080, 'Square feed image'),
    description: 'A bright, friendly square image for community posts and promotions.',
    recommended_provider: 'vendor_e',
    style_preset: 'digital-art',
    quality: 'standard',
    use_cases: ['promotion', 'event', 'community update', 'product launch'],
  }),
  t({
    id: 'socialnet_event_cover',
    name: 'Event cover',
    category: 'banner',
    platform: 'socialnet',
    aspect: a('1.91:1', 1920, 1005, 'Event cover'),
    description: 'A wide event cover with a bold title.',
    recommended_provider: 'local',
    style_preset: 'vibrant',
    quality: 'standard',
    use_cases: ['event', 'webinar', 'meetup', 'announcement'],
    overlay: 'title',
  }),
  t({
    id: 'photonet_portrait_post',
    name: 'Photo feed portrait',
    category: 'social_post',
    platform: 'photonet',
    aspect: a('4:5', 1080, 1350, 'Portrait feed image'),
    description: 'A tall, high-detail photographic image that fills the mobile feed.',
    recommended_provider: 'vendor_c',
    style_preset: 'photographic',
    quality: 'premium',
    use_cases: ['lifestyle', 'product photo', 'behind the scenes', 'travel'],
  }),
  t({
    id: 'photonet_story',
    name: 'Story background',
    category: 'story',
    platform: 'photonet',
    aspect: a('9:16', 1080, 1920, 'Story'),
    description: 'A vertical story background with calm top and bottom bands for stickers and captions.',
    recommended_provider: 'vendor_d',
    style_preset: 'cinematic',
    quality: 'standard',
    use_cases: ['story', 'announcement', 'poll background', 'behind the scenes'],
  }),
  t({
    id: 'photonet_quote_square',
    name: 'Photo feed quote square',
    category: 'quote',
    platform: 'photonet',
    aspect: a('1:1', 1080, 1080, 'Square feed image'),
    description: 'A square quote card with warm gradients.',
    recommended_provider: 'local',
    style_preset: 'vibrant',
    quality: 'standard',
    use_cases: ['quote', 'motivation', 'tip of the day'],
    overlay: 'quote',
  }),
  t({
    id: 'microblog_post_image',
    name: 'Microblog post image',
    category: 'social_post',
    platform: 'microblog',
    aspect: a('16:9', 1600, 900, 'Landscape post image'),
    description: 'A landscape image that is not cropped in the timeline.',
    recommended_provider: 'vendor_a',
    style_preset: 'digital-art',
    quality: 'standard',
    use_cases: ['news', 'thread header', 'product launch', 'announcement'],
  }),
  t({
    id: 'microblog_header',
    name: 'Microblog header',
    category: 'banner',
    platform: 'microblog',
    aspect: a('3:1', 1500, 500, 'Profile header'),
    description: 'A wide header with an open centre.',
    recommended_provider: 'vendor_e',
    style_preset: 'minimalist',
    quality: 'draft',
    use_cases: ['profile banner', 'personal branding'],
  }),
  t({
    id: 'videonet_thumbnail',
    name: 'Video thumbnail',
    category: 'thumbnail',
    platform: 'videonet',
    aspect: a('16:9', 1280, 720, 'Thumbnail'),
    description: 'A high-contrast thumbnail with a large title; the lower right stays clear of the duration stamp.',
    recommended_provider: 'local',
    style_preset: 'vibrant',
    quality: 'premium',
    use_cases: ['video thumbnail', 'tutorial', 'podcast episode', 'review'],
    overlay: 'title',
  }),
  t({
    id: 'videonet_channel_banner',
    name: 'Channel banner',
    category: 'banner',
    platform: 'videonet',
    aspect: a('16:9', 2560, 1440, 'Channel art'),
    description: 'Channel art whose message sits in the central band every device shows.',
    recommended_provider: 'vendor_c',
    style_preset: 'cinematic',
    quality: 'premium',
    use_cases: ['channel branding', 'profile banner', 'personal branding'],
  }),
  t({
    id: 'adnet_display_landscape',
    name: 'Display ad landscape',
    category: 'advertising',
    platform: 'adnet_ads',
    aspect: a('1.91:1', 1200, 628, 'Responsive display, landscape'),
    description: 'A product-focused landscape image for responsive display ads; no text in the image.',
    recommended_provider: 'vendor_a',
    style_preset: 'photographic',
    quality: 'premium',
    use_cases: ['advertising', 'product photo', 'promotion', 'retargeting'],
  }),
  t({
    id: 'adnet_display_square',
    name: 'Display ad square',
    category: 'advertising',
    platform: 'adnet_ads',
    aspect: a('1:1', 1200, 1200, 'Responsive display, square'),
    description: 'A square ad image with a single clear subject.',
    recommended_provider: 'vendor_c',
    style_preset: 'photographic',
    quality: 'standard',
    use_cases: ['advertising', 'promotion', 'product photo'],
  }),
  t({
    id: 'blog_featured_image',
    name: 'Blog featured image',
    category: 'blog',
    platform: 'any',
    aspect: a('16:9', 1920, 1080, 'Featured image'),
    description: 'A wide hero image for the top of a blog post or newsletter.',
    recommended_provider: 'vendor_d',
    style_preset: 'digital-art',
    quality: 'standard',
    use_cases: ['blog header', 'newsletter', 'article illustration'],
  }),
  t({
    id: 'placeholder_card',
    name: 'Placeholder card',
    category: 'placeholder',
    platform: 'any',
    aspect: a('3:2', 1200, 800, 'Placeholder'),
    description: 'A quick abstract placeholder generated offline for drafts and mock-ups.',
    recommended_provider: 'local',
    style_preset: 'minimalist',
    quality: 'draft',
    use_cases: ['placeholder', 'mock-up', 'draft'],
  }),
]);

const copy = (x: Template): Template => ({ ...x, aspect_ratio: { ...x.aspect_ratio }, use_cases: [...x.use_cases] });

export const findTemplate = (id: string): Template | undefined => {
  const x = TEMPLATES.find((t) => t.id === id);
  return x && copy(x);
};

/** Templates of a platform and/or category (exact, case-insensitive); `any`-platform templates match every platform. */
export function listTemplates(filters: { platform?: string; category?: string } = {}): Template[] {
  const p = filters.platform?.toLowerCase();
  const c = filters.category?.toLowerCase();
  return TEMPLATES.filter((x) => (!p || x.platform === p || x.platform === 'any') && (!c || x.category === c)).map(
    copy,
  );
}

const words = (s: string): string[] => s.toLowerCase().match(/[a-z0-9]+/g) ?? [];

/**
 * Relevance of a template to a query: for every query word, 3 points when it
 * is a word of the name, 2 of a use case, 1 of the description or category
 * (a word counts as matching when one is a prefix of the other and both have
 * at least 3 letters), plus 4 when the whole query is a phrase of the name or
 * a use case. 0 = not relevant.
 */
export function relevance(x: Template, query: string): number {
  const q = words(query);
  if (!q.length) return 0;
  const match = (w: string, ws: string[]) =>
    ws.some((v) => v === w || (w.length >= 3 && v.length >= 3 && (v.startsWith(w) || w.startsWith(v))));
  const name = words(x.name);
  const uses = x.use_cases.flatMap(words);
  const rest = [...words(x.description), ...words(x.category), ...words(x.platform)];
  let score = 0;
  for (const w of q) score += match(w, name) ? 3 : match(w, uses) ? 2 : match(w, rest) ? 1 : 0;
  const phrase = q.join(' ');
  if (q.length > 1 && [x.name, ...x.use_cases].some((s) => words(s).join(' ').includes(phrase))) score += 4;
  return score;
}

/** Templates relevant to `query`, best first (ties keep catalogue order). */
export function searchTemplates(query: string): Template[] {
  return TEMPLATES.map((x, i) => ({ x, i, s: relevance(x, query) }))
    .filter((r) => r.s > 0)
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .map((r) => copy(r.x));
}

/**
 * Templates for a use case, best first: relevance of the use case, and when a
 * platform is given only that platform's templates and the `any` ones (the
 * platform's own first at equal relevance).
 */
export function recommendTemplates(useCase: string, platform?: string): Template[] {
  const p = platform?.toLowerCase();
  return TEMPLATES.map((x, i) => ({ x, i, s: relevance(x, useCase) }))
    .filter((r) => r.s > 0 && (!p || r.x.platform === p || r.x.platform === 'any'))
    .sort((a, b) => b.s - a.s || Number(b.x.platform === p) - Number(a.x.platform === p) || a.i - b.i)
    .map((r) => copy(r.x));
}
