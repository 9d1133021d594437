/**
 * General-family routes that analyse text (Document 1): SEO analysis
 * (`/api/blog-writer/seo/analyze`, the integration route `/api/seo-analyzer`),
 * goal-based SEO optimization advice (`/api/seo-dashboard/optimize`) and fact
 * checking (`/api/profnet-writer/fact-check`). Pure domain/analysis plus, for
 * fact checking, BM25 retrieval from the local research corpus: offline, no
 * vendor budget, so no workflow. Bodies in the general envelope.
 */
import { analyzeFlowBasic, analyzeSeo, checkClaims, extractClaims } from '../../domain/analysis';
import type { AssessmentId, SeoAnalysisResult } from '../../domain/analysis';
import { defineRoute, RouteDef } from '../kernel/registry';
import { allRequired, arr, httpUrl, num, strings, withRequired } from '../kernel/schema';
import { ValidationError } from '../../domain/errors';
import { contentField, limitContent, recordSeoAnalysis, timed } from './common';
import { analysisIdField, assessmentScoreSchema, seoResultSchema } from '../blog/seo-analysis';
import { claimCheckFields } from '../blog/hallucination-check';
import { recordIntegrationAction } from '../integrations/actions';

// ---- SEO analysis ----
const keywordsField = { ...strings(20, 100), default: [] };
const competitorSchema = allRequired({
  url: { type: 'string' },
  host: { type: 'string' },
  linked: { type: 'boolean', description: 'the content links to this host' },
});

function competitors(content: string, urls: string[]) {
  return urls.map((url, i) => {
    let host: string;
    try {
      host = new URL(url).host.toLowerCase();
    } catch {
      // The schema admits only absolute http(s) URLs; a value it let through that URL still refuses is the client's.
      throw new ValidationError([
        {
          location: 'body',
          path: `competitor_urls.${i}`,
          kind: 'constraint',
          message: `competitor_urls.${i} is not a URL`,
          provided_value: url,
        },
      ]);
    }
    return { url, host, linked: content.toLowerCase().includes(host) };
  });
}

// ---- optimization goals ----
/** Each goal and the SEO assessments (docs/analysis.md) it is judged by; `engagement` uses the flow analysis. */
export const OPTIMIZATION_GOALS: Record<string, AssessmentId[]> = {
  keyword_optimization: ['keyword_density', 'keyword_placement'],
  // Document 1 names this goal; it is the density half of keyword_optimization (not in the default list, which has both).
  keyword_density: ['keyword_density'],
  readability: ['readability', 'sentence_length', 'passive_voice', 'transition_words', 'consecutive_sentences'],
  structure: ['heading_structure', 'subheading_distribution', 'paragraph_length', 'list_usage', 'text_length'],
  links: ['links'],
  images: ['image_alt'],
  engagement: [],
};
const GOAL_NAMES = Object.keys(OPTIMIZATION_GOALS);
/** Goals analysed when the request names none: every goal once (keyword_density is inside keyword_optimization). */
const DEFAULT_GOALS = GOAL_NAMES.filter((g) => g !== 'keyword_density');

const locatedSchema = allRequired({
  assessment: { type: 'string' },
  severity: { enum: ['problem', 'improvement'] },
  message: { type: 'string' },
  recommendation: { type: 'string' },
  start: { type: ['integer', 'null'] },
  end: { type: ['integer', 'null'] },
  excerpt: { type: 'string' },
});
const goalSchema = allRequired({
  goal: { enum: GOAL_NAMES },
  score: num,
  assessments: arr(assessmentScoreSchema, {
    description: 'The SEO assessments the goal is judged by (engagement: one, from the flow analysis)',
  }),
  recommendations: arr(locatedSchema),
});

function goalReport(goal: string, content: string, seo: SeoAnalysisResult) {
  if (goal === 'engagement') {
    const flow = analyzeFlowBasic({ content });
    const e = flow.flow_analysis.engagement;
    const recs = e.suggestions.map((s, i) => ({
      assessment: 'engagement',
      severity: 'improvement' as const,
      message: e.issues[i] ?? s,
      recommendation: s,
      start: null,
      end: null,
      excerpt: '',
    }));
    return {
      goal,
      score: e.score,
      assessments: [{ id: 'engagement', score: e.score, weight: 1, applicable: true }],
      recommendations: recs,
    };
  }
  const ids = new Set(OPTIMIZATION_GOALS[goal]);
  const assessments = seo.assessments.filter((a) => ids.has(a.id));
  const scored = assessments.filter((a) => a.applicable && a.weight > 0);
  const w = scored.reduce((s, a) => s + a.weight, 0);
  const score = w ? Math.round(scored.reduce((s, a) => s + a.weight * a.score, 0) / w) : 100;
  const recs = seo.findings
    .filter((f) => ids.has(f.assessment))
    .sort((a, b) => (a.severity === b.severity ? a.start - b.start : a.severity === 'problem' ? -1 : 1))
    .map((f) => ({ ...f, excerpt: content.slice(f.start, Math.min(f.end, f.start + 120)) }));
  return { goal, score, assessments, recommendations: recs };
}

