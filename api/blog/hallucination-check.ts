/**
 * Blog writer claim check (Document 2, POST /api/blog/hallucination/check),
 * with its schemas (the result fields are shared with the general fact
 * check, api/analysis/routes.ts). Pure computation (domain/analysis/claims.ts).
 */
import { checkClaims } from '../../domain/analysis';
import { defineRoute, RouteDef } from '../kernel/registry';
import { allRequired, anyString, arr, httpUrl, int, num, ok, str, withRequired } from '../kernel/schema';
import { contentField, limitContent, timed } from '../analysis/common';

const tags = ['blog writer'];

export const claimSourceSchema = withRequired({ title: str(500), url: httpUrl(), excerpt: str(20000) }, [
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
export const claimResultSchema = withRequired(
  {
    claim: { type: 'string' },
    confidence: num,
    verification_status: { enum: ['verified', 'unverified', 'contradicted'] },
    supporting_sources: arr(allRequired({ title: { type: 'string' }, url: { type: 'string' }, relevance_score: num })),
    recommendation: { type: 'string' },
    start: int,
    end: int,
    claim_types: arr(),
    evidence: allRequired(
      { title: anyString, url: anyString, passage: anyString },
      {
        description: 'The source passage that decided the label; absent when no passage did',
      },
    ),
  },
  ['claim', 'confidence', 'verification_status', 'supporting_sources', 'start', 'end', 'claim_types'],
);
export const claimCheckFields = {
  overall_confidence: num,
  hallucination_analysis: allRequired({
    total_claims: int,
    verified_claims: int,
    unverified_claims: int,
    potential_hallucinations: int,
  }),
  claim_analysis: arr(claimResultSchema),
  recommendations: arr(),
};

export const blogHallucinationRoutes: RouteDef[] = [
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
      body: withRequired(
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
        data: allRequired({ success: ok, ...claimCheckFields, processing_time_ms: int }),
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
];
