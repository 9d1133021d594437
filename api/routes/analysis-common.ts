/**
 * What the analysis and blog section routes share: the content length limit,
 * request schemas of the blog writer's resources, timing, and executing a
 * synchronous workflow with its failures mapped to the error hierarchy.
 */
import { randomUUID } from 'node:crypto';
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/client';
import { PayloadTooLargeError, ServiceUnavailableError, UpstreamError, UsageLimitExceededError, ValidationError } from '../../domain/errors';
import type { AppDeps } from '../deps';
import { personaSchema, sourceSchema } from './blog-schemas';
import { seoAnalysisStream } from '../../domain/events/analysis';
import { markdownWordCount } from '../../domain/generation';
import type { HandlerCtx } from '../registry';

export { personaSchema, sourceSchema };

/** Longest `content` (characters) the analysis routes accept; longer is refused with CONTENT_TOO_LONG (413). */
export const MAX_CONTENT_CHARS = 100_000;

export class ContentTooLongError extends PayloadTooLargeError {
  constructor(field: string, length: number) {
    super(MAX_CONTENT_CHARS, `${field} is ${length} characters long; the maximum is ${MAX_CONTENT_CHARS}`);
    Object.assign(this.details, { parameter: field, max_characters: MAX_CONTENT_CHARS, length });
  }
}

/** Refuses any of the given texts over MAX_CONTENT_CHARS, naming its field. */
export function limitContent(fields: Record<string, string | undefined>): void {
  for (const [field, text] of Object.entries(fields)) if (text && text.length > MAX_CONTENT_CHARS) throw new ContentTooLongError(field, text.length);
}

/** Runs `fn` and measures it in whole milliseconds (the spec's processing_time_ms). */
export function timed<T>(fn: () => T): { value: T; ms: number } {
  const t0 = process.hrtime.bigint();
  const value = fn();
  return { value, ms: Math.round(Number(process.hrtime.bigint() - t0) / 1e6) };
}

// ---- schemas of the blog writer's resources (Document 2) ----
export const str = (maxLength = 500) => ({ type: 'string', maxLength });
export const strings = (maxItems = 50, maxLength = 300) => ({ type: 'array', items: { type: 'string', maxLength }, maxItems });
export const contentField = { type: 'string', description: `Markdown; at most ${MAX_CONTENT_CHARS} characters (longer: 413 CONTENT_TOO_LONG)` };


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
  },
  required: ['id', 'heading'],
};

export const outlineSchema = { type: 'array', items: outlineSectionSchema, minItems: 1, maxItems: 50 };


export const researchDataSchema = {
  type: 'object',
  properties: {
    sources: { type: 'array', items: sourceSchema, maxItems: 100 },
    keyword_analysis: { type: 'object', properties: { primary_keywords: strings(30, 100), secondary_keywords: strings(50, 100), search_volume: { type: 'string' } } },
    competitor_analysis: { type: 'object' },
  },
};

// ---- synchronous workflows ----

/** The root ApplicationFailure of a failed workflow (activity failures nest theirs as `cause`). */
function rootFailure(e: unknown): ApplicationFailure | undefined {
  let c: unknown = e;
  let found: ApplicationFailure | undefined;
  for (let i = 0; c && i < 10; i++, c = (c as { cause?: unknown }).cause) if (c instanceof ApplicationFailure) found = c;
  return found;
}

/**
 * Executes workflow `workflow` with id `blog-<kind>-<uuid>` (conflict policy FAIL) and waits for its result.
 * Failures: plan limit → 429 QUOTA_EXCEEDED (subscription body), vendor not configured → 503,
 * InvalidRequest → 400, anything else a workflow reports → 502 UPSTREAM_ERROR naming the operation.
 */
export async function executeSync<R>(deps: AppDeps, kind: string, workflow: string, args: unknown): Promise<R> {
  if (!deps.temporal || !deps.taskQueue) throw new ServiceUnavailableError('The workflow service is not configured for this API', { service: 'temporal' });
  const client = await deps.temporal();
  const workflowId = `blog-${kind}-${randomUUID()}`;
  try {
    return (await client.workflow.execute(workflow, {
      taskQueue: deps.taskQueue,
      workflowId,
      workflowIdConflictPolicy: 'FAIL',
      workflowExecutionTimeout: '10m',
      args: [args],
    })) as R;
  } catch (e) {
    if (!(e instanceof WorkflowFailedError)) throw e;
    const f = rootFailure(e);
    if (f?.type === 'UsageLimitExceeded') {
      const d = (f.details?.[0] ?? {}) as { provider: string; limit_type: string; current_usage: number; limit_value: number };
      throw new UsageLimitExceededError({ provider: d.provider, limit_type: d.limit_type, current_usage: d.current_usage, limit_value: d.limit_value }, f.message);
    }
    if (f?.type === 'VendorNotConfiguredError') throw new ServiceUnavailableError(f.message);
    if (f?.type === 'InvalidRequest') throw new ValidationError([{ location: 'body', path: '', kind: 'constraint', message: f.message }]);
    throw new UpstreamError(`${kind} failed: ${f?.message ?? e.message}`, { workflow_id: workflowId, operation: kind });
  }
}

/**
 * Records that an SEO analysis was made (SeoAnalysisCompleted: the score and what was found, not the content), so the
 * user's webhooks get seo.analysis.completed / seo_analysis_complete. Returns the analysis id for the response.
 */
export async function recordSeoAnalysis(ctx: HandlerCtx, route: string, result: { seo_score: number; recommendations: unknown[] }, keywords: string[] | undefined, content: string): Promise<string> {
  const analysisId = randomUUID();
  const userId = ctx.caller!.userId;
  await ctx.deps.store.append(
    seoAnalysisStream(analysisId),
    [{ type: 'SeoAnalysisCompleted', data: { analysis_id: analysisId, user_id: userId, route, seo_score: result.seo_score, keywords: keywords ?? [], word_count: markdownWordCount(content), recommendations: result.recommendations.length } }],
    'no_stream',
    { user_id: userId, request_id: ctx.requestId },
  );
  return analysisId;
}
