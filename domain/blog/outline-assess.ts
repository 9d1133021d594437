/**
 * Scores an outline against the research it came from, for the outline
 * result's source_mapping_stats, grounding_insights, optimization_results and
 * research_coverage. Pure and documented in docs/blog.md:
 * - a source is "mapped" when at least one section references it;
 * - relevance of a reference = the source's credibility_score (0–1);
 * - confidence bands: high ≥ 0.8, medium ≥ 0.6, low below;
 * - authority by source_type: academic, industry, government (others not counted);
 * - overall_quality_score (0–10) = 4 × coverage + 3 × mean relevance + 3 × structure,
 *   structure = share of sections with ≥ 2 key points and ≥ 1 reference.
 */
import type { OutlineSection, Source } from './types';

export interface OutlineAssessment {
  source_mapping_stats: {
    total_sources_mapped: number;
    coverage_percentage: number;
    average_relevance_score: number;
    high_confidence_mappings: number;
  };
  grounding_insights: {
    confidence_analysis: {
      high_confidence_sources: number;
      medium_confidence_sources: number;
      low_confidence_sources: number;
    };
    authority_analysis: { academic_sources: number; industry_sources: number; government_sources: number };
  };
  optimization_results: { overall_quality_score: number; improvements_made: string[]; optimization_focus: string };
  research_coverage: { sources_utilized: number; content_gaps_identified: number; competitive_advantages: string[] };
}

const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;
const keyOf = (s: Source) => s.url || s.title;

export function assessOutline(
  outline: OutlineSection[],
  sources: Source[],
  contentGaps: string[] = [],
  angles: string[] = [],
): OutlineAssessment {
  const refs = outline.flatMap((s) => s.references);
  const mapped = new Map<string, Source>();
  for (const r of refs) mapped.set(keyOf(r), r);
  const available = new Set(sources.map(keyOf));
  const mappedKnown = [...mapped.values()].filter((s) => available.size === 0 || available.has(keyOf(s)));
  const relevance = refs.map((r) => r.credibility_score ?? 0);
  const meanRelevance = relevance.length ? relevance.reduce((a, b) => a + b, 0) / relevance.length : 0;
  const band = (s: Source) =>
    (s.credibility_score ?? 0) >= 0.8 ? 'high' : (s.credibility_score ?? 0) >= 0.6 ? 'medium' : 'low';
  const count = (pred: (s: Source) => boolean) => mappedKnown.filter(pred).length;
  const coverage = sources.length ? mappedKnown.length / sources.length : 0;
  const structured = outline.length
    ? outline.filter((s) => s.key_points.length >= 2 && s.references.length >= 1).length / outline.length
    : 0;
  const improvements: string[] = [];
  const unreferenced = outline.filter((s) => s.references.length === 0).map((s) => s.heading);
  if (unreferenced.length) improvements.push(`Add sources to: ${unreferenced.join('; ')}`);
  const thin = outline.filter((s) => s.key_points.length < 2).map((s) => s.heading);
  if (thin.length) improvements.push(`Add key points to: ${thin.join('; ')}`);
  if (coverage < 0.5 && sources.length)
    improvements.push(
      `Only ${mappedKnown.length} of ${sources.length} sources are used; map more research to sections`,
    );
  return {
    source_mapping_stats: {
      total_sources_mapped: mappedKnown.length,
      coverage_percentage: round(coverage * 100, 1),
      average_relevance_score: round(meanRelevance),
      high_confidence_mappings: refs.filter((r) => band(r) === 'high').length,
    },
    grounding_insights: {
      confidence_analysis: {
        high_confidence_sources: count((s) => band(s) === 'high'),
        medium_confidence_sources: count((s) => band(s) === 'medium'),
        low_confidence_sources: count((s) => band(s) === 'low'),
      },
      authority_analysis: {
        academic_sources: count((s) => s.source_type === 'academic'),
        industry_sources: count((s) => s.source_type === 'industry'),
        government_sources: count((s) => s.source_type === 'government'),
      },
    },
    optimization_results: {
      overall_quality_score: round(4 * coverage + 3 * meanRelevance + 3 * structured, 1),
      improvements_made: improvements,
      optimization_focus: 'source coverage and section structure',
    },
    research_coverage: {
      sources_utilized: mappedKnown.length,
      content_gaps_identified: contentGaps.length,
      competitive_advantages: angles.slice(0, 5),
    },
  };
}
