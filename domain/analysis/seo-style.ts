/**
 * Sentence-level style checks: long sentences, passive voice, transition
 * words, repeated sentence openings and overall reading ease.
 */
import { Assessment, Finding } from './seo-types';
import { Sentence, wordsOf } from './text';
import { isPassive } from './passive';
import { hasTransition } from './transition-words';
import { Span } from './types';
import { round } from './readability';

export const LONG_SENTENCE_WORDS = 20;
export const MAX_LONG_SENTENCE_SHARE = 0.25;
export const MAX_PASSIVE_SHARE = 0.1;
export const MIN_TRANSITION_SHARE = 0.3;
export const MIN_SAME_START_RUN = 3;
/** Findings listing individual sentences stop after this many (the message says how many more). */
const MAX_LISTED = 10;

const share = (n: number, d: number): number => (d === 0 ? 0 : n / d);
const pct = (x: number): string => `${round(x * 100, 1)}%`;

export function sentenceLength(sentences: Sentence[]): {
  average_words: number;
  over_20_words_share: number;
  assessment: Assessment;
} {
  const lengths = sentences.map((s) => wordsOf(s).length);
  const long = sentences.filter((_, i) => lengths[i] > LONG_SENTENCE_WORDS);
  const sh = share(long.length, sentences.length);
  const findings: Finding[] = [];
  if (sh > MAX_LONG_SENTENCE_SHARE) {
    long
      .map((s) => ({ s, n: wordsOf(s).length }))
      .sort((a, b) => b.n - a.n)
      .slice(0, MAX_LISTED)
      .forEach(({ s, n }) =>
        findings.push({
          assessment: 'sentence_length',
          severity: 'problem',
          start: s.start,
          end: s.end,
          message: `Sentence of ${n} words; ${pct(sh)} of sentences exceed ${LONG_SENTENCE_WORDS} words (maximum 25%).`,
          recommendation: `Split this sentence into ${Math.ceil(n / 15)} sentences of 15 words or fewer.`,
        }),
      );
  }
  // full score up to 25 %, zero at 50 %
  const score =
    sh <= MAX_LONG_SENTENCE_SHARE ? 1 : Math.max(0, 1 - (sh - MAX_LONG_SENTENCE_SHARE) / MAX_LONG_SENTENCE_SHARE);
  const total = lengths.reduce((a, b) => a + b, 0);
  return {
    average_words: round(share(total, sentences.length), 1),
    over_20_words_share: round(sh, 4),
    assessment: { id: 'sentence_length', score, applicable: sentences.length > 0, findings },
  };
}

export function passiveVoice(sentences: Sentence[]): { share: number; assessment: Assessment } {
  const passive = sentences.filter((s) => isPassive(s.tokens));
  const sh = share(passive.length, sentences.length);
  const findings: Finding[] =
    sh <= MAX_PASSIVE_SHARE
      ? []
      : passive.slice(0, MAX_LISTED).map((s) => ({
          assessment: 'passive_voice' as const,
          severity: 'improvement' as const,
          start: s.start,
          end: s.end,
          message: `Passive sentence; ${pct(sh)} of sentences are passive (maximum 10%).`,
          recommendation: 'Rewrite in the active voice: name who does the action and make them the subject.',
        }));
  const score = sh <= MAX_PASSIVE_SHARE ? 1 : Math.max(0, 1 - (sh - MAX_PASSIVE_SHARE) / MAX_PASSIVE_SHARE);
  return {
    share: round(sh, 4),
    assessment: { id: 'passive_voice', score, applicable: sentences.length > 0, findings },
  };
}

export function transitionWords(sentences: Sentence[], whole: Span): { share: number; assessment: Assessment } {
  const with_ = sentences.filter((s) => hasTransition(s.tokens)).length;
  const sh = share(with_, sentences.length);
  const findings: Finding[] = [];
  if (sentences.length > 0 && sh < MIN_TRANSITION_SHARE) {
    const needed = Math.ceil(MIN_TRANSITION_SHARE * sentences.length) - with_;
    findings.push({
      assessment: 'transition_words',
      severity: 'improvement',
      ...whole,
      message: `Only ${pct(sh)} of sentences contain a transition word (minimum 30%).`,
      recommendation: `Link ideas with words such as "however", "for example", "as a result" or "therefore" in about ${needed} more sentence(s).`,
    });
  }
  return {
    share: round(sh, 4),
    assessment: {
      id: 'transition_words',
      score: Math.min(1, sh / MIN_TRANSITION_SHARE),
      applicable: sentences.length > 0,
      findings,
    },
  };
}

/** Runs of 3+ consecutive body sentences that open with the same word. */
export function consecutiveStarts(sentences: Sentence[]): Assessment {
  const firsts = sentences.map((s) => wordsOf(s)[0]?.text.toLowerCase() ?? '');
  const findings: Finding[] = [];
  let i = 0;
  while (i < sentences.length) {
    let j = i;
    while (j + 1 < sentences.length && firsts[j + 1] === firsts[i] && firsts[i] !== '') j++;
    const run = j - i + 1;
    if (run >= MIN_SAME_START_RUN) {
      findings.push({
        assessment: 'consecutive_sentences',
        severity: 'improvement',
        start: sentences[i].start,
        end: sentences[j].end,
        message: `${run} consecutive sentences start with "${wordsOf(sentences[i])[0].text}".`,
        recommendation: `Vary the openings: start some of these sentences with a transition, the subject or a short phrase instead of "${wordsOf(sentences[i])[0].text}".`,
      });
    }
    i = j + 1;
  }
  return {
    id: 'consecutive_sentences',
    score: Math.max(0, 1 - 0.5 * findings.length),
    applicable: sentences.length > 0,
    findings,
  };
}

/** Flesch reading ease 60+ is plain English for a general web audience; 30 or less is academic. */
export function readingEase(fre: number, hasText: boolean, whole: Span): Assessment {
  const score = Math.max(0, Math.min(1, (fre - 30) / 30));
  const findings: Finding[] =
    hasText && fre < 60
      ? [
          {
            assessment: 'readability',
            severity: fre < 30 ? 'problem' : 'improvement',
            ...whole,
            message: `Flesch reading ease is ${round(fre, 1)} (target 60 or more).`,
            recommendation: 'Use shorter sentences and everyday words with fewer syllables.',
          },
        ]
      : [];
  return { id: 'readability', score, applicable: hasText, findings };
}
