/**
 * The spec's `metadata {word_count, readability_score, seo_score}` of a
 * generated text, computed by the analysis engine on the text itself — the
 * same numbers POST /api/blog-writer/seo/analyze would report for it:
 * - word_count: body words (headings and the References list excluded);
 * - readability_score: Flesch reading ease clamped to 0–100;
 * - seo_score: domain/analysis seo_score for the given keywords (0–100).
 */
import { analyzeReadability, analyzeSeo } from '../analysis';
import { articleWordCount } from '../generation';
import type { ContentScores } from './types';

const round1 = (x: number) => Math.round(x * 10) / 10;

export function scoreContent(content: string, keywords: string[]): ContentScores & { recommendations: string[] } {
  const words = articleWordCount(content);
  const fre = analyzeReadability(content).flesch_reading_ease;
  const seo = analyzeSeo({ content, keywords });
  return {
    word_count: words,
    readability_score: words ? round1(Math.min(100, Math.max(0, fre))) : 0,
    seo_score: seo.seo_score,
    recommendations: seo.recommendations.slice(0, 5),
  };
}
