/**
 * POST /api/socialnet-writer/engagement/analyze: the engagement model
 * (domain/writers/engagement.ts) on a client's text. Pure and deterministic,
 * so the API calls it directly (no vendor, no workflow). The platform is the
 * first platform token in `platform_context` (default socialnet); the format
 * band comes from platform_benchmarks.content_type or the context's words.
 */
import { analyzeEngagement } from '../../domain/writers/engagement';
import { ANALYSIS_PLATFORMS, AnalysisPlatform, FORMAT_LIMITS } from '../../domain/writers/platforms';
import type { WriterKind } from '../../domain/writers/types';
import { defineRoute, RouteDef } from '../kernel/registry';
import { PREFIX, TAG } from './common';
import { engagementSchema } from './responses';
import { engagementBody } from './schemas';

interface EngagementBody {
  content: string;
  platform_context?: string;
  audience_demographics?: { age_range?: string; interests?: string[] };
  historical_performance?: {
    similar_content_avg_engagement?: number;
    platform_benchmarks?: { industry?: string; content_type?: string };
  };
}

const FORMAT_WORDS: Array<[RegExp, WriterKind]> = [
  [/\bgroup\b/, 'group_post'],
  [/\bstor(y|ies)\b/, 'story'],
  [/\breels?\b/, 'reel'],
  [/\bcarousel|document\b/, 'carousel'],
  [/\bevents?\b/, 'event'],
  [/\barticles?\b/, 'article'],
  [/\bvideo\b/, 'video_post'],
];

export function analysisTarget(
  context: string,
  contentType?: string,
): { platform: AnalysisPlatform; kind: WriterKind } {
  const c = context.toLowerCase();
  const platform = ANALYSIS_PLATFORMS.find((p) => new RegExp(`\\b${p}\\b`).test(c)) ?? 'socialnet';
  const words = `${contentType ?? ''} ${c}`.toLowerCase();
  const formats = FORMAT_LIMITS as Record<string, unknown>;
  const kind = FORMAT_WORDS.find(([re, k]) => re.test(words) && formats[`${platform}:${k}`])?.[1] ?? 'post';
  return { platform, kind };
}

export const writerEngagementRoutes: RouteDef[] = [
  defineRoute<EngagementBody>({
    method: 'post',
    path: `${PREFIX.socialnet}/engagement/analyze`,
    auth: 'user',
    successBody: 'bare',
    tags: [TAG.socialnet],
    summary: "Predict engagement of a text, with each factor's contribution and suggestions",
    description:
      "Deterministic model (docs/writers.md \"Engagement model\"): overall_score = 50 + the contributions of readability, hook, questions, CTA strength, emoji, hashtags, length against the platform's best band, the audience's interests, relevance (sentences about the text's own first line or title) and repetition, blended 70/30 with historical_performance when given; an off-topic or repetitive text scores at most 50.",
    request: { body: engagementBody },
    responses: { 200: { description: 'The prediction', data: engagementSchema } },
    handler(ctx) {
      const b = ctx.body;
      const target = analysisTarget(
        b.platform_context ?? '',
        b.historical_performance?.platform_benchmarks?.content_type,
      );
      const r = analyzeEngagement({
        content: b.content,
        platform: target.platform,
        kind: target.kind,
        interests: b.audience_demographics?.interests,
        historicalRate: b.historical_performance?.similar_content_avg_engagement,
      });
      return {
        data: {
          success: true,
          platform: r.platform,
          content_type: target.kind,
          model: r.model,
          engagement_prediction: r.engagement_prediction,
          optimization_suggestions: r.optimization_suggestions,
          content_improvements: r.content_improvements,
          factors: r.factors,
        },
      };
    },
  }),
];
