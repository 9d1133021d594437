/**
 * Readability formulas.
 *
 * Counting is separated from scoring: `countText` turns sentences into the
 * handful of numbers the formulas need, and each formula is a pure function
 * of those counts, so tests can check a formula against hand counts.
 * All scores are 0 for text without words (instead of NaN).
 */
import { countSyllables } from './syllables';
import { isEasyWord } from './easy-words';
import { letterCount, Token } from './words';

export interface TextCounts {
  sentences: number;
  words: number;
  syllables: number;
  /** Letters and digits (Coleman–Liau, ARI). */
  letters: number;
  /** Gunning fog "complex" words: 3+ syllables, not proper nouns, not hyphenated, not just inflected. */
  complexWords: number;
  /** SMOG polysyllables: 3+ syllables, no exclusions. */
  polysyllables: number;
  /** Dale–Chall difficult words: not on the familiar list (numbers and proper nouns are familiar). */
  difficultWords: number;
}

export interface ReadabilityScores {
  flesch_reading_ease: number;
  flesch_kincaid_grade: number;
  gunning_fog: number;
  coleman_liau: number;
  smog: number;
  automated_readability_index: number;
  dale_chall: number;
  consensus_grade: number;
}

/** Words per minute of an adult reader of online non-fiction (Brysbaert 2019 estimate). */
export const READING_WPM = 238;

const isCapitalised = (t: string): boolean => /^\p{Lu}/u.test(t);

function isComplex(word: string, syllables: number, first: boolean): boolean {
  if (syllables < 3) return false;
  if (word.includes('-')) return false; // compounds like "well-known"
  if (!first && isCapitalised(word)) return false; // proper nouns
  const stem = word.replace(/(es|ed|ing)$/i, '');
  return !(stem !== word && countSyllables(stem) < 3); // "created" is not complex
}

export function countText(sentences: Array<{ tokens: Token[] }>): TextCounts {
  const c: TextCounts = {
    sentences: 0,
    words: 0,
    syllables: 0,
    letters: 0,
    complexWords: 0,
    polysyllables: 0,
    difficultWords: 0,
  };
  for (const s of sentences) {
    const words = s.tokens.filter((t) => t.kind !== 'url');
    if (words.length === 0) continue;
    c.sentences++;
    words.forEach((t, i) => {
      const syl = t.kind === 'number' ? 1 : countSyllables(t.text);
      c.words++;
      c.syllables += syl;
      c.letters += letterCount(t.text);
      if (t.kind !== 'word') return;
      if (syl >= 3) c.polysyllables++;
      if (isComplex(t.text, syl, i === 0)) c.complexWords++;
      const properNoun = i > 0 && isCapitalised(t.text);
      if (!properNoun && !isEasyWord(t.text)) c.difficultWords++;
    });
  }
  return c;
}

const empty = (c: TextCounts): boolean => c.words === 0 || c.sentences === 0;

export function fleschReadingEase(c: TextCounts): number {
  return empty(c) ? 0 : 206.835 - 1.015 * (c.words / c.sentences) - 84.6 * (c.syllables / c.words);
}

export function fleschKincaidGrade(c: TextCounts): number {
  return empty(c) ? 0 : 0.39 * (c.words / c.sentences) + 11.8 * (c.syllables / c.words) - 15.59;
}

export function gunningFog(c: TextCounts): number {
  return empty(c) ? 0 : 0.4 * (c.words / c.sentences + 100 * (c.complexWords / c.words));
}

/** L = letters per 100 words, S = sentences per 100 words. */
export function colemanLiau(c: TextCounts): number {
  if (empty(c)) return 0;
  const L = (c.letters / c.words) * 100;
  const S = (c.sentences / c.words) * 100;
  return 0.0588 * L - 0.296 * S - 15.8;
}

/** SMOG normalised to a 30-sentence sample, as McLaughlin's formula does for shorter texts. */
export function smog(c: TextCounts): number {
  return empty(c) ? 0 : 1.043 * Math.sqrt(c.polysyllables * (30 / c.sentences)) + 3.1291;
}

export function automatedReadabilityIndex(c: TextCounts): number {
  return empty(c) ? 0 : 4.71 * (c.letters / c.words) + 0.5 * (c.words / c.sentences) - 21.43;
}

/** New Dale–Chall raw score (with the 3.6365 adjustment above 5 % difficult words). */
export function daleChall(c: TextCounts): number {
  if (empty(c)) return 0;
  const pct = (c.difficultWords / c.words) * 100;
  return 0.1579 * pct + 0.0496 * (c.words / c.sentences) + (pct > 5 ? 3.6365 : 0);
}

/** Dale–Chall score -> school grade (midpoint of the published band). */
export function daleChallGrade(score: number): number {
  if (score < 5) return 4;
  if (score < 6) return 5.5;
  if (score < 7) return 7.5;
  if (score < 8) return 9.5;
  if (score < 9) return 11.5;
  if (score < 10) return 14;
  return 16;
}

/** Flesch reading ease -> school grade (midpoint of Flesch's table). */
export function fleschGrade(score: number): number {
  if (score >= 90) return 5;
  if (score >= 80) return 6;
  if (score >= 70) return 7;
  if (score >= 60) return 8.5;
  if (score >= 50) return 11;
  if (score >= 30) return 14;
  return 16;
}

/**
 * Consensus grade: the median of seven grade estimates (FK, fog, Coleman–Liau,
 * SMOG, ARI, and Dale–Chall and Flesch ease converted to grades). The median
 * ignores the one or two formulas that go wild on unusual text.
 */
export function consensusGrade(c: TextCounts): number {
  if (empty(c)) return 0;
  const grades = [
    fleschKincaidGrade(c),
    gunningFog(c),
    colemanLiau(c),
    smog(c),
    automatedReadabilityIndex(c),
    daleChallGrade(daleChall(c)),
    fleschGrade(fleschReadingEase(c)),
  ].sort((a, b) => a - b);
  return grades[3];
}

export const round = (x: number, digits = 2): number => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};

export function readabilityScores(c: TextCounts): ReadabilityScores {
  return {
    flesch_reading_ease: round(fleschReadingEase(c)),
    flesch_kincaid_grade: round(fleschKincaidGrade(c)),
    gunning_fog: round(gunningFog(c)),
    coleman_liau: round(colemanLiau(c)),
    smog: round(smog(c)),
    automated_readability_index: round(automatedReadabilityIndex(c)),
    dale_chall: round(daleChall(c)),
    consensus_grade: round(consensusGrade(c), 1),
  };
}

/** Reading time in minutes (fractional) at READING_WPM. */
export function readingTimeMinutes(words: number, wpm = READING_WPM): number {
  return words / wpm;
}
