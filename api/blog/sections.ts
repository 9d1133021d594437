/**
 * Blog writer routes that spend vendor budget (Document 2, /api/blog):
 * outline enhance-section and optimize, section generate and optimize. Each
 * executes a workflow (workflows/blog-sync.ts) and answers with its result
 * (rule 1 of ARCHITECTURE.md). Generating or optimizing a section records its
 * continuity metrics as an event; the continuity read comes from the
 * section-continuity projection, which the write routes wait for.
 */
import { randomUUID } from 'node:crypto';
import { NotFoundError, ValidationError } from '../../domain/errors';
import type { OutlineSection } from '../../domain/analysis/types';
import { refuseCamelSpelling, type Persona } from '../../domain/blog/types';
import { getSectionContinuity } from '../../projections/section-continuity';
import {
  blogEnhanceSectionWorkflow,
  blogOptimizeOutlineWorkflow,
  blogSectionGenerateWorkflow,
  blogSectionOptimizeWorkflow,
} from '../../workflows';
import { defineRoute, RouteDef } from '../kernel/registry';
import { settle, userIdOf } from '../kernel/handler';
import { allRequired, arr, asResponse, num, str, strings, withRequired } from '../kernel/schema';
import { runMeteredWorkflow } from '../kernel/tasks';
import { contentField, limitContent } from '../analysis/common';
import {
  generationMetadataSchema,
  outlineSchema,
  outlineSectionSchema,
  personaSchema,
  sectionIdSchema,
  sourceResult,
} from './schemas';
import { PROVIDER_CHOICES, ProviderChoiceName } from '../../domain/generation/model-plan';

const tags = ['blog writer'];
/** What a route that runs a workflow may answer besides its success (failure codes of domain/failures.ts). */
const workflowErrors = {
  502: 'The AI vendor failed or refused the request (the failure code is in details)',
  503: 'The workflow service (Temporal) cannot be reached, or the provider asked for is not configured (the message names the variable to set)',
};
/** Workflow id of one synchronous blog edit: `blog-<kind>-<uuid>`. */
const jobId = (kind: string) => `blog-${kind}-${randomUUID()}`;

/** Section generation modes: `draft` = one writing call; `polished` = the draft plus one revision call (readability and flow). */
export const SECTION_MODES = ['draft', 'polished'] as const;
/** Body words of a generated section when the section has no target_words. */
export const DEFAULT_SECTION_WORDS = 300;
export const MAX_SECTION_WORDS = 2000;

const metricsSchema = allRequired({
  word_count: { type: 'integer' },
  readability_score: num,
  keyword_density: num,
  citation_coverage: num,
  flow_score: num,
});
const fullMetricsSchema = allRequired({ ...metricsSchema.properties, coherence_score: num, engagement_score: num });
const scores = allRequired({ engagement_score: num, readability_score: num, clarity_score: num });
/**
 * A section of an optimized outline: the input section with the provider's fields over it (same id; the provider
 * answers at least id and heading, and target_words as a number that need not be whole).
 */
const optimizedSectionSchema = asResponse({
  ...outlineSectionSchema,
  properties: { ...outlineSectionSchema.properties, target_words: num },
});

