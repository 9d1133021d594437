/** JSON Schemas of the blog writer's resources and routes (Document 2), used for validation and the OpenAPI document. */
import {
  allRequired,
  arr,
  asResponse,
  coverageSchema,
  httpUrl,
  int,
  named,
  nullable,
  num,
  str,
  strings,
  withRequired,
} from '../kernel/schema';
import { taskRecordFields } from '../kernel/task-catalogue';
import type { JsonSchema } from '../kernel/envelopes/common';

export const sourceSchema = {
  type: 'object',
  properties: {
    title: str(500),
    url: httpUrl(),
    excerpt: str(5000),
    credibility_score: nullable({
      type: 'number',
      minimum: 0,
      maximum: 1,
      description:
        'The credibility someone claims for the source (0-1): a web result by its domain; null when none is claimed (sample documents)',
    }),
    published_at: str(40),
    index: { type: 'integer', minimum: 0 },
    source_type: str(40, {
      description:
        'web, academic, industry, government; or sample: a sample document written for this platform (the offline research corpus), which is no published source',
    }),
    sample_of: str(40, { description: 'For sample documents: the kind of source the sample is written as' }),
  },
  required: ['title', 'url'],
};

export const personaSchema = {
  type: 'object',
  properties: { persona_id: str(100), tone: str(100), audience: str(300), industry: str(100) },
};

export const researchStartBody = {
  type: 'object',
  properties: {
    keywords: { ...strings(20, 100), default: [] },
    topic: { ...str(300), default: '' },
    industry: { ...str(100), default: '' },
    target_audience: { ...str(300), default: 'general readers' },
    tone: { ...str(100), default: 'professional' },
    word_count_target: { type: 'integer', minimum: 100, maximum: 10000, default: 1500 },
    persona: personaSchema,
  },
};

export const outlineStartBody = {
  type: 'object',
  properties: {
    research: {
      type: 'object',
      description: 'A Research result (at least its sources)',
      properties: {
        sources: { type: 'array', items: sourceSchema, maxItems: 50 },
        keyword_analysis: { type: 'object' },
        competitor_analysis: { type: 'object' },
        suggested_angles: strings(),
      },
      required: ['sources'],
      // The research task's result is sent on whole (success, search_queries, grounding_metadata...): not read.
      additionalProperties: true,
    },
    persona: personaSchema,
    word_count: { type: 'integer', minimum: 200, maximum: 10000, default: 1500 },
    custom_instructions: str(2000),
  },
  required: ['research'],
};

/** The two spellings of a medium section's fields: the spec's camelCase, and the outline's snake_case. */
export const MEDIUM_SPELLINGS = { keyPoints: 'key_points', targetWords: 'target_words' } as const;

const keyPoints = strings(30, 500);
const targetWords = { type: 'integer', minimum: 20, maximum: 1000 };
/**
 * Fields of an outline section that are answer annotations of other blog routes (outline/enhance-section,
 * outline/rebalance): accepted so their answers can be sent on as they are, and not used.
 */
const annotations = {
  enhancement_focus: str(200, { description: 'Answer annotation of outline/enhance-section; accepted, not used' }),
  improvements_made: strings(50, 1000, {
    description: 'Answer annotation of outline/enhance-section; accepted, not used',
  }),
  word_adjustment: { type: 'integer', description: 'Answer annotation of outline/rebalance; accepted, not used' },
};

export const mediumSectionSchema = {
  type: 'object',
  description:
    "A section in the spec's camelCase (keyPoints, targetWords) or exactly as the outline result returns it (key_points, target_words); one spelling per request. Unknown fields are refused.",
  properties: {
    id: { type: 'string', minLength: 1, maxLength: 100 },
    heading: { type: 'string', minLength: 1, maxLength: 300 },
    keyPoints,
    key_points: { ...keyPoints, description: 'keyPoints as the outline result spells it' },
    subheadings: strings(20, 300),
    keywords: strings(30, 100),
    targetWords,
    target_words: { ...targetWords, description: 'targetWords as the outline result spells it' },
    references: { type: 'array', items: sourceSchema, maxItems: 30 },
    ...annotations,
  },
  required: ['id', 'heading'],
  additionalProperties: false,
};

