/**
 * Blog writer analysis routes (Document 2, /api/blog): SEO analysis and
 * metadata, flow analysis, hallucination check, outline refine and
 * rebalance. Pure computation (domain/analysis) called directly (rule 1 of
 * ARCHITECTURE.md). Success bodies are the spec's fields themselves
 * (`successBody: 'bare'`); errors use the general envelope.
 */
import {
  analyzeFlowAdvanced,
  analyzeFlowBasic,
  analyzeSeo,
  checkClaims,
  generateMetadata,
  rebalanceOutline,
  refineOutline,
} from '../../domain/analysis';
import { REFINE_OPERATIONS } from '../../domain/analysis/outline';
import type { FlowInput, RefineInput } from '../../domain/analysis';
import type { OutlineSection, ResearchData } from '../../domain/analysis/types';
import { ValidationError } from '../../domain/errors';
import { defineRoute, RouteDef } from '../kernel/registry';
import { arr, bool, httpUrl, int, iso, num, obj, ok, str, strings } from '../kernel/schema';
import { contentField, limitContent, recordSeoAnalysis, timed } from '../analysis/common';
import { outlineSchema, researchDataSchema, sectionIdSchema } from './schemas';
import { refuseCamelSpelling } from '../../domain/blog/types';

const tags = ['blog writer'];
const numMap = { type: 'object', additionalProperties: num };

/** Fallback when the app was built without a public base URL (tests); production sets PUBLIC_BASE_URL or HOST:PORT. */
const DEFAULT_BASE_URL = 'http://localhost';