export const blogSectionRoutes: RouteDef[] = [
  defineRoute<OutlineSection, { focus: string }>({
    method: 'post',
    errors: workflowErrors,
    path: '/api/blog/outline/enhance-section',
    auth: 'user',
    tags,
    successBody: 'bare',
    summary: 'Enhance one outline section (AI provider, through a workflow)',
    description:
      'Body: one Outline section. `focus` is free text; the offline provider reacts to the cues "example", "evidence"/"data", "reader"/"audience" (docs/api.md).',
    request: {
      body: outlineSectionSchema,
      query: withRequired(
        { focus: { type: 'string', minLength: 1, maxLength: 200, default: 'general improvement' } },
        [],
      ),
    },
    responses: {
      200: {
        description: 'The section plus enhancement_focus and improvements_made',
        data: asResponse({
          ...outlineSectionSchema,
          properties: {
            ...outlineSectionSchema.properties,
            enhancement_focus: { type: 'string' },
            improvements_made: arr(),
          },
        }),
      },
    },
    handler: async (ctx) => {
      refuseCamelSpelling([ctx.body], () => '');
      const e = await runMeteredWorkflow(ctx, blogEnhanceSectionWorkflow, {
        workflowId: jobId('enhance-section'),
        userId: userIdOf(ctx),
        args: [{ userId: userIdOf(ctx), request: { section: ctx.body, focus: ctx.query.focus } }],
      });
      return {
        data: {
          ...ctx.body,
          heading: e.heading,
          subheadings: e.subheadings,
          key_points: e.key_points,
          keywords: e.keywords,
          enhancement_focus: ctx.query.focus,
          improvements_made: e.improvements_made,
        },
      };
    },
  }),
  defineRoute<{ outline: OutlineSection[] }, { focus: string }>({
    method: 'post',
    errors: workflowErrors,
    path: '/api/blog/outline/optimize',
    auth: 'user',
    tags,
    successBody: 'bare',
    summary: 'Optimize a whole outline (AI provider, through a workflow)',
    description:
      'Runs one AI call (through a workflow, answered when it finishes) that rewords the outline for `focus` (query, default "general optimization") and keeps every section id; what the provider leaves out of a section (references, …) is kept from the input, in the order the provider answers. overall_quality_score (0-100: section count, key points, balanced targets, headings; docs/analysis.md) is measured on the result. The offline provider applies fixed rules (docs/api.md). Duplicate section ids: 400; a provider answer whose section ids differ from the input fails the call.',
    request: {
      body: allRequired({ outline: outlineSchema }),
      query: withRequired(
        { focus: { type: 'string', minLength: 1, maxLength: 200, default: 'general optimization' } },
        [],
      ),
    },
    responses: {
      200: {
        description: 'The optimized outline and a summary',
        data: allRequired({
          outline: arr(optimizedSectionSchema),
          optimization_summary: allRequired({
            focus_area: { type: 'string' },
            improvements_made: arr(),
            overall_quality_score: num,
          }),
        }),
      },
    },
    handler: async (ctx) => {
      refuseCamelSpelling(ctx.body.outline, (i) => `outline.${i}`);
      const ids = new Set<string>();
      ctx.body.outline.forEach((s, i) => {
        if (ids.has(s.id))
          throw new ValidationError([
            {
              location: 'body',
              path: `outline.${i}.id`,
              kind: 'constraint',
              message: `duplicate section id "${s.id}"`,
            },
          ]);
        ids.add(s.id);
      });
      const r = await runMeteredWorkflow(ctx, blogOptimizeOutlineWorkflow, {
        workflowId: jobId('outline-optimize'),
        userId: userIdOf(ctx),
        args: [{ userId: userIdOf(ctx), request: { outline: ctx.body.outline, focus: ctx.query.focus } }],
      });
      return {
        data: {
          outline: r.outline,
          optimization_summary: {
            focus_area: ctx.query.focus,
            improvements_made: r.improvements_made,
            overall_quality_score: r.overall_quality_score,
          },
        },
      };
    },
  }),
  defineRoute<{
    section: OutlineSection;
    keywords: string[];
    tone?: string;
    persona?: Persona;
    mode: (typeof SECTION_MODES)[number];
    provider: ProviderChoiceName;
  }>({
    method: 'post',
    errors: workflowErrors,
    path: '/api/blog/section/generate',
    auth: 'user',
    tags,
    successBody: 'bare',
    summary: 'Write one section in Markdown with [n] citations, and record its continuity metrics',
    description: `Length: section.target_words (default ${DEFAULT_SECTION_WORDS}, at most ${MAX_SECTION_WORDS}). Sources: section.references, else the research provider's best 3 for the heading and keywords. Modes: draft (one call), polished (draft + revision). \`provider\` (extra, default auto: a configured vendor, else the in-process model llama when its model file is present, else the template writer local) picks who writes; \`metadata\` says who did (docs/providers.md).`,
    request: {
      body: withRequired(
        {
          section: outlineSectionSchema,
          keywords: { ...strings(30, 100), default: [] },
          tone: str(100),
          persona: personaSchema,
          mode: { enum: [...SECTION_MODES], default: 'draft' },
          provider: { enum: [...PROVIDER_CHOICES], default: 'auto' },
        },
        ['section'],
      ),
    },
    responses: {
      200: {
        description: 'The section',
        data: withRequired(
          {
            success: { const: true },
            section_id: { type: 'string' },
            mode: { type: 'string' },
            markdown: { type: 'string' },
            citations: arr(sourceResult),
            continuity_metrics: fullMetricsSchema,
            metadata: generationMetadataSchema,
            revision_metadata: generationMetadataSchema,
          },
          ['success', 'section_id', 'mode', 'markdown', 'citations', 'continuity_metrics', 'metadata'],
        ),
      },
    },
    handler: async (ctx) => {
      refuseCamelSpelling([ctx.body.section], () => 'section');
      const target = ctx.body.section.target_words || DEFAULT_SECTION_WORDS;
      if (target > MAX_SECTION_WORDS)
        throw new ValidationError([
          {
            location: 'body',
            path: 'section.target_words',
            kind: 'constraint',
            message: `section.target_words must be at most ${MAX_SECTION_WORDS} for generation`,
          },
        ]);
      const b = ctx.body;
      const r = await runMeteredWorkflow(ctx, blogSectionGenerateWorkflow, {
        workflowId: jobId('section-generate'),
        userId: userIdOf(ctx),
        args: [
          {
            userId: userIdOf(ctx),
            request: {
              section: b.section,
              keywords: b.keywords,
              tone: b.tone,
              persona: b.persona,
              mode: b.mode,
              targetWords: Math.max(50, target),
              provider: b.provider,
            },
          },
        ],
      });
      await settle(ctx, 'section-continuity', [r.continuity]);
      return {
        data: {
          success: true,
          section_id: b.section.id,
          mode: b.mode,
          markdown: r.markdown,
          citations: r.citations,
          continuity_metrics: r.metrics,
          metadata: r.metadata,
          ...(r.revision_metadata ? { revision_metadata: r.revision_metadata } : {}),
        },
      };
    },
  }),
  defineRoute<{
    section_id: string;
    content: string;
    optimization_focus: string;
    target_audience?: string;
    tone?: string;
  }>({
    method: 'post',
    errors: workflowErrors,
    path: '/api/blog/section/optimize',
    auth: 'user',
    tags,
    successBody: 'bare',
    summary: "Revise a section's text for a focus, and record its new continuity metrics",
    description:
      'quality_improvements are measured differences (after − before) of engagement, readability and clarity (0-100 scores); scores_before/scores_after give both sides.',
    request: {
      body: withRequired(
        {
          section_id: sectionIdSchema,
          content: { ...contentField, minLength: 1 },
          optimization_focus: { type: 'string', minLength: 1, maxLength: 200, default: 'readability' },
          target_audience: str(300),
          tone: str(100),
        },
        ['section_id', 'content'],
      ),
    },
    responses: {
      200: {
        description: 'Original and optimized content and a summary',
        data: allRequired({
          section_id: { type: 'string' },
          original_content: { type: 'string' },
          optimized_content: { type: 'string' },
          optimization_summary: allRequired({
            focus_area: { type: 'string' },
            improvements_made: arr(),
            quality_improvements: scores,
            scores_before: scores,
            scores_after: scores,
          }),
          continuity_metrics: fullMetricsSchema,
          metadata: generationMetadataSchema,
        }),
      },
    },
    handler: async (ctx) => {
      limitContent({ content: ctx.body.content });
      const b = ctx.body;
      const r = await runMeteredWorkflow(ctx, blogSectionOptimizeWorkflow, {
        workflowId: jobId('section-optimize'),
        userId: userIdOf(ctx),
        args: [{ userId: userIdOf(ctx), request: b }],
      });
      await settle(ctx, 'section-continuity', [r.continuity]);
      const delta = (k: 'engagement_score' | 'readability_score' | 'clarity_score') => r.after[k] - r.before[k];
      return {
        data: {
          section_id: b.section_id,
          original_content: b.content,
          optimized_content: r.optimized,
          optimization_summary: {
            focus_area: b.optimization_focus,
            improvements_made: r.changes,
            quality_improvements: {
              engagement_score: delta('engagement_score'),
              readability_score: delta('readability_score'),
              clarity_score: delta('clarity_score'),
            },
            scores_before: r.before,
            scores_after: r.after,
          },
          continuity_metrics: r.metrics,
          metadata: r.metadata,
        },
      };
    },
  }),
  defineRoute<unknown, unknown, { section_id: string }>({
    method: 'get',
    path: '/api/blog/section/{section_id}/continuity',
    auth: 'user',
    tags,
    successBody: 'bare',
    summary: "The latest continuity metrics of one of the caller's sections",
    description: "Another user's section is 404, like a section never generated.",
    request: { params: allRequired({ section_id: sectionIdSchema }) },
    responses: {
      200: {
        description: 'Continuity metrics',
        data: allRequired({
          section_id: { type: 'string' },
          continuity_metrics: fullMetricsSchema,
          heading: { type: 'string' },
          origin: { enum: ['generate', 'optimize'] },
          versions: { type: 'integer' },
          updated_at: { type: 'string', format: 'date-time' },
        }),
      },
    },
    handler: async (ctx) => {
      const r = await getSectionContinuity(ctx.deps.db, userIdOf(ctx), ctx.params.section_id);
      if (!r) throw new NotFoundError('Section not found');
      return { data: r };
    },
  }),
];
