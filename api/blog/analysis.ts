/**
 * Blog writer analysis routes (Document 2, /api/blog): SEO analysis and
 * metadata, flow analysis, hallucination check, outline refine and
 * rebalance. Pure computation (domain/analysis) called directly (rule 1 of
 * ARCHITECTURE.md). Success bodies are the spec's fields themselves
 * (`successBody: 'bare'`); errors use the general envelope. One file per
 * route group (seo-analysis.ts, flow-analysis.ts, hallucination-check.ts,
 * outline.ts), each with its schemas; this list keeps their order.
 */
import type { RouteDef } from '../kernel/registry';
import { blogSeoRoutes } from './seo-analysis';
import { blogFlowRoutes } from './flow-analysis';
import { blogHallucinationRoutes } from './hallucination-check';
import { blogOutlineRoutes } from './outline';

export const blogAnalysisRoutes: RouteDef[] = [
  ...blogSeoRoutes,
  ...blogFlowRoutes,
  ...blogHallucinationRoutes,
  ...blogOutlineRoutes,
];
