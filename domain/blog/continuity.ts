/**
 * Continuity metrics of one blog section (spec: "Continuity metrics") and the
 * quality scores the section optimizer reports before and after a revision.
 * Pure: computed from the section's Markdown with domain/analysis.
 *
 * - word_count: body words (headings excluded), the project's word counter.
 * - readability_score: Flesch reading ease clamped to 0..100.
 * - keyword_density: occurrences of all given keywords (word forms matched)
 *   / all words, a ratio like the SEO `density` (0.012 = 1.2 %); 0 without keywords.
 * - citation_coverage: share (0..1) of the section's checkable claims
 *   (sentences with numbers, dates, names, comparisons, absolutes) that carry
 *   a `[n]` citation in or right after the sentence; 1 when there is no claim.
 * - coherence_score: the section cut into parts (its `###` subsections, else
 *   its paragraphs and lists) scored as flow sections; the parts' mean coherence.
 * - engagement_score: flow engagement of the whole section (questions, direct
 *   address, sentence-length variety, concrete numbers).
 * - flow_score: 0.35 coherence + 0.35 transition quality between the parts +
 *   0.3 engagement — the flow analysis' own weights, 0..100.
 */
import {
  analyzeFlowAdvanced,
  analyzeReadability,
  analyzeSeo,
  buildDocument,
  bodySentences,
  countWords,
  extractClaims,
} from '../analysis';

export interface ContinuityMetrics {
  word_count: number;
  readability_score: number;
  keyword_density: number;
  citation_coverage: number;
  flow_score: number;
  coherence_score: number;
  engagement_score: number;
}

const CITATION = /\[\d{1,3}\]/;
const clamp100 = (x: number) => Math.max(0, Math.min(100, Math.round(x)));

/** The section's parts: `###` subsections when there are two or more, else its blocks (paragraphs, lists). */
function partsOf(markdown: string): Array<{ id: string; heading: string; content: string }> {
  const bySub = markdown
    .split(/^(?=#{3,6}\s)/m)
    .map((s) => s.trim())
    .filter(Boolean);
  const blocks =
    bySub.length >= 2
      ? bySub
      : markdown
          .split(/\n\s*\n/)
          .map((s) => s.trim())
          .filter(Boolean);
  return blocks.map((b, i) => {
    const m = /^#{1,6}\s+(.+)\n?/.exec(b);
    return { id: `p${i + 1}`, heading: m ? m[1].trim() : '', content: m ? b.slice(m[0].length) : b };
  });
}

export function citationCoverage(markdown: string): number {
  const claims = extractClaims(markdown);
  if (claims.length === 0) return 1;
  const cited = claims.filter((c) =>
    CITATION.test(markdown.slice(c.start, Math.min(markdown.length, c.end + 8))),
  ).length;
  return Math.round((cited / claims.length) * 1000) / 1000;
}

export function continuityMetrics(
  markdown: string,
  opts: { heading?: string; keywords?: string[] } = {},
): ContinuityMetrics {
  const doc = buildDocument(markdown);
  const words = countWords(bodySentences(doc));
  const fre = analyzeReadability(markdown).flesch_reading_ease;
  const keywords = (opts.keywords ?? []).map((k) => k.trim()).filter(Boolean);
  const density = keywords.length
    ? Object.values(analyzeSeo({ content: markdown, keywords }, {}, doc).density.primary_keywords).reduce(
        (a, b) => a + b,
        0,
      )
    : 0;
  const whole = analyzeFlowAdvanced({ sections: [{ id: 'section', heading: opts.heading ?? '', content: markdown }] });
  const engagement = whole.detailed_section_analysis.section?.engagement_score ?? 0;
  const parts = partsOf(markdown);
  let coherence = 100;
  let transitions = 100;
  if (parts.length >= 2) {
    const flow = analyzeFlowAdvanced({ sections: parts });
    coherence = flow.cross_section_analysis.overall_coherence;
    transitions = flow.cross_section_analysis.transition_quality;
  }
  return {
    word_count: words,
    readability_score: words ? clamp100(fre) : 0,
    keyword_density: Math.round(density * 10000) / 10000,
    citation_coverage: citationCoverage(markdown),
    flow_score: words ? clamp100(0.35 * coherence + 0.35 * transitions + 0.3 * engagement) : 0,
    coherence_score: words ? clamp100(coherence) : 0,
    engagement_score: words ? clamp100(engagement) : 0,
  };
}

export interface QualityScores {
  engagement_score: number;
  readability_score: number;
  clarity_score: number;
}

/**
 * Scores the section optimizer compares before/after (0..100):
 * engagement and readability as above; clarity = mean of the SEO
 * assessments sentence length, paragraph length, passive voice and
 * consecutive sentences starting alike (each 0..100).
 */
export function qualityScores(markdown: string): QualityScores {
  const seo = analyzeSeo({ content: markdown });
  const ids = new Set(['sentence_length', 'paragraph_length', 'passive_voice', 'consecutive_sentences']);
  const parts = seo.assessments.filter((a) => ids.has(a.id) && a.applicable).map((a) => a.score);
  const m = continuityMetrics(markdown);
  return {
    engagement_score: m.engagement_score,
    readability_score: m.readability_score,
    clarity_score: parts.length ? clamp100(parts.reduce((a, b) => a + b, 0) / parts.length) : 0,
  };
}
