/**
 * Scores an outline against the research it came from, for the outline
 * result's source_mapping_stats, grounding_insights, optimization_results and
 * research_coverage. Pure and documented in docs/api.md ("Outline result"):
 * - a source is "mapped" when at least one section references it;
 * - relevance of a reference = the source's credibility_score (0–1) when it
 *   has one; a source with none (null: the sample corpus) is *unrated*;
 * - average_relevance_score = mean over rated references (null when none is);
 * - confidence bands (rated sources only): high ≥ 0.8, medium ≥ 0.6, low
 *   below; unrated sources are counted apart (`unrated_sources`);
 * - authority by source_type: academic, industry, government; a sample
 *   document is none of these (counted apart, `sample_sources`), whatever
 *   kind of source it is written as;
 * - overall_quality_score (0–10) = 4 × coverage + 3 × credibility + 3 ×
 *   structure, credibility = mean credibility of all references with an
 *   unrated one counting 0 (no points for authority nobody claims),
 *   structure = share of sections with ≥ 2 key points and ≥ 1 reference.
 */
import type { OutlineSection, Source } from './types';

export interface OutlineAssessment {
  source_mapping_stats: {
    total_sources_mapped: number;
    coverage_percentage: number;
    /** Mean credibility of the rated references; null when no reference claims one. */
    average_relevance_score: number | null;
    high_confidence_mappings: number;
  };
  grounding_insights: {
    confidence_analysis: {
      high_confidence_sources: number;
      medium_confidence_sources: number;
      low_confidence_sources: number;
      /** Extra: mapped sources that claim no credibility (sample documents): in no band. */
      unrated_sources: number;
    };
    authority_analysis: {
      academic_sources: number;
      industry_sources: number;
      government_sources: number;
      /** Extra: mapped sample documents (written for this platform): no authority of any kind. */
      sample_sources: number;
    };
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
  const rated = (s: Source): s is Source & { credibility_score: number } => typeof s.credibility_score === 'number';
  const ratedRefs = refs.filter(rated).map((r) => r.credibility_score);
  const sum = ratedRefs.reduce((a, b) => a + b, 0);
  const meanRelevance = ratedRefs.length ? sum / ratedRefs.length : null;
  // Unrated references count 0 here: an outline earns no credibility points from sources that claim none.
  const credibility = refs.length ? sum / refs.length : 0;
  const band = (s: Source) =>
    !rated(s) ? 'unrated' : s.credibility_score >= 0.8 ? 'high' : s.credibility_score >= 0.6 ? 'medium' : 'low';
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
  const unratedRefs = refs.length - ratedRefs.length;
  if (unratedRefs)
    improvements.push(
      `${unratedRefs} of ${refs.length} references claim no credibility (sample documents): they earn no credibility points; cite published sources`,
    );
  return {
    source_mapping_stats: {
      total_sources_mapped: mappedKnown.length,
      coverage_percentage: round(coverage * 100, 1),
      average_relevance_score: meanRelevance === null ? null : round(meanRelevance),
      high_confidence_mappings: refs.filter((r) => band(r) === 'high').length,
    },
    grounding_insights: {
      confidence_analysis: {
        high_confidence_sources: count((s) => band(s) === 'high'),
        medium_confidence_sources: count((s) => band(s) === 'medium'),
        low_confidence_sources: count((s) => band(s) === 'low'),
        unrated_sources: count((s) => band(s) === 'unrated'),
      },
      authority_analysis: {
        academic_sources: count((s) => s.source_type === 'academic'),
        industry_sources: count((s) => s.source_type === 'industry'),
        government_sources: count((s) => s.source_type === 'government'),
        sample_sources: count((s) => s.source_type === 'sample'),
      },
    },
    optimization_results: {
      overall_quality_score: round(4 * coverage + 3 * credibility + 3 * structured, 1),
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