// ---- fact check ----
/** Verification levels: which claims are checked and how many corpus sources are retrieved per claim. */
export const VERIFICATION_LEVELS = {
  basic: { check_claims: false, perClaim: 1, confidence_threshold: 0.6 },
  standard: { check_claims: true, perClaim: 2, confidence_threshold: 0.6 },
  thorough: { check_claims: true, perClaim: 3, confidence_threshold: 0.7 },
  // The level Document 1 names: every claim, the most sources per claim, the strict threshold.
  comprehensive: { check_claims: true, perClaim: 5, confidence_threshold: 0.7 },
} as const;
/** Claims whose sources are retrieved (the first ones in the text); the rest are checked against the same pool. */
export const MAX_CLAIM_QUERIES = 100;

export const generalAnalysisRoutes: RouteDef[] = [
  defineRoute<{ content: string; target_keywords: string[]; competitor_urls: string[] }>({
    method: 'post',
    path: '/api/blog-writer/seo/analyze',
    auth: 'user',
    tags: ['seo'],
    summary: 'SEO analysis of content for target keywords',
    description:
      'competitor_urls are not fetched (an analysis route makes no outside calls); data.competitors says whether the content links to each host.',
    request: {
      body: withRequired(
        {
          content: contentField,
          target_keywords: keywordsField,
          competitor_urls: { type: 'array', items: httpUrl(), maxItems: 20, default: [] },
        },
        ['content'],
      ),
    },
    responses: {
      200: {
        description: 'The analysis',
        data: {
          ...seoResultSchema,
          properties: {
            analysis_id: analysisIdField,
            ...seoResultSchema.properties,
            competitors: arr(competitorSchema),
          },
          required: ['analysis_id', ...(seoResultSchema.required as string[]), 'competitors'],
        },
      },
    },
    handler: async (ctx) => {
      limitContent({ content: ctx.body.content });
      const result = analyzeSeo({ content: ctx.body.content, keywords: ctx.body.target_keywords });
      const analysis_id = await recordSeoAnalysis(
        ctx,
        '/api/blog-writer/seo/analyze',
        result,
        ctx.body.target_keywords,
        ctx.body.content,
      );
      return { data: { analysis_id, ...result, competitors: competitors(ctx.body.content, ctx.body.competitor_urls) } };
    },
  }),
  defineRoute<{ content: string; target_keywords: string[] }>({
    method: 'post',
    path: '/api/seo-analyzer',
    auth: 'user',
    tags: ['seo'],
    rateScheme: 'integration',
    summary: 'SEO analysis (integration route)',
    description:
      "The same analysis as POST /api/blog-writer/seo/analyze (without competitors), on the integration rate scheme (burst 20 per minute, 100 per hour). The analysis is recorded (analysis_id; webhook seo.analysis.completed) and the call is recorded as the user's integration action seo_analyzer/analyzed. content over 100,000 characters: 413.",
    request: { body: withRequired({ content: contentField, target_keywords: keywordsField }, ['content']) },
    responses: {
      200: {
        description: 'The analysis',
        data: {
          ...seoResultSchema,
          properties: { analysis_id: analysisIdField, ...seoResultSchema.properties },
          required: ['analysis_id', ...(seoResultSchema.required as string[])],
        },
      },
    },
    handler: async (ctx) => {
      limitContent({ content: ctx.body.content });
      const result = analyzeSeo({ content: ctx.body.content, keywords: ctx.body.target_keywords });
      const analysis_id = await recordSeoAnalysis(
        ctx,
        '/api/seo-analyzer',
        result,
        ctx.body.target_keywords,
        ctx.body.content,
      );
      // An integration route: the call is a user_action too (docs/content.md "Integration routes").
      await recordIntegrationAction(ctx, {
        integration: 'seo_analyzer',
        action: 'analyzed',
        details: { analysis_id, seo_score: result.seo_score, keywords: ctx.body.target_keywords },
      });
      return { data: { analysis_id, ...result } };
    },
  }),
  defineRoute<{ content: string; target_keyword?: string; optimization_goals: string[] }>({
    method: 'post',
    path: '/api/seo-dashboard/optimize',
    auth: 'user',
    tags: ['seo'],
    summary: 'Located recommendations per optimization goal',
    description: `Goals: ${GOAL_NAMES.join(', ')} (default: all but keyword_density, which keyword_optimization includes). Each recommendation names the assessment, what to do and where (start/end character offsets and an excerpt; engagement advice names sections).`,
    request: {
      body: withRequired(
        {
          content: contentField,
          target_keyword: { type: 'string', maxLength: 100 },
          optimization_goals: {
            type: 'array',
            items: { enum: GOAL_NAMES },
            uniqueItems: true,
            maxItems: GOAL_NAMES.length,
            default: DEFAULT_GOALS,
          },
        },
        ['content'],
      ),
    },
    responses: {
      200: {
        description: 'Per goal: score 0-100, assessments and located recommendations',
        data: allRequired({ seo_score: num, target_keyword: { type: ['string', 'null'] }, goals: arr(goalSchema) }),
      },
    },
    handler: (ctx) => {
      const b = ctx.body;
      limitContent({ content: b.content });
      const keyword = b.target_keyword?.trim() || null;
      const seo = analyzeSeo({ content: b.content, keywords: keyword ? [keyword] : [] });
      const goals = (b.optimization_goals.length ? b.optimization_goals : DEFAULT_GOALS).map((g) =>
        goalReport(g, b.content, seo),
      );
      return { data: { seo_score: seo.seo_score, target_keyword: keyword, goals } };
    },
  }),
  defineRoute<{ content: string; verification_level: keyof typeof VERIFICATION_LEVELS }>({
    method: 'post',
    path: '/api/profnet-writer/fact-check',
    auth: 'user',
    tags: ['fact check'],
    summary: 'Check the claims of a text against the local research corpus',
    description:
      'Claims are extracted, the best corpus passages for each are retrieved with BM25, and each claim is labelled verified, unverified or contradicted. The corpus is the platform\'s own sample documents: "unverified" means the corpus does not cover the claim, not that it is false.',
    request: {
      body: withRequired(
        {
          content: { ...contentField, minLength: 1 },
          verification_level: { enum: Object.keys(VERIFICATION_LEVELS), default: 'standard' },
        },
        ['content'],
      ),
    },
    responses: {
      200: {
        description: 'Claims with labels, confidence and sources',
        data: allRequired({
          ...claimCheckFields,
          verification_level: { type: 'string' },
          source_mode: { const: 'research_corpus' },
          sources_checked: arr(allRequired({ title: { type: 'string' }, url: { type: 'string' } })),
          processing_time_ms: { type: 'integer' },
        }),
      },
    },
    handler: async (ctx) => {
      limitContent({ content: ctx.body.content });
      const level = VERIFICATION_LEVELS[ctx.body.verification_level];
      const t0 = Date.now();
      const claims = extractClaims(ctx.body.content).filter(
        (c) => level.check_claims || c.types.some((t) => t === 'statistic' || t === 'date'),
      );
      const corpus = ctx.deps.corpus;
      const pool = new Map<string, { title: string; url: string; excerpt: string }>();
      for (const c of claims.slice(0, MAX_CLAIM_QUERIES))
        for (const s of await corpus.search(c.text, { limit: level.perClaim }))
          pool.set(`${s.url}\n${s.excerpt}`, { title: s.title, url: s.url, excerpt: s.excerpt });
      const sources = [...pool.values()];
      const { value } = timed(() =>
        checkClaims(ctx.body.content, sources, {
          check_claims: level.check_claims,
          confidence_threshold: level.confidence_threshold,
        }),
      );
      const seen = new Set<string>();
      const checked = sources
        .filter((s) => !seen.has(s.url) && seen.add(s.url))
        .map((s) => ({ title: s.title, url: s.url }));
      return {
        data: {
          ...value,
          verification_level: ctx.body.verification_level,
          source_mode: 'research_corpus',
          sources_checked: checked,
          processing_time_ms: Date.now() - t0,
        },
      };
    },
  }),
];