export const mediumStartBody = {
  type: 'object',
  properties: {
    title: { type: 'string', minLength: 1, maxLength: 300 },
    sections: { type: 'array', minItems: 1, maxItems: 12, items: mediumSectionSchema },
    persona: personaSchema,
    tone: str(100),
    audience: str(300),
    globalTargetWords: {
      type: 'integer',
      minimum: 50,
      maximum: 1000,
      description: 'Medium blogs are at most 1000 words',
    },
    researchKeywords: strings(30, 100),
  },
  required: ['title', 'sections'],
  additionalProperties: false,
};

export const taskIdParams = {
  type: 'object',
  properties: { task_id: { type: 'string', minLength: 1, maxLength: 200 } },
  required: ['task_id'],
};

export const startedSchema = {
  type: 'object',
  properties: { task_id: { type: 'string' }, status: { const: 'started' } },
  required: ['task_id', 'status'],
};

/**
 * A blog task as its status route answers it (`<Type>Status`): the kernel's task record without `task_type` (the
 * route names it), its result the spec's Research, Outline or medium result (`success: true` and the domain result).
 */
export const blogTaskRecord = (name: string, result: JsonSchema): JsonSchema =>
  named(`${name}Status`, {
    type: 'object',
    description: "The task; once completed, `result` is the spec's result of its kind",
    properties: taskRecordFields(result),
    required: ['task_id', 'status', 'created_at', 'progress_messages'],
  });

// ---- outline and research resources (outline and section routes, SEO analysis) ----
export const sectionIdSchema = { type: 'string', minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9._:-]+$' };

export const outlineSectionSchema = {
  type: 'object',
  properties: {
    id: sectionIdSchema,
    heading: { type: 'string', maxLength: 300 },
    subheadings: strings(20),
    key_points: strings(30, 500),
    references: { type: 'array', items: sourceSchema, maxItems: 30 },
    target_words: { type: 'integer', minimum: 0, maximum: 100000 },
    keywords: strings(30, 100),
    ...annotations,
  },
  required: ['id', 'heading'],
};

export const outlineSchema = { type: 'array', items: outlineSectionSchema, minItems: 1, maxItems: 50 };

export const researchDataSchema = {
  type: 'object',
  properties: {
    sources: { type: 'array', items: sourceSchema, maxItems: 100 },
    keyword_analysis: {
      type: 'object',
      properties: {
        primary_keywords: strings(30, 100),
        secondary_keywords: strings(50, 100),
        search_volume: { type: 'string' },
      },
    },
    competitor_analysis: { type: 'object' },
  },
  // The research task's result, sent on whole: fields beyond these are not read.
  additionalProperties: true,
};

/** The AI call behind a generated text (activities/ai-call.ts generationInfo; docs/providers.md). */
export const generationMetadataSchema = {
  type: 'object',
  description:
    'Extra: provider and model of the AI call; for llama also the model file size, who wrote the text (model, template or mixed) and what the quality gate refused',
  properties: {
    provider: { enum: ['vendor_a', 'vendor_b', 'llama', 'local'] },
    model: { type: 'string' },
    offline: { type: 'boolean' },
    tokens_in: { type: 'integer' },
    tokens_out: { type: 'integer' },
    model_size_bytes: { type: 'integer' },
    writer: { enum: ['model', 'template', 'mixed'] },
    model_writing: {
      type: 'object',
      properties: {
        writer: { enum: ['model', 'template', 'mixed'] },
        generations: { type: 'integer' },
        fields: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              path: { type: 'string' },
              mode: { enum: ['rewrite', 'write'] },
              form: { type: 'string' },
              units: { type: 'integer' },
              written: { type: 'integer' },
              unchanged: { type: 'integer' },
              rejected: { type: 'object', additionalProperties: { type: 'integer' } },
            },
            required: ['path', 'mode', 'units', 'written', 'unchanged', 'rejected'],
          },
        },
      },
      required: ['writer', 'generations', 'fields'],
    },
    fallback_reason: { type: 'string' },
    first_token_at: { type: 'integer', description: 'Epoch milliseconds of the first generated token' },
    time_to_first_token_ms: { type: 'integer' },
    generation_ms: { type: 'integer', description: 'Time the model spent generating' },
    coverage: coverageSchema,
  },
  required: ['provider', 'model', 'offline', 'tokens_in', 'tokens_out'],
};