// ---- SEO ----
const seoBody = obj(
  { content: contentField, blog_title: str(300), keywords: strings(20, 100), research_data: researchDataSchema },
  ['content'],
);
/** The id of a stored analysis (GET it back, compare it later: docs/analysis.md). */
export const analysisIdField = { type: 'string', description: 'The id of the stored analysis' } as const;
const string = { type: 'string' };
/** Character offsets into `content` (end exclusive). */
const span = { start: int, end: int };
/** One assessment's score 0-100 and its weight in seo_score (not applicable ones are left out of the score). */
export const assessmentScoreSchema = obj({ id: string, score: num, weight: num, applicable: bool });
/** domain/analysis/seo-types.ts `readability_details`: every readability formula, the raw counts, text statistics. */
const readabilityDetailsSchema = obj(
  {
    flesch_reading_ease: num,
    flesch_kincaid_grade: num,
    gunning_fog: num,
    coleman_liau: num,
    smog: num,
    automated_readability_index: num,
    dale_chall: num,
    consensus_grade: { ...num, description: 'Median of seven grade estimates' },
    counts: obj(
      {
        sentences: int,
        words: int,
        syllables: int,
        letters: { ...int, description: 'Letters and digits' },
        complexWords: { ...int, description: 'Gunning fog complex words' },
        polysyllables: { ...int, description: 'SMOG: words of 3+ syllables' },
        difficultWords: { ...int, description: 'Dale-Chall: words not on the familiar list' },
      },
      undefined,
      { description: 'The raw counts of the body sentences the formulas use' },
    ),
    reading_time_minutes: num,
    sentence_length: obj({ average_words: num, over_20_words_share: num }),
    passive_voice_share: num,
    transition_word_share: num,
  },
  undefined,
  { description: 'Extra: all readability formulas, the raw counts and the text statistics' },
);
export const seoResultSchema = obj({
  seo_score: num,
  density: obj({ primary_keywords: numMap, secondary_keywords: numMap }),
  structure: obj({
    heading_hierarchy: obj({
      is_valid: { ...bool, description: 'No skipped level and at most one H1' },
      headings: arr(obj({ level: int, text: string, ...span })),
      skipped_levels: arr(
        obj({ from: int, to: int, heading: string, ...span }, undefined, {
          description: 'A heading deeper than the previous one + 1 (H2 -> H4)',
        }),
      ),
      multiple_h1: bool,
    }),
    heading_distribution: obj({ h1: int, h2: int, h3: int }),
    paragraph_length: obj({ paragraphs: int, average_words: num, max_words: int, over_limit: int }),
    list_usage: obj({ lists: int, list_items: int, has_lists: bool }),
  }),
  readability: obj({ flesch_reading_ease: num, flesch_kincaid_grade: num, gunning_fog: num, coleman_liau: num }),
  link_suggestions: arr(
    obj({
      text: { type: 'string' },
      suggested_url: { type: 'string' },
      context: { type: 'string' },
      start: int,
      end: int,
    }),
  ),
  image_alt_status: obj({
    images_with_alt: int,
    images_without_alt: int,
    alt_text_quality: { enum: ['good', 'fair', 'poor', 'no_images'] },
  }),
  recommendations: arr(),
  findings: arr(
    obj({
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
  coherence: obj({
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
const metadataBody = obj(
  {
    content: contentField,
    title: { type: 'string', minLength: 1, maxLength: 300 },
    keywords: strings(20, 100),
    research_data: researchDataSchema,
  },
  ['content', 'title'],
);
const metadataSchema = obj({
  success: ok,
  title_options: arr(),
  meta_descriptions: arr(),
  seo_title: { type: 'string' },
  meta_description: { type: 'string' },
  url_slug: { type: 'string' },
  blog_tags: arr(),
  blog_categories: arr(),
  social_hashtags: arr(),
  open_graph: obj({
    title: { type: 'string' },
    description: { type: 'string' },
    image: { type: ['string', 'null'] },
    url: { type: 'string' },
    type: { const: 'article' },
  }),
  twitter_card: obj({
    title: { type: 'string' },
    description: { type: 'string' },
    image: { type: ['string', 'null'] },
    card: { enum: ['summary', 'summary_large_image'] },
  }),
  json_ld_schema: obj(
    {
      '@context': { const: 'https://schema.org' },
      '@type': { const: 'BlogPosting' },
      headline: string,
      description: string,
      datePublished: iso,
      dateModified: iso,
      author: obj({ '@type': { enum: ['Person', 'Organization'] }, name: string }),
      image: arr(string),
      mainEntityOfPage: obj({ '@type': { const: 'WebPage' }, '@id': string }),
      url: string,
      keywords: { ...string, description: 'The blog tags, comma-separated' },
      wordCount: int,
      articleSection: { ...string, description: 'The first blog category, unless it is General' },
      publisher: obj({ '@type': { const: 'Organization' }, name: string }),
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

// ---- flow ----
const flowSection = (withTarget: boolean) =>
  obj(
    {
      id: sectionIdSchema,
      heading: str(300),
      content: { type: 'string' },
      ...(withTarget ? { target_words: { type: 'integer', minimum: 0, maximum: 100000 } } : {}),
    },
    ['id', 'content'],
  );
const flowBody = (advanced: boolean) => ({
  type: 'object',
  description: 'Give `content` (cut at its headings) or `sections` (used as given); at least one.',
  properties: {
    content: contentField,
    sections: { type: 'array', items: flowSection(advanced), maxItems: 100 },
    target_audience: str(300),
    tone: str(100),
    ...(advanced ? { detailed_analysis: { type: 'boolean', default: true } } : {}),
  },
});
const dimension = obj({ score: num, issues: arr(), suggestions: arr() });
const basicFlowSchema = obj({
  success: ok,
  overall_flow_score: num,
  section_flow_scores: numMap,
  flow_analysis: obj({ transitions: dimension, coherence: dimension, engagement: dimension }),
  recommendations: arr(),
  analysis_type: { const: 'basic' },
  processing_time_ms: int,
});
const sectionDetail = obj({
  flow_score: num,
  readability_score: num,
  engagement_score: num,
  coherence_score: num,
  transition_score: num,
  issues: arr(),
  strengths: arr(),
  suggestions: arr(),
});
const advancedFlowSchema = obj({
  success: ok,
  overall_flow_score: num,
  detailed_section_analysis: { type: 'object', additionalProperties: sectionDetail },
  cross_section_analysis: obj({
    overall_coherence: num,
    transition_quality: num,
    thematic_consistency: num,
    progression_logic: num,
  }),
  recommendations: arr(),
  analysis_type: { const: 'advanced' },
  processing_time_ms: int,
});

// ---- hallucination check ----
export const claimSourceSchema = obj({ title: str(500), url: httpUrl(), excerpt: str(20000) }, [
  'title',
  'url',
  'excerpt',
]);
const checkOptionsSchema = {
  type: 'object',
  properties: {
    verify_statistics: { type: 'boolean', default: true, description: 'false: number disagreements are ignored' },
    check_claims: { type: 'boolean', default: true, description: 'false: only claims with numbers or dates' },
    validate_sources: {
      type: 'boolean',
      default: true,
      description: 'sources need an http(s) url and a non-empty excerpt',
    },
    confidence_threshold: { type: 'number', minimum: 0, maximum: 1, default: 0.6 },
  },
  default: {},
};
export const claimResultSchema = obj(
  {
    claim: { type: 'string' },
    confidence: num,
    verification_status: { enum: ['verified', 'unverified', 'contradicted'] },
    supporting_sources: arr(obj({ title: { type: 'string' }, url: { type: 'string' }, relevance_score: num })),
    recommendation: { type: 'string' },
    start: int,
    end: int,
    claim_types: arr(),
    evidence: obj({ title: string, url: string, passage: string }, undefined, {
      description: 'The source passage that decided the label; absent when no passage did',
    }),
  },
  ['claim', 'confidence', 'verification_status', 'supporting_sources', 'start', 'end', 'claim_types'],
);
export const claimCheckFields = {
  overall_confidence: num,
  hallucination_analysis: obj({
    total_claims: int,
    verified_claims: int,
    unverified_claims: int,
    potential_hallucinations: int,
  }),
  claim_analysis: arr(claimResultSchema),
  recommendations: arr(),
};

// ---- outline ----
const outlineResultSchema = arr(obj({ id: { type: 'string' }, heading: { type: 'string' } }));
const refineSchema = obj({
  success: ok,
  title_options: arr(),
  outline: outlineResultSchema,
  optimization_results: obj({
    overall_quality_score: num,
    improvements_made: arr(),
    optimization_focus: { type: 'string' },
  }),
});
const rebalanceSchema = obj({
  success: ok,
  outline: arr(obj({ id: { type: 'string' }, heading: { type: 'string' }, target_words: int, word_adjustment: int })),
  rebalancing_summary: obj({
    total_target_words: int,
    original_total: int,
    rebalanced_total: int,
    adjustments_made: arr(
      obj({
        section_id: string,
        heading: string,
        original_target_words: { ...int, description: '0 when the section had no target_words' },
        new_target_words: int,
        word_adjustment: int,
      }),
      { description: 'The sections whose target_words changed' },
    ),
  }),
});

/** Refuses a body with neither content nor sections (said in prose, not as an anyOf: fuzzers and readers take it better) and content over the limit. */
function flowContent(b: FlowInput): void {
  if (b.content === undefined && b.sections === undefined) {
    throw new ValidationError([
      { location: 'body', path: 'content', kind: 'missing', message: 'give content or sections (at least one)' },
    ]);
  }
  limitContent({ content: b.content, sections: (b.sections ?? []).map((s) => s.content).join('') });
}

export const blogAnalysisRoutes: RouteDef[] = [
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
  defineRoute<FlowInput>({
    method: 'post',
    path: '/api/blog/flow-analysis/basic',
    auth: 'user',
    tags,
    successBody: 'bare',
    summary: 'Flow analysis: transitions, coherence and engagement per section',
    description:
      'Sections are the given `sections` (ids unique), else `content` cut at its headings (ids section-1, section-2, …; text before the first heading is `intro`). Each section scores 0.35 coherence + 0.35 transition + 0.3 engagement (0-100), keyed by id in section_flow_scores; overall_flow_score is their mean, and issues name sections as "Heading" (id). Pure and offline (docs/analysis.md "Flow analysis"); POST /api/blog/flow-analysis/advanced adds per-section detail. Neither content nor sections: 400; content over 100,000 characters: 413.',
    request: { body: flowBody(false) },
    responses: {
      200: { description: 'Scores 0-100, issues and suggestions naming the sections', data: basicFlowSchema },
    },
    handler: (ctx) => {
      flowContent(ctx.body);
      const { value, ms } = timed(() => analyzeFlowBasic(ctx.body));
      return { data: { success: true, ...value, processing_time_ms: ms } };
    },
  }),
  defineRoute<FlowInput & { detailed_analysis?: boolean }>({
    method: 'post',
    path: '/api/blog/flow-analysis/advanced',
    auth: 'user',
    tags,
    successBody: 'bare',
    summary: 'Advanced flow analysis: per-section detail and cross-section analysis',
    description:
      'Sections may carry target_words (word count off by more than 25 % is an issue). detailed_analysis false keeps 2 items per list.',
    request: { body: flowBody(true) },
    responses: { 200: { description: 'Per-section detail and cross-section scores', data: advancedFlowSchema } },
    handler: (ctx) => {
      flowContent(ctx.body);
      const { value, ms } = timed(() => analyzeFlowAdvanced(ctx.body));
      return { data: { success: true, ...value, processing_time_ms: ms } };
    },
  }),
  defineRoute<{
    content: string;
    sources?: Array<{ title: string; url: string; excerpt: string }>;
    check_options?: Record<string, unknown>;
  }>({
    method: 'post',
    path: '/api/blog/hallucination/check',
    auth: 'user',
    tags,
    successBody: 'bare',
    summary: 'Claim checking against the given sources (BM25 retrieval, fact agreement)',
    description:
      'Each claim is labelled verified, unverified or contradicted (a number or date that disagrees with the best source). Offline; no vendor is called.',
    request: {
      body: obj(
        {
          content: contentField,
          sources: { type: 'array', items: claimSourceSchema, maxItems: 100, default: [] },
          check_options: checkOptionsSchema,
        },
        ['content'],
      ),
    },
    responses: {
      200: {
        description: 'Claims with labels, confidence and supporting sources',
        data: obj({ success: ok, ...claimCheckFields, processing_time_ms: int }),
      },
    },
    handler: (ctx) => {
      limitContent({ content: ctx.body.content });
      const { value, ms } = timed(() =>
        checkClaims(ctx.body.content, ctx.body.sources ?? [], ctx.body.check_options ?? {}),
      );
      return { data: { success: true, ...value, processing_time_ms: ms } };
    },
  }),
  defineRoute<RefineInput>({
    method: 'post',
    path: '/api/blog/outline/refine',
    auth: 'user',
    tags,
    successBody: 'bare',
    summary: 'Refine an outline: add, remove, move, merge, split, rename or reorder sections',
    description:
      'Payload per operation in docs/analysis.md ("Refine"). Unknown section ids: 400 naming section_id or the payload field.',
    request: {
      body: obj(
        {
          outline: outlineSchema,
          operation: { enum: [...REFINE_OPERATIONS] },
          section_id: sectionIdSchema,
          payload: {
            type: 'object',
            default: {},
            description:
              'e.g. section, position, to_index, after_section_id, with_section_id, parts, headings, heading, order, focus, title',
          },
        },
        ['outline', 'operation'],
      ),
    },
    responses: { 200: { description: 'The refined outline (input not modified)', data: refineSchema } },
    handler: (ctx) => {
      refuseCamelSpelling(ctx.body.outline, (i) => `outline.${i}`);
      return { data: { success: true, ...refineOutline(ctx.body) } };
    },
  }),
  defineRoute<{ outline: OutlineSection[] }, { target_words: number }>({
    method: 'post',
    path: '/api/blog/outline/rebalance',
    auth: 'user',
    tags,
    successBody: 'bare',
    summary: 'Spread a word budget over the sections in proportion to their targets (sums exactly)',
    description:
      "The budget is the query parameter target_words (default 1500). Sections without target_words weigh as the mean of those that have one (equal shares when none has); the shares are rounded by largest remainder, so they sum exactly to the budget. Each section comes back with its new target_words and word_adjustment (new − old, old missing = 0); rebalancing_summary.adjustments_made lists the changed sections. Pure: the input is not modified and nothing is stored. Duplicate section ids, or keyPoints/targetWords (the medium route's spelling) in a section: 400.",
    request: {
      body: obj({ outline: outlineSchema }),
      query: obj({ target_words: { type: 'integer', minimum: 0, maximum: 1000000, default: 1500 } }, []),
    },
    responses: {
      200: { description: 'Outline with word_adjustment per section and a summary', data: rebalanceSchema },
    },
    handler: (ctx) => {
      refuseCamelSpelling(ctx.body.outline, (i) => `outline.${i}`);
      return { data: { success: true, ...rebalanceOutline(ctx.body.outline, ctx.query.target_words) } };
    },
  }),
];
