/**
 * Public surface of the offline writer (the `local` provider's logic): pure,
 * deterministic functions of their input. infra/ai/local.ts adapts them to
 * the AI gateway; docs/providers.md says what they are and are not.
 */
export type * from './types';
export { writeSection, createWriterContext } from './section';
export type { WriterContext } from './section';
export {
  writeArticle,
  articleWordCount,
  citationNumbers,
  referenceLine,
  renumberCitations,
  renumberArticle,
  withoutRepeats,
} from './article';
export { draftOutline, sectionCount } from './outline';
export { researchSummary } from './research';
export { extractiveSummary, localChatAnswer } from './summary';
export { numberSources } from './evidence';
export { termStats, topPhrases } from './terms';
export { markdownWordCount, hash32 } from './text';
export { toneFamily } from './phrases';
export { writeSocialPost, hashtagsOf } from './calendar-post';
export type { SocialPost, SocialPostInput } from './calendar-post';
export { writePlatformPost, pascalHashtag } from './platform-post';
export type { PlatformPostInput, PlatformPostDraft } from './platform-post';
export { contentStrategy } from './strategy';
export type { ContentStrategyInput, ContentStrategyDraft, CitedAdvice } from './strategy';
export { developPersonas } from './personas';
export type { PersonasInput, PersonasDraft, PersonaDraft } from './personas';
export { keywordInsights, intentOf } from './keywords';
export type { KeywordInsights, KeywordInsightsInput, Intent } from './keywords';
export { writeShortCopy, shortCopyPrompt, charCount, fitToLimit } from './copy';
export type { ShortCopy, ShortCopyInput } from './copy';
export { MODEL_PLANS, COPY_FORMS, PROVIDER_CHOICES, targetsOf, withValue } from './model-plan';
export type * from './model-plan';
export {
  gateCopy,
  gateRewrite,
  gateText,
  claimsHold,
  trimAtSentence,
  cleanModelText,
  isRepetitive,
  looksEnglish,
} from './quality-gate';
export { rewriteTurns, copyTurns } from './model-prompts';
export { rewriteUnits, assemble, withMarkers } from './rewrite-units';
export type { Coverage, BriefInput } from './compose';
