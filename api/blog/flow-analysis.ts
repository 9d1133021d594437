/**
 * Blog writer flow-analysis routes (Document 2, /api/blog/flow-analysis):
 * basic and advanced, with their schemas. Pure computation (domain/analysis).
 */
import { analyzeFlowAdvanced, analyzeFlowBasic } from '../../domain/analysis';
import type { FlowInput } from '../../domain/analysis';
import { ValidationError } from '../../domain/errors';
import { defineRoute, RouteDef } from '../kernel/registry';
import { allRequired, arr, int, num, ok, str, withRequired } from '../kernel/schema';
import { contentField, limitContent, timed } from '../analysis/common';
import { sectionIdSchema } from './schemas';

const tags = ['blog writer'];
const numMap = { type: 'object', additionalProperties: num };

const flowSection = (withTarget: boolean) =>
  withRequired(
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
const dimension = allRequired({ score: num, issues: arr(), suggestions: arr() });
const basicFlowSchema = allRequired({
  success: ok,
  overall_flow_score: num,
  section_flow_scores: numMap,
  flow_analysis: allRequired({ transitions: dimension, coherence: dimension, engagement: dimension }),
  recommendations: arr(),
  analysis_type: { const: 'basic' },
  processing_time_ms: int,
});
const sectionDetail = allRequired({
  flow_score: num,
  readability_score: num,
  engagement_score: num,
  coherence_score: num,
  transition_score: num,
  issues: arr(),
  strengths: arr(),
  suggestions: arr(),
});
const advancedFlowSchema = allRequired({
  success: ok,
  overall_flow_score: num,
  detailed_section_analysis: { type: 'object', additionalProperties: sectionDetail },
  cross_section_analysis: allRequired({
    overall_coherence: num,
    transition_quality: num,
    thematic_consistency: num,
    progression_logic: num,
  }),
  recommendations: arr(),
  analysis_type: { const: 'advanced' },
  processing_time_ms: int,
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

export const blogFlowRoutes: RouteDef[] = [
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
];
