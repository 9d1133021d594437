/**
 * Content generation of the general family (Document 1, "General family"):
 * blog writer, research, professional-network writer, content strategy and
 * personas. Each runs its task workflow through the provider layer and
 * answers by the rule of api/kernel/tasks.ts: 200 with the result when it
 * finishes within the wait bound, else 202 with the task to poll. Keyword
 * research is in api/seo/keywords.ts.
 */
import type {
  BlogResearchRequest,
  BlogWriterRequest,
  PersonasRequest,
  ProfnetRequest,
  StrategyRequest,
} from '../../domain/content/types';
import {
  blogWriterResearchWorkflow,
  blogWriterWorkflow,
  contentPersonasWorkflow,
  contentStrategyWorkflow,
  profnetPostWorkflow,
} from '../../workflows';
import { defineRoute, RouteDef } from '../kernel/registry';
import { defineTask, runTask, taskResponses } from '../kernel/tasks';
import { boundErrors } from '../kernel/fair-use';
import {
  blogWriterBody,
  generatedSchema,
  personasBody,
  personasResultSchema,
  profnetBody,
  profnetResultSchema,
  researchBody,
  researchResultSchema,
  strategyBody,
  strategyResultSchema,
} from './schemas';

/** What every generating route can answer besides the family's errors. */
export const GENERATION_ERRORS = {
  409: 'The generated task id is already in use (retry)',
  502: 'The AI vendor failed or answered something unusable (UPSTREAM_ERROR)',
  503: 'The vendor asked for is not configured, or background work is unavailable (SERVICE_UNAVAILABLE)',
};

const RULE =
  'Answers 200 with the result when the work finishes within the wait bound (API_TASK_WAIT_MS; `Prefer: wait=<s>` or `respond-async` lower it), else 202 with a task to poll at status_url. A plan limit answers 429 UsageLimitExceededException.';

/** The tasks of these routes (task catalogue: api/kernel/task-catalogue.ts). */
const BLOG_WRITER = defineTask({
  workflow: blogWriterWorkflow,
  taskType: 'blog_writer',
  idPrefix: 'blog-writer',
  result: generatedSchema,
});
const BLOG_WRITER_RESEARCH = defineTask({
  workflow: blogWriterResearchWorkflow,
  taskType: 'blog_writer_research',
  idPrefix: 'blog-writer-research',
  result: researchResultSchema,
});
const PROFNET_WRITER = defineTask({
  workflow: profnetPostWorkflow,
  taskType: 'profnet_writer',
  idPrefix: 'profnet-writer',
  result: profnetResultSchema,
});
const CONTENT_STRATEGY = defineTask({
  workflow: contentStrategyWorkflow,
  taskType: 'content_strategy',
  idPrefix: 'content-strategy',
  result: strategyResultSchema,
});
const CONTENT_PERSONAS = defineTask({
  workflow: contentPersonasWorkflow,
  taskType: 'content_personas',
  idPrefix: 'content-personas',
  result: personasResultSchema,
});

export const contentRoutes: RouteDef[] = [
  defineRoute<BlogWriterRequest>({
    method: 'post',
    path: '/api/blog-writer',
    auth: 'user',
    tags: ['content generation'],
    summary: 'Write a blog post',
    description: `${RULE} metadata (word_count, readability_score, seo_score) is measured on the produced text by the analysis engine; seo_score is for \`keywords\` when given.`,
    request: { body: blogWriterBody },
    responses: taskResponses('The post', BLOG_WRITER),
    errors: { ...GENERATION_ERRORS, ...boundErrors('blog_writer') },
    handler: (ctx) => runTask(ctx, BLOG_WRITER, ctx.body),
  }),
  defineRoute<BlogResearchRequest>({
    method: 'post',
    path: '/api/blog-writer/research',
    auth: 'user',
    tags: ['content generation'],
    summary: 'Research a topic: sources, keywords, competitors, angles',
    description: `${RULE} Sources are read from the research corpus (and web search when configured), filtered by kind.`,
    request: { body: researchBody },
    responses: taskResponses('The research', BLOG_WRITER_RESEARCH),
    errors: GENERATION_ERRORS,
    handler: (ctx) => runTask(ctx, BLOG_WRITER_RESEARCH, ctx.body),
  }),
  defineRoute<ProfnetRequest>({
    method: 'post',
    path: '/api/profnet-writer',
    auth: 'user',
    tags: ['content generation'],
    summary: 'Write a professional-network post',
    description: `${RULE} At most 3,000 characters; hashtags when include_hashtags is true or hashtags are given.`,
    request: { body: profnetBody },
    responses: taskResponses('The post', PROFNET_WRITER),
    errors: GENERATION_ERRORS,
    handler: (ctx) => runTask(ctx, PROFNET_WRITER, ctx.body),
  }),
  defineRoute<StrategyRequest>({
    method: 'post',
    path: '/api/content-strategy/generate',
    auth: 'user',
    tags: ['content strategy'],
    summary: 'Generate a content strategy',
    description: `${RULE} Every recommendation quotes a research source ([n] and references). Produces the strategy.updated webhook.`,
    request: { body: strategyBody },
    responses: taskResponses('The strategy', CONTENT_STRATEGY),
    errors: GENERATION_ERRORS,
    handler: (ctx) => runTask(ctx, CONTENT_STRATEGY, ctx.body),
  }),
  defineRoute<PersonasRequest>({
    method: 'post',
    path: '/api/content-strategy/personas',
    auth: 'user',
    tags: ['content strategy'],
    summary: 'Develop a persona from demographics and pain points',
    description: `${RULE} One persona per request, carrying exactly the demographics given; insights quote research sources.`,
    request: { body: personasBody },
    responses: taskResponses('The persona', CONTENT_PERSONAS),
    errors: GENERATION_ERRORS,
    handler: (ctx) => runTask(ctx, CONTENT_PERSONAS, ctx.body),
  }),
];
