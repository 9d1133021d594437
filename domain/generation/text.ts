/**
 * Small text tools of the offline writer: a deterministic hash (our only
 * source of "variety": same input, same choices), word counts with the
 * project's counter, and the casing and clean-up rules that let template and
 * source sentences be joined into grammatical English.
 */
import { tokenize } from '../analysis/words';
import { countWords, bodySentences, buildDocument } from '../analysis/text';
import { STOPWORDS } from '../analysis/stopwords';

/** FNV-1a, 32 bit: cheap, stable across platforms, good enough to pick templates. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A deterministic choice from `items` keyed by `seed`. */
export function pick<T>(items: readonly T[], seed: string): T {
  return items[hash32(seed) % items.length];
}

/** `items` rotated to start at a seed-chosen position: varied order, every item still used once. */
export function rotate<T>(items: readonly T[], seed: string): T[] {
  if (items.length === 0) return [];
  const k = hash32(seed) % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}

/** Words of one sentence or line as the project counts them (URLs excluded, numbers included). */
export function wordsIn(text: string): number {
  return countWords([{ tokens: tokenize(text) }]);
}

/** Body words of Markdown (headings excluded): the measure every length target refers to. */
export function markdownWordCount(markdown: string): number {
  return countWords(bodySentences(buildDocument(markdown)));
}

export const capitalize = (s: string): string => (s ? s[0].toUpperCase() + s.slice(1) : s);

/**
 * Lower-cases the first letter when that is safe: the first word is a plain
 * capitalised word ("Content", not "SEO" or "iPhone") and not a known proper
 * noun (words the sources capitalise mid-sentence, like "Google").
 */
export function safeLower(s: string, proper: ReadonlySet<string>): string {
  const first = /^[\p{L}]+/u.exec(s)?.[0] ?? '';
  if (!/^\p{Lu}\p{Ll}*$/u.test(first) || first === 'I' || proper.has(first)) return s;
  return s[0].toLowerCase() + s.slice(1);
}

/** Words the texts capitalise in the middle of a sentence: treated as proper nouns. */
export function properNouns(texts: string[]): Set<string> {
  const out = new Set<string>();
  for (const text of texts) {
    for (const m of text.matchAll(/[^.!?:\s]\s+(\p{Lu}[\p{L}]+)/gu)) out.add(m[1]);
  }
  return out;
}

/**
 * Words `texts` write in lower case after the start of a sentence ("… for an author reading …"), lower-cased: common
 * words, not names. compose.ts BriefInput.commonWords: a topic starting with one ("Author evenings at …") is in sentence case.
 */
export function wordsWrittenLower(texts: string[]): Set<string> {
  const out = new Set<string>();
  for (const t of texts) for (const m of t.matchAll(/(?<=[\p{L},;]\s+)(\p{Ll}[\p{Ll}’'-]*)/gu)) out.add(m[1]);
  return out;
}

const TITLE_SMALL = new Set([
  'a',
  'an',
  'and',
  'as',
  'at',
  'but',
  'by',
  'for',
  'in',
  'of',
  'on',
  'or',
  'the',
  'to',
  'vs',
  'with',
]);

/** Title Case that leaves acronyms and small words alone ("a guide to SEO for small teams" -> "A Guide to SEO for Small Teams"). */
export function titleCase(s: string): string {
  return s
    .split(/\s+/)
    .filter(Boolean)
    .map((w, i) =>
      i > 0 && TITLE_SMALL.has(w.toLowerCase()) ? w.toLowerCase() : /[A-Z]/.test(w.slice(1)) ? w : capitalize(w),
    )
    .join(' ');
}

// Discourse markers only make sense next to the sentence they answered; out of context they dangle.
const LEADING_CONNECTIVE =
  /^(however|moreover|also|additionally|in addition|furthermore|finally|first|second|third|in fact|still|that said|similarly|likewise|instead|as a result|for example|for instance|meanwhile|of course|so|but|and)\s*,?\s+/i;

/** Light paraphrase: drop dangling connectives and trim wordy stock phrases. */
export function tidySourceSentence(sentence: string): string {
  let s = sentence
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/^[-*•]\s+/, '');
  s = s.replace(LEADING_CONNECTIVE, '');
  s = s
    .replace(/\bin order to\b/gi, 'to')
    .replace(/\bdue to the fact that\b/gi, 'because')
    .replace(/\ba (large|great) number of\b/gi, 'many')
    .replace(/\ba lot of\b/gi, 'many')
    .replace(/\butiliz(e|es|ed|ing)\b/gi, (_m, e: string) => `us${e}`)
    .replace(/\bis able to\b/gi, 'can')
    .replace(/\bare able to\b/gi, 'can')
    .replace(/\bat this point in time\b/gi, 'now')
    .replace(/\bin the event that\b/gi, 'if');
  return capitalize(s);
}

/** Sentences that open with a bare pronoun refer to something we did not quote. */
export function isDangling(sentence: string): boolean {
  return (
    /^(this|that|these|those|it|they|he|she|such|here|there)\b(?!\s+(is|are)\s+(a|an|no|many|several|two|three)\b)/i.test(
      sentence,
    ) || /^(without|with|for|in|of|from|despite|unlike|like) (one|it|them|this|that|these|those|such)\b/i.test(sentence)
  );
}

/** Opening words after which a "that"-clause frame ("X reports that ...") stays grammatical. */
export function startsDeclarative(sentence: string): boolean {
  const w = (/^[\p{L}\d]+/u.exec(sentence)?.[0] ?? '').toLowerCase();
  return (
    /^\d/.test(w) ||
    [
      'the',
      'a',
      'an',
      'most',
      'many',
      'some',
      'few',
      'more',
      'fewer',
      'only',
      'each',
      'every',
      'all',
      'both',
      'several',
      'nearly',
      'about',
      'over',
      'around',
      'almost',
      'roughly',
      'half',
      'readers',
      'marketers',
      'teams',
      'brands',
      'companies',
      'businesses',
      'users',
      'people',
      'search',
      'content',
      'email',
    ].includes(w)
  );
}

/** Puts `[n]` before the sentence's final punctuation: "... rates [2]." */
export function withCitation(sentence: string, n: number): string {
  const m = /^(.*?)([.!?]+["”’)]*)?$/s.exec(sentence.trim())!;
  return `${m[1]} [${n}]${m[2] ?? '.'}`;
}

/** Ends a sentence with a full stop when it has no terminal punctuation. */
export const terminate = (s: string): string => (/[.!?]["”’)]*$/.test(s.trim()) ? s.trim() : `${s.trim()}.`);

/** Lower-cased content words of a phrase (for overlap tests). */
export function contentWords(text: string): string[] {
  return tokenize(text)
    .filter((t) => t.kind === 'word' && !STOPWORDS.has(t.text.toLowerCase()))
    .map((t) => t.text.toLowerCase());
}

/** Lower-cases every plain capitalised word of a phrase (headings used mid-sentence), keeping acronyms and proper nouns. */
export function lowerPhrase(phrase: string, proper: ReadonlySet<string>): string {
  return phrase
    .trim()
    .replace(/[.!?:;]+$/, '')
    .split(/\s+/)
    .map((w) => (/^\p{Lu}\p{Ll}+$/u.test(w) && !proper.has(w) ? w.toLowerCase() : w))
    .join(' ');
}
