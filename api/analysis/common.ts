/**
 * What the analysis routes (and the blog writer's analysis routes) share: the
 * content length limit, timing, and recording that an SEO analysis was made.
 */
import { randomUUID } from 'node:crypto';
import { PayloadTooLargeError } from '../../domain/errors';
import { factsDecider } from '../../domain/decider';
import { AnalysisEvent, seoAnalysisStream } from '../../domain/events/analysis';
import { handleCommands, streamCommand } from '../../infra/eventstore/command';
import { markdownWordCount } from '../../domain/generation';
import { requestMeta, userIdOf } from '../kernel/handler';
import type { HandlerCtx } from '../kernel/types';

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
  for (const [field, text] of Object.entries(fields))
    if (text && text.length > MAX_CONTENT_CHARS) throw new ContentTooLongError(field, text.length);
}

/** Runs `fn` and measures it in whole milliseconds (the spec's processing_time_ms). */
export function timed<T>(fn: () => T): { value: T; ms: number } {
  const t0 = process.hrtime.bigint();
  const value = fn();
  return { value, ms: Math.round(Number(process.hrtime.bigint() - t0) / 1e6) };
}

/** An analysis is a fact: one SeoAnalysisCompleted in a stream of its own. */
const analysisFacts = factsDecider<AnalysisEvent>();

export const contentField = {
  type: 'string',
  description: `Markdown; at most ${MAX_CONTENT_CHARS} characters (longer: 413 CONTENT_TOO_LONG)`,
};

/**
 * Records that an SEO analysis was made (SeoAnalysisCompleted: the score and what was found, not the content), so the
 * user's webhooks get seo.analysis.completed / seo_analysis_complete. Returns the analysis id for the response.
 */
export async function recordSeoAnalysis(
  ctx: HandlerCtx,
  route: string,
  result: { seo_score: number; recommendations: unknown[] },
  keywords: string[] | undefined,
  content: string,
): Promise<string> {
  const analysisId = randomUUID();
  const userId = userIdOf(ctx);
  await handleCommands(
    ctx.deps.store,
    [
      streamCommand({
        streamId: seoAnalysisStream(analysisId),
        decider: analysisFacts,
        expect: 'new',
        command: [
          {
            type: 'SeoAnalysisCompleted',
            data: {
              analysis_id: analysisId,
              user_id: userId,
              route,
              seo_score: result.seo_score,
              keywords: keywords ?? [],
              word_count: markdownWordCount(content),
              recommendations: result.recommendations.length,
            },
          },
        ],
      }),
    ],
    { metadata: requestMeta(ctx) },
  );
  return analysisId;
}
