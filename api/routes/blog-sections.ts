/**
 * Blog writer routes that spend vendor budget (Document 2, /api/blog):
 * outline enhance-section and optimize, section generate and optimize. Each
 * executes a workflow (workflows/blog-sync.ts) and answers with its result
 * (rule 1 of ARCHITECTURE.md). Generating or optimizing a section records its
 * continuity metrics as an event; the continuity read comes from the
 * section-continuity projection, which the write routes wait for.
 */
import { NotFoundError, ValidationError } from '../../domain/errors';
import type { OutlineSection } from '../../domain/analysis/types';
import type { Persona } from '../../domain/blog/types';
import { waitForProjection } from '../../projections/consistency';
import { getSectionContinuity } from '../../projections/section-continuity';
import type { ContinuityEvent, SectionGenerateResult, SectionOptimizeResult } from '../../workflows/blog-sync';
import type { AppDeps } from '../deps';
import { defineRoute, HandlerCtx, RouteDef } from '../registry';
import { contentField, executeSync, limitContent, outlineSchema, outlineSectionSchema, personaSchema, sectionIdSchema, sourceSchema, str, strings } from './analysis-common';

const tags = ['blog writer'];
const num = { type: 'number' };
const obj = (properties: Record<string, unknown>, required = Object.keys(properties)) => ({ type: 'object', properties, required });
const arr = (items: Record<string, unknown> = { type: 'string' }) => ({ type: 'array', items });

/** Section generation modes: `draft` = one writing call; `polished` = the draft plus one revision call (readability and flow). */
export const SECTION_MODES = ['draft', 'polished'] as const;
/** Body words of a generated section when the section has no target_words. */
export const DEFAULT_SECTION_WORDS = 300;
export const MAX_SECTION_WORDS = 2000;

const metricsSchema = obj({ word_count: { type: 'integer' }, readability_score: num, keyword_density: num, citation_coverage: num, flow_score: num });
const fullMetricsSchema = obj({ ...metricsSchema.properties, coherence_score: num, engagement_score: num });
const scores = obj({ engagement_score: num, readability_score: num, clarity_score: num });

/** Read-your-writes: the continuity read right after the write sees it. */
async function settle(ctx: HandlerCtx<unknown, unknown, unknown>, ev: ContinuityEvent): Promise<void> {
  const deps: AppDeps = ctx.deps;
  if (!(await waitForProjection(deps.db, 'section-continuity', ev, { timeoutMs: deps.settings.consistencyTimeoutMs }))) {
    ctx.req.log?.warn({ stream_id: ev.streamId }, 'section-continuity projection did not catch up within the consistency bound');
  }
}

const userOf = (ctx: HandlerCtx<unknown, unknown, unknown>) => ctx.caller!.userId;

