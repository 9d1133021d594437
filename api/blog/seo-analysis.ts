/**
 * Blog writer SEO routes (Document 2, /api/blog/seo): SEO analysis and
 * metadata, with their schemas (the SEO result is shared with the general
 * analysis routes, api/analysis/routes.ts). Pure computation (domain/analysis).
 */
import { analyzeSeo, generateMetadata } from '../../domain/analysis';
import type { ResearchData } from '../../domain/analysis/types';
import { defineRoute, RouteDef } from '../kernel/registry';
import { allRequired, anyString, arr, bool, int, iso, num, ok, str, strings, withRequired } from '../kernel/schema';
import { contentField, limitContent, recordSeoAnalysis } from '../analysis/common';
import { researchDataSchema } from './schemas';

const tags = ['blog writer'];
const numMap = { type: 'object', additionalProperties: num };

/** Fallback when the app was built without a public base URL (tests); production sets PUBLIC_BASE_URL or HOST:PORT. */
const DEFAULT_BASE_URL = 'http://localhost';

// ---- SEO ----
const seoBody = withRequired(
  { content: contentField, blog_title: str(300), keywords: strings(20, 100), research_data: researchDataSchema },
  ['content'],
);
/** The id of a stored analysis (GET it back, compare it later: docs/analysis.md). */
export const analysisIdField = { type: 'string', description: 'The id of the stored analysis' } as const;
/** Character offsets into `content` (end exclusive). */
const span = { start: int, end: int };
/** One assessment's score 0-100 and its weight in seo_score (not applicable ones are left out of the score). */
export const assessmentScoreSchema = allRequired({ id: anyString, score: num, weight: num, applicable: bool });
/** domain/analysis/seo-types.ts `readability_details`: every readability formula, the raw counts, text statistics. */
const readabilityDetailsSchema = allRequired(
  {
    flesch_reading_ease: num,
    flesch_kincaid_grade: num,
    gunning_fog: num,
    coleman_liau: num,
    smog: num,
    automated_readability_index: num,
    dale_chall: num,
    consensus_grade: { ...num, description: 'Median of seven grade estimates' },
    counts: allRequired(
      {
        sentences: int,
        words: int,
        syllables: int,
        letters: { ...int, description: 'Letters and digits' },
        complexWords: { ...int, description: 'Gunning fog complex words' },
        polysyllables: { ...int, description: 'SMOG: words of 3+ syllables' },
        difficultWords: { ...int, description: 'Dale-Chall: words not on the familiar list' },
      },
      { description: 'The raw counts of the body sentences the formulas use' },
    ),
    reading_time_minutes: num,
    sentence_length: allRequired({ average_words: num, over_20_words_share: num }),
    passive_voice_share: num,
    transition_word_share: num,
  },
  { description: 'Extra: all readability formulas, the raw counts and the text statistics' },
);
export const seoResultSchema = allRequired({
  seo_score: num,
  density: allRequired({ primary_keywords: numMap, secondary_keywords: numMap }),
  structure: allRequired({
    heading_hierarchy: allRequired({
      is_valid: { ...bool, description: 'No skipped level and at most one H1' },
      headings: arr(allRequired({ level: int, text: anyString, ...span })),
      skipped_levels: arr(
        allRequired(
          { from: int, to: int, heading: anyString, ...span },
          {
            description: 'A heading deeper than the previous one + 1 (H2 -> H4)',
          },
        ),
      ),
      multiple_h1: bool,
    }),
    heading_distribution: allRequired({ h1: int, h2: int, h3: int }),
    paragraph_length: allRequired({ paragraphs: int, average_words: num, max_words: int, over_limit: int }),
    list_usage: allRequired({ lists: int, list_items: int, has_lists: bool }),
  }),
  readability: allRequired({
    flesch_reading_ease: num,
    flesch_kincaid_grade: num,
    gunning_fog: num,
    coleman_liau: num,
  }),
  link_suggestions: arr(
    allRequired({
      text: { type: 'string' },
      suggested_url: { type: 'string' },
      context: { type: 'string' },
      start: int,
      end: int,
    }),
  ),
  image_alt_status: allRequired({
    images_with_alt: int,
    images_without_alt: int,
    alt_text_quality: { enum: ['good', 'fair', 'poor', 'no_images'] },
  }),
  recommendations: arr(),
  findings: arr(
    allRequired({
      assessment: { type: 'string' },
      severity: { enum: ['problem', 'improvement'] },
      message: { type: 'string' },
      recommendation: { type: 'string' },
      start: int,
      end: int,
    }),
  ),
  readability_details: readabilityDetailsSchema,
  assessments: arr(assessmentScoreSchema),
  coherence: allRequired({
    subject: { type: 'string' },
    subject_source: { enum: ['given', 'text'] },
    topicality: num,
    sentences: int,
    judged_sentences: int,
    off_topic_sentences: int,
    other_terms: arr(),
    duplicate_sentences: int,
    repeated_4gram_share: num,
    score: num,
    capped: { type: 'boolean' },
    cap: { type: ['number', 'null'] },
    cap_reasons: arr({ enum: ['off_topic', 'repetitive'] }),
    uncapped_score: num,
  }),
});

