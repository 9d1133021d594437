/**
 * Public surface of the analysis domain (pure functions, no I/O).
 */
export { AnalysisInputError } from './errors';
export type { Span, Source, ResearchData, OutlineSection } from './types';
export { buildDocument, bodySentences, countWords, sentencesOf } from './text';
export type { TextDocument, Sentence } from './text';
export { splitSentences } from './sentences';
export { tokenize } from './words';
export { parseMarkdown } from './markdown';
export { countSyllables } from './syllables';
export { isEasyWord, EASY_WORDS } from './easy-words';
export * from './readability';
export { analyzeSeo, analyzeReadability } from './seo';
export type { SeoAnalysisResult, SeoAnalyzeInput, SeoAnalyzeOptions, Finding, AssessmentId } from './seo-types';
export { SEO_WEIGHTS } from './seo-score';
export { generateMetadata } from './metadata';
export type { MetadataInput, MetadataOptions, MetadataResult, BlogPostingJsonLd } from './metadata';
export { slugify, asciiFold } from './slug';
export { textWidthPx, truncateToWidth, fitsTitleWidth } from './pixel-width';
export { analyzeFlowBasic, analyzeFlowAdvanced, resolveSections } from './flow';
export type { FlowInput, BasicFlowResult, AdvancedFlowResult } from './flow';
export { createBm25Index, search, bm25Terms } from './bm25';
export type { Bm25Index, Bm25Doc, Bm25Hit, Bm25Options } from './bm25';
export { checkClaims, extractClaims } from './claims';
export type {
  ClaimSource,
  CheckOptions,
  ClaimResult,
  HallucinationCheckResult,
  VerificationStatus,
} from './claim-types';
export { refineOutline, rebalanceOutline, largestRemainder, outlineQuality } from './outline';
export type { RefineInput, RefineResult, RebalanceResult } from './outline';
