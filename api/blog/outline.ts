/**
 * Blog writer outline routes (Document 2, /api/blog/outline): refine and
 * rebalance, with their schemas. Pure computation (domain/analysis/outline).
 */
import { rebalanceOutline, refineOutline } from '../../domain/analysis';
import { REFINE_OPERATIONS } from '../../domain/analysis/outline';
import type { RefineInput } from '../../domain/analysis';
import type { OutlineSection } from '../../domain/analysis/types';
import { defineRoute, RouteDef } from '../kernel/registry';
import { allRequired, anyString, arr, int, num, ok, withRequired } from '../kernel/schema';
import { outlineSchema, sectionIdSchema } from './schemas';
import { refuseCamelSpelling } from '../../domain/blog/types';

const tags = ['blog writer'];

const outlineResultSchema = arr(allRequired({ id: { type: 'string' }, heading: { type: 'string' } }));
const refineSchema = allRequired({
  success: ok,
  title_options: arr(),
  outline: outlineResultSchema,
  optimization_results: allRequired({
    overall_quality_score: num,
    improvements_made: arr(),
    optimization_focus: { type: 'string' },
  }),
});
const rebalanceSchema = allRequired({
  success: ok,
  outline: arr(
    allRequired({ id: { type: 'string' }, heading: { type: 'string' }, target_words: int, word_adjustment: int }),
  ),
  rebalancing_summary: allRequired({
    total_target_words: int,
    original_total: int,
    rebalanced_total: int,
    adjustments_made: arr(
      allRequired({
        section_id: anyString,
        heading: anyString,
        original_target_words: { ...int, description: '0 when the section had no target_words' },
        new_target_words: int,
        word_adjustment: int,
      }),
      { description: 'The sections whose target_words changed' },
    ),
  }),
});

export const blogOutlineRoutes: RouteDef[] = [
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
      body: withRequired(
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
      body: allRequired({ outline: outlineSchema }),
      query: withRequired({ target_words: { type: 'integer', minimum: 0, maximum: 1000000, default: 1500 } }, []),
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