// ---- metadata ----
const metadataBody = withRequired(
  {
    content: contentField,
    title: { type: 'string', minLength: 1, maxLength: 300 },
    keywords: strings(20, 100),
    research_data: researchDataSchema,
  },
  ['content', 'title'],
);
const metadataSchema = allRequired({
  success: ok,
  title_options: arr(),
  meta_descriptions: arr(),
  seo_title: { type: 'string' },
  meta_description: { type: 'string' },
  url_slug: { type: 'string' },
  blog_tags: arr(),
  blog_categories: arr(),
  social_hashtags: arr(),
  open_graph: allRequired({
    title: { type: 'string' },
    description: { type: 'string' },
    image: { type: ['string', 'null'] },
    url: { type: 'string' },
    type: { const: 'article' },
  }),
  twitter_card: allRequired({
    title: { type: 'string' },
    description: { type: 'string' },
    image: { type: ['string', 'null'] },
    card: { enum: ['summary', 'summary_large_image'] },
  }),
  json_ld_schema: withRequired(
    {
      '@context': { const: 'https://schema.org' },
      '@type': { const: 'BlogPosting' },
      headline: anyString,
      description: anyString,
      datePublished: iso,
      dateModified: iso,
      author: allRequired({ '@type': { enum: ['Person', 'Organization'] }, name: anyString }),
      image: arr(anyString),
      mainEntityOfPage: allRequired({ '@type': { const: 'WebPage' }, '@id': anyString }),
      url: anyString,
      keywords: { ...anyString, description: 'The blog tags, comma-separated' },
      wordCount: int,
      articleSection: { ...anyString, description: 'The first blog category, unless it is General' },
      publisher: allRequired({ '@type': { const: 'Organization' }, name: anyString }),
    },
    [
      '@context',
      '@type',
      'headline',
      'description',
      'datePublished',
      'dateModified',
      'author',
      'mainEntityOfPage',
      'url',
      'keywords',
      'wordCount',
    ],
    { description: 'schema.org BlogPosting (image only when the post has one)' },
  ),
  canonical_url: { type: 'string' },
  reading_time: num,
  focus_keyword: { type: 'string' },
  generated_at: { type: 'string', format: 'date-time' },
  optimization_score: num,
});

export const blogSeoRoutes: RouteDef[] = [
  defineRoute<{ content: string; blog_title?: string; keywords?: string[]; research_data?: ResearchData }>({
    method: 'post',
    path: '/api/blog/seo/analyze',
    auth: 'user',
    tags,
    successBody: 'bare',
    summary: 'SEO analysis of a blog post (score, keyword density, structure, readability, links, image alt text)',
    description:
      'seo_score is a weighted sum of assessments (docs/analysis.md), capped at 50 for an off-topic or repetitive text (`coherence`); every finding carries character offsets into `content`.',
    request: { body: seoBody },
    responses: {
      200: {
        description: 'The analysis',
        data: {
          ...seoResultSchema,
          properties: { success: ok, analysis_id: analysisIdField, ...seoResultSchema.properties },
          required: ['success', 'analysis_id', ...(seoResultSchema.required as string[])],
        },
      },
    },
    handler: async (ctx) => {
      limitContent({ content: ctx.body.content });
      const result = analyzeSeo(ctx.body);
      const analysis_id = await recordSeoAnalysis(
        ctx,
        '/api/blog/seo/analyze',
        result,
        ctx.body.keywords,
        ctx.body.content,
      );
      return { data: { success: true, analysis_id, ...result } };
    },
  }),
  defineRoute<{ content: string; title: string; keywords?: string[]; research_data?: ResearchData }>({
    method: 'post',
    path: '/api/blog/seo/metadata',
    auth: 'user',
    tags,
    successBody: 'bare',
    summary: 'SEO metadata: titles, meta descriptions, slug, tags, Open Graph, Twitter card, BlogPosting JSON-LD',
    description: 'The canonical URL is the API\'s public base URL (PUBLIC_BASE_URL) + "/" + slug.',
    request: { body: metadataBody },
    responses: { 200: { description: 'The metadata', data: metadataSchema } },
    handler: (ctx) => {
      limitContent({ content: ctx.body.content });
      return {
        data: {
          success: true,
          ...generateMetadata(ctx.body, { base_url: ctx.deps.publicBaseUrl ?? DEFAULT_BASE_URL, now: new Date() }),
        },
      };
    },
  }),
];