export const blogSectionRoutes: RouteDef[] = [
  defineRoute<OutlineSection, { focus: string }>({
    method: 'post',
    path: '/api/blog/outline/enhance-section',
    auth: 'user',
    tags,
    successBody: 'bare',
    summary: 'Enhance one outline section (AI provider, through a workflow)',
    description: 'Body: one Outline section. `focus` is free text; the offline provider reacts to the cues "example", "evidence"/"data", "reader"/"audience" (docs/api.md).',
    request: { body: outlineSectionSchema, query: obj({ focus: { type: 'string', minLength: 1, maxLength: 200, default: 'general improvement' } }, []) },
    responses: { 200: { description: 'The section plus enhancement_focus and improvements_made', data: { ...outlineSectionSchema, properties: { ...outlineSectionSchema.properties, enhancement_focus: { type: 'string' }, improvements_made: arr() } } } },
    handler: async (ctx) => ({ data: await executeSync(ctx.deps, 'enhance-section', 'blogEnhanceSectionWorkflow', { userId: userOf(ctx), request: { section: ctx.body, focus: ctx.query.focus } }) }),
  }),
  defineRoute<{ outline: OutlineSection[] }, { focus: string }>({
    method: 'post',
    path: '/api/blog/outline/optimize',
    auth: 'user',
    tags,
    successBody: 'bare',
    summary: 'Optimize a whole outline (AI provider, through a workflow)',
    request: { body: obj({ outline: outlineSchema }), query: obj({ focus: { type: 'string', minLength: 1, maxLength: 200, default: 'general optimization' } }, []) },
    responses: { 200: { description: 'The optimized outline and a summary', data: obj({ outline: arr({ type: 'object' }), optimization_summary: obj({ focus_area: { type: 'string' }, improvements_made: arr(), overall_quality_score: num }) }) } },
    handler: async (ctx) => {
      const ids = new Set<string>();
      ctx.body.outline.forEach((s, i) => {
        if (ids.has(s.id)) throw new ValidationError([{ location: 'body', path: `outline.${i}.id`, kind: 'constraint', message: `duplicate section id "${s.id}"` }]);
        ids.add(s.id);
      });
      return { data: await executeSync(ctx.deps, 'outline-optimize', 'blogOptimizeOutlineWorkflow', { userId: userOf(ctx), request: { outline: ctx.body.outline, focus: ctx.query.focus } }) };
    },
  }),
  defineRoute<{ section: OutlineSection; keywords: string[]; tone?: string; persona?: Persona; mode: (typeof SECTION_MODES)[number] }>({
    method: 'post',
    path: '/api/blog/section/generate',
    auth: 'user',
    tags,
    successBody: 'bare',
    summary: 'Write one section in Markdown with [n] citations, and record its continuity metrics',
    description: `Length: section.target_words (default ${DEFAULT_SECTION_WORDS}, at most ${MAX_SECTION_WORDS}). Sources: section.references, else the research provider's best 3 for the heading and keywords. Modes: draft (one call), polished (draft + revision).`,
    request: {
      body: obj(
        { section: outlineSectionSchema, keywords: { ...strings(30, 100), default: [] }, tone: str(100), persona: personaSchema, mode: { enum: [...SECTION_MODES], default: 'draft' } },
        ['section'],
      ),
    },
    responses: { 200: { description: 'The section', data: obj({ success: { const: true }, section_id: { type: 'string' }, mode: { type: 'string' }, markdown: { type: 'string' }, citations: arr(sourceSchema), continuity_metrics: fullMetricsSchema }) } },
    handler: async (ctx) => {
      const target = ctx.body.section.target_words || DEFAULT_SECTION_WORDS;
      if (target > MAX_SECTION_WORDS) throw new ValidationError([{ location: 'body', path: 'section.target_words', kind: 'constraint', message: `section.target_words must be at most ${MAX_SECTION_WORDS} for generation` }]);
      const r = await executeSync<SectionGenerateResult>(ctx.deps, 'section-generate', 'blogSectionGenerateWorkflow', {
        userId: userOf(ctx),
        request: { section: ctx.body.section, keywords: ctx.body.keywords, tone: ctx.body.tone, persona: ctx.body.persona, mode: ctx.body.mode, targetWords: Math.max(50, target) },
      });
      await settle(ctx, r.continuity_event);
      const { continuity_event: _ev, ...body } = r;
      return { data: body };
    },
  }),
  defineRoute<{ section_id: string; content: string; optimization_focus: string; target_audience?: string; tone?: string }>({
    method: 'post',
    path: '/api/blog/section/optimize',
    auth: 'user',
    tags,
    successBody: 'bare',
    summary: "Revise a section's text for a focus, and record its new continuity metrics",
    description: 'quality_improvements are measured differences (after − before) of engagement, readability and clarity (0-100 scores); scores_before/scores_after give both sides.',
    request: {
      body: obj(
        { section_id: sectionIdSchema, content: { ...contentField, minLength: 1 }, optimization_focus: { type: 'string', minLength: 1, maxLength: 200, default: 'readability' }, target_audience: str(300), tone: str(100) },
        ['section_id', 'content'],
      ),
    },
    responses: {
      200: {
        description: 'Original and optimized content and a summary',
        data: obj({
          section_id: { type: 'string' },
          original_content: { type: 'string' },
          optimized_content: { type: 'string' },
          optimization_summary: obj({ focus_area: { type: 'string' }, improvements_made: arr(), quality_improvements: scores, scores_before: scores, scores_after: scores }),
          continuity_metrics: fullMetricsSchema,
        }),
      },
    },
    handler: async (ctx) => {
      limitContent({ content: ctx.body.content });
      const r = await executeSync<SectionOptimizeResult>(ctx.deps, 'section-optimize', 'blogSectionOptimizeWorkflow', { userId: userOf(ctx), request: ctx.body });
      await settle(ctx, r.continuity_event);
      const { continuity_event: _ev, ...body } = r;
      return { data: body };
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
    request: { params: obj({ section_id: sectionIdSchema }) },
    responses: { 200: { description: 'Continuity metrics', data: obj({ section_id: { type: 'string' }, continuity_metrics: fullMetricsSchema, heading: { type: 'string' }, origin: { enum: ['generate', 'optimize'] }, versions: { type: 'integer' }, updated_at: { type: 'string', format: 'date-time' } }) } },
    handler: async (ctx) => {
      const r = await getSectionContinuity(ctx.deps.db, userOf(ctx), ctx.params.section_id);
      if (!r) throw new NotFoundError('Section not found');
      return { data: r };
    },
  }),
];
