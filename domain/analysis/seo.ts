/**
 * SEO analysis of a blog post: the body of POST /api/blog/seo/analyze
 * (and of the general /api/blog-writer/seo/analyze and /api/seo-analyzer).
 *
 * Pure: no clock, no I/O. The route adds `success` and `processing_time_ms`.
 */
import { buildDocument, bodySentences, TextDocument } from './text';
import { countText, readabilityScores, readingTimeMinutes, round } from './readability';
import { extractLinksAndImages } from './links';
import { assessDensity, assessPlacement, resolveKeywords } from './seo-keywords';
import {
  assessHeadings,
  assessLists,
  assessParagraphs,
  assessSubheadingDistribution,
  assessTextLength,
} from './seo-structure';
import { consecutiveStarts, passiveVoice, readingEase, sentenceLength, transitionWords } from './seo-style';
import { assessImages, assessLinks, suggestLinks } from './seo-links';
import { SEO_WEIGHTS, orderFindings, recommendationsOf, seoScore } from './seo-score';
import { assessCoherence, capScore } from './seo-coherence';
import { Assessment, SeoAnalysisResult, SeoAnalyzeInput, SeoAnalyzeOptions } from './seo-types';

export function analyzeSeo(
  input: SeoAnalyzeInput,
  options: SeoAnalyzeOptions = {},
  prebuilt?: TextDocument,
): SeoAnalysisResult {
  const content = input.content ?? '';
  const doc = prebuilt ?? buildDocument(content);
  const whole = { start: 0, end: content.length };
  const body = bodySentences(doc);
  const counts = countText(body);
  const scores = readabilityScores(counts);
  const { links, images } = extractLinksAndImages(content, doc.blocks);

  const sets = resolveKeywords(input.keywords, input.research_data);
  const density = assessDensity(doc, sets);
  const placement = assessPlacement(doc, sets.primary[0], input.blog_title);
  const headings = assessHeadings(doc);
  const paragraphs = assessParagraphs(doc);
  const lists = assessLists(doc);
  const sl = sentenceLength(body);
  const passive = passiveVoice(body);
  const transitions = transitionWords(body, whole);
  const linkCheck = assessLinks(links, whole, options.site_url);
  const imageCheck = assessImages(images, whole);
  // The subject sentences are judged against: the keywords and the blog title when given, else the text's title.
  const coherence = assessCoherence(doc, [...sets.primary, ...(input.blog_title?.trim() ? [input.blog_title] : [])]);

  const assessments: Assessment[] = [
    density.assessment,
    placement,
    headings.assessment,
    assessSubheadingDistribution(doc),
    paragraphs.assessment,
    sl.assessment,
    passive.assessment,
    transitions.assessment,
    consecutiveStarts(body),
    assessTextLength(doc),
    readingEase(scores.flesch_reading_ease, counts.words > 0, whole),
    linkCheck.assessment,
    imageCheck.assessment,
    lists.assessment,
    coherence.assessment,
  ];
  const findings = orderFindings(assessments.flatMap((a) => a.findings));
  const { seo_score, details } = capScore(seoScore(assessments), coherence.coherence);

  return {
    seo_score,
    density: density.density,
    structure: {
      heading_hierarchy: headings.hierarchy,
      heading_distribution: headings.distribution,
      paragraph_length: paragraphs.paragraph_length,
      list_usage: lists.list_usage,
    },
    readability: {
      flesch_reading_ease: scores.flesch_reading_ease,
      flesch_kincaid_grade: scores.flesch_kincaid_grade,
      gunning_fog: scores.gunning_fog,
      coleman_liau: scores.coleman_liau,
    },
    link_suggestions: suggestLinks(doc, links, input.research_data?.sources),
    image_alt_status: imageCheck.status,
    recommendations: recommendationsOf(findings),
    findings,
    readability_details: {
      ...scores,
      counts,
      reading_time_minutes: round(readingTimeMinutes(counts.words), 2),
      sentence_length: { average_words: sl.average_words, over_20_words_share: sl.over_20_words_share },
      passive_voice_share: passive.share,
      transition_word_share: transitions.share,
    },
    assessments: assessments.map((a) => ({
      id: a.id,
      score: Math.round(a.score * 100),
      weight: SEO_WEIGHTS[a.id],
      applicable: a.applicable,
    })),
    coherence: details,
  };
}

/** Readability only (all formulas), for callers that need no SEO checks. */
export function analyzeReadability(
  content: string,
): ReturnType<typeof readabilityScores> & { counts: ReturnType<typeof countText> } {
  const counts = countText(bodySentences(buildDocument(content)));
  return { ...readabilityScores(counts), counts };
}