// ---- results of the blog tasks (domain/blog/types.ts: ResearchResult, OutlineResult, MediumResult) ----
const texts = arr();
/** A source as results show it (no request bounds). */
export const sourceResult = named('Source', asResponse(sourceSchema));
const successTrue = { const: true, description: 'Always true (the spec names it)' };

/** The Research result (blog_research). */
export const researchResultSchema = withRequired(
  {
    success: successTrue,
    sources: { type: 'array', items: sourceResult },
    keyword_analysis: allRequired({
      primary_keywords: texts,
      secondary_keywords: texts,
      search_volume: { type: 'string' },
    }),
    competitor_analysis: withRequired(
      {
        top_competitors: texts,
        content_gaps: texts,
        opportunities: texts,
        note: { type: 'string', description: 'Why top_competitors is empty (every source is a sample document)' },
      },
      ['top_competitors', 'content_gaps', 'opportunities'],
    ),
    suggested_angles: texts,
    search_queries: texts,
    grounding_metadata: allRequired({
      grounding_chunks: {
        type: 'array',
        items: allRequired({ title: { type: 'string' }, url: { type: 'string' }, confidence_score: num }),
      },
      web_search_queries: { ...texts, description: 'Empty when no web search ran' },
    }),
  },
  [
    'success',
    'sources',
    'keyword_analysis',
    'competitor_analysis',
    'suggested_angles',
    'search_queries',
    'grounding_metadata',
  ],
);

/** An outline section as the outline task returns it (send `result.outline` as the medium request's `sections`). */
export const outlineSectionResult = named(
  'OutlineSection',
  allRequired({
    id: { type: 'string' },
    heading: { type: 'string' },
    subheadings: texts,
    key_points: texts,
    references: { type: 'array', items: sourceResult },
    target_words: int,
    keywords: texts,
  }),
);

/** The Outline result (blog_outline). */
export const outlineResultSchema = withRequired(
  {
    success: successTrue,
    title_options: texts,
    outline: { type: 'array', items: outlineSectionResult },
    source_mapping_stats: allRequired({
      total_sources_mapped: int,
      coverage_percentage: num,
      average_relevance_score: { type: ['number', 'null'] },
      high_confidence_mappings: int,
    }),
    grounding_insights: allRequired({
      confidence_analysis: allRequired({
        high_confidence_sources: int,
        medium_confidence_sources: int,
        low_confidence_sources: int,
        unrated_sources: int,
      }),
      authority_analysis: allRequired({
        academic_sources: int,
        industry_sources: int,
        government_sources: int,
        sample_sources: int,
      }),
    }),
    optimization_results: allRequired({
      overall_quality_score: num,
      improvements_made: texts,
      optimization_focus: { type: 'string' },
    }),
    research_coverage: allRequired({
      sources_utilized: int,
      content_gaps_identified: int,
      competitive_advantages: texts,
    }),
    metadata: generationMetadataSchema,
  },
  [
    'success',
    'title_options',
    'outline',
    'source_mapping_stats',
    'grounding_insights',
    'optimization_results',
    'research_coverage',
  ],
);

/** The medium blog result (blog_medium). */
export const mediumResultSchema = allRequired({
  success: successTrue,
  title: { type: 'string' },
  sections: {
    type: 'array',
    items: withRequired(
      {
        id: { type: 'string' },
        heading: { type: 'string' },
        content: { type: 'string' },
        wordCount: int,
        sources: { type: 'array', items: sourceResult },
        metadata: generationMetadataSchema,
      },
      ['id', 'heading', 'content', 'wordCount', 'sources'],
    ),
  },
  total_words: int,
});
