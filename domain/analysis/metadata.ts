/**
 * SEO metadata for a blog post: the body of POST /api/blog/seo/metadata.
 *
 * Pure: the clock (`now`) and the site's base URL come in as options, so
 * the same input always yields the same output.
 */
import { buildDocument, bodySentences, countWords } from './text';
import { resolveKeywords } from './seo-keywords';
import { mentions } from './word-forms';
import { slugify, MAX_SLUG_LENGTH } from './slug';
import { fitsTitleWidth, truncateToWidth } from './pixel-width';
import {
  META_MAX,
  META_MIN,
  blogCategories,
  blogTags,
  hashtags,
  metaDescriptions,
  titleOptions,
  topTerms,
} from './metadata-text';
import { READING_WPM } from './readability';
import { extractLinksAndImages } from './links';
import { AnalysisInputError } from './errors';
import { ResearchData } from './types';

export interface MetadataInput {
  content: string;
  title: string;
  keywords?: string[];
  research_data?: ResearchData;
}

export interface MetadataOptions {
  /** Site/blog base URL, e.g. "https://example.com/blog"; the canonical URL is base + "/" + slug. */
  base_url: string;
  /** Generation time (ISO string, epoch ms or Date). */
  now: Date | string | number;
  /** Social/cover image; defaults to the first image in the content. */
  image_url?: string;
  author?: string;
  publisher?: string;
  /** Defaults to `now`. */
  published_at?: string;
}

export interface BlogPostingJsonLd {
  '@context': 'https://schema.org';
  '@type': 'BlogPosting';
  headline: string;
  description: string;
  datePublished: string;
  dateModified: string;
  author: { '@type': 'Person' | 'Organization'; name: string };
  image?: string[];
  mainEntityOfPage: { '@type': 'WebPage'; '@id': string };
  url: string;
  keywords: string;
  wordCount: number;
  articleSection?: string;
  publisher?: { '@type': 'Organization'; name: string };
}

export interface MetadataResult {
  title_options: string[];
  meta_descriptions: string[];
  seo_title: string;
  meta_description: string;
  url_slug: string;
  blog_tags: string[];
  blog_categories: string[];
  social_hashtags: string[];
  open_graph: { title: string; description: string; image: string | null; url: string; type: 'article' };
  twitter_card: { title: string; description: string; image: string | null; card: 'summary' | 'summary_large_image' };
  json_ld_schema: BlogPostingJsonLd;
  canonical_url: string;
  reading_time: number;
  focus_keyword: string;
  generated_at: string;
  optimization_score: number;
}

export const HEADLINE_MAX = 110;

function toIso(now: MetadataOptions['now']): string {
  const d = now instanceof Date ? now : new Date(now);
  if (Number.isNaN(d.getTime())) throw new AnalysisInputError('now', 'now must be a valid date');
  return d.toISOString();
}

function headline(text: string): string {
  if (text.length <= HEADLINE_MAX) return text;
  const cut = text.slice(0, HEADLINE_MAX);
  const at = cut.lastIndexOf(' ');
  return (at > 40 ? cut.slice(0, at) : cut).replace(/[\s,;:–—-]+$/, '');
}

function absolute(src: string, base: string): string | null {
  if (/^https?:\/\//i.test(src)) return src;
  if (src.startsWith('/')) return (/^https?:\/\/[^/]+/i.exec(base)?.[0] ?? '') + src;
  return null;
}

export function generateMetadata(input: MetadataInput, options: MetadataOptions): MetadataResult {
  const base = (options.base_url ?? '').trim().replace(/\/+$/, '');
  if (!/^https?:\/\/[^/\s]+/i.test(base))
    throw new AnalysisInputError('base_url', 'base_url must be an absolute http(s) URL');
  const generatedAt = toIso(options.now);
  const content = input.content ?? '';
  const title = (input.title ?? '').trim();
  const doc = buildDocument(content);
  const sets = resolveKeywords(input.keywords, input.research_data);
  const focus = sets.primary[0] ?? topTerms(doc, 1)[0] ?? '';
  const words = countWords(bodySentences(doc));

  const titles = titleOptions(title, focus, doc, new Date(generatedAt).getUTCFullYear());
  const seoTitle = titles.find((t) => mentions(t, focus)) ?? truncateToWidth(title || titles[0] || focus);
  const descriptions = metaDescriptions(doc, focus);
  const description = descriptions[0] ?? '';
  const slug = slugify(title || focus);
  const canonical = slug ? `${base}/${slug}` : base;
  const tags = blogTags(doc, focus, sets.secondary);
  const categories = blogCategories(doc);
  const { images } = extractLinksAndImages(content, doc.blocks);
  const firstImage = images.map((i) => absolute(i.src, base)).find((s): s is string => s !== null);
  const image = options.image_url ?? firstImage ?? null;

  const jsonLd: BlogPostingJsonLd = {
    '@context': 'https://schema.org',
    '@type': 'BlogPosting',
    headline: headline(title || seoTitle),
    description,
    datePublished: options.published_at ?? generatedAt,
    dateModified: generatedAt,
    author: options.author
      ? { '@type': 'Person', name: options.author }
      : { '@type': 'Organization', name: options.publisher ?? 'Editorial Team' },
    ...(image ? { image: [image] } : {}),
    mainEntityOfPage: { '@type': 'WebPage', '@id': canonical },
    url: canonical,
    keywords: tags.join(', '),
    wordCount: words,
    ...(categories[0] && categories[0] !== 'General' ? { articleSection: categories[0] } : {}),
    ...(options.publisher ? { publisher: { '@type': 'Organization', name: options.publisher } } : {}),
  };

  const firstPara = doc.blocks.find((b) => b.kind === 'paragraph');
  // optimization_score: a checklist, weights documented in docs/analysis.md
  const checks: Array<[number, boolean]> = [
    [15, focus !== '' && mentions(seoTitle, focus)],
    [15, seoTitle !== '' && fitsTitleWidth(seoTitle)],
    [20, description.length >= META_MIN && description.length <= META_MAX && mentions(description, focus)],
    [15, slug !== '' && slug.length <= MAX_SLUG_LENGTH && focus !== '' && mentions(slug.replace(/-/g, ' '), focus)],
    [10, image !== null],
    [15, words >= 300],
    [10, firstPara !== undefined && focus !== '' && mentions(firstPara.text, focus)],
  ];

  return {
    title_options: titles,
    meta_descriptions: descriptions,
    seo_title: seoTitle,
    meta_description: description,
    url_slug: slug,
    blog_tags: tags,
    blog_categories: categories,
    social_hashtags: hashtags(tags),
    open_graph: { title: seoTitle, description, image, url: canonical, type: 'article' },
    twitter_card: { title: seoTitle, description, image, card: image ? 'summary_large_image' : 'summary' },
    json_ld_schema: jsonLd,
    canonical_url: canonical,
    reading_time: Math.max(1, Math.ceil(words / READING_WPM)),
    focus_keyword: focus,
    generated_at: generatedAt,
    optimization_score: checks.reduce((s, [w, ok]) => s + (ok ? w : 0), 0),
  };
}
