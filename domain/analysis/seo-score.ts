/**
 * seo_score: a weighted sum of assessment scores.
 *
 * Each assessment scores 0..1. seo_score = 100 * sum(w * score) / sum(w)
 * over the applicable assessments, rounded. Assessments that do not apply
 * (no keyword supplied, no paragraphs, ...) drop out and the remaining
 * weights are rescaled, so a post is not punished for a check it cannot
 * fail. Weights (sum 100) are documented in docs/analysis.md.
 *
 * An off-topic or repetitive text (coherence.ts) is then capped at
 * COHERENCE_SCORE_CAP whatever its other checks say: structure and keyword
 * counts cannot make an incoherent text a good one.
 */
import { Assessment, AssessmentId, Finding } from './seo-types';

export const SEO_WEIGHTS: Readonly<Record<AssessmentId, number>> = {
  coherence: 15,
  keyword_density: 10,
  keyword_placement: 10,
  heading_structure: 10,
  sentence_length: 10,
  text_length: 5,
  subheading_distribution: 5,
  paragraph_length: 5,
  passive_voice: 5,
  transition_words: 5,
  consecutive_sentences: 5,
  readability: 5,
  links: 5,
  image_alt: 5,
  list_usage: 0, // informational only
};

export function seoScore(assessments: Assessment[]): number {
  let num = 0;
  let den = 0;
  for (const a of assessments) {
    if (!a.applicable) continue;
    const w = SEO_WEIGHTS[a.id];
    num += w * Math.max(0, Math.min(1, a.score));
    den += w;
  }
  return den === 0 ? 0 : Math.round((100 * num) / den);
}

/**
 * Recommendations: unique, heaviest assessment first, problems before
 * improvements, so the list reads as a to-do list in order of impact.
 */
export function orderFindings(findings: Finding[]): Finding[] {
  const sev = (f: Finding): number => (f.severity === 'problem' ? 0 : 1);
  return findings
    .map((f, i) => ({ f, i }))
    .sort((a, b) => SEO_WEIGHTS[b.f.assessment] - SEO_WEIGHTS[a.f.assessment] || sev(a.f) - sev(b.f) || a.i - b.i)
    .map((x) => x.f);
}

export function recommendationsOf(ordered: Finding[]): string[] {
  return [...new Set(ordered.map((f) => f.recommendation))];
}
