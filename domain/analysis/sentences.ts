/**
 * Sentence boundary detection on plain text.
 *
 * A boundary is a run of `.`, `!`, `?` or `…` (plus closing quotes or
 * brackets) followed by whitespace and then an upper-case letter, a digit or
 * an opening quote/bracket. That single rule already keeps decimals (3.5),
 * URLs (example.com/a.html) and "e.g. something" together, because no
 * whitespace or no capital follows the dot. Abbreviations need a list:
 *  - ALWAYS: titles and reference words ("Mr. Smith", "Fig. 3") never end a sentence;
 *  - SOMETIMES: "etc.", "Inc.", "U.S." may end one, so we split only when the
 *    next word is a typical sentence opener ("... in the U.S. The ...").
 * A single capital letter followed by a dot is an initial ("J. K. Rowling").
 */
import { Span } from './types';
import { STOPWORDS } from './stopwords';

const ALWAYS = new Set([
  'mr',
  'mrs',
  'ms',
  'dr',
  'prof',
  'sr',
  'jr',
  'st',
  'mt',
  'capt',
  'gen',
  'col',
  'lt',
  'sgt',
  'rev',
  'hon',
  'vs',
  'cf',
  'approx',
  'fig',
  'figs',
  'vol',
  'vols',
  'pp',
  'dept',
  'univ',
  'est',
  'ca',
  'e.g',
  'i.e',
  'viz',
  'al',
  'Jan',
  'Feb',
  'Aug',
  'Sept',
  'Oct',
  'Nov',
  'Dec',
]);
const SOMETIMES = new Set(['etc', 'inc', 'ltd', 'co', 'corp', 'llc', 'plc', 'bros']);
const OPENERS = new Set([...STOPWORDS, 'however', 'therefore', 'meanwhile', 'still', 'yet']);

const TERMINATORS = '.!?…';
const CLOSERS = `"'”’)]»`;
const OPENING = `"'“‘([«`;

const isSpace = (c: string): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\u00a0';

/** Does the dot at the end of `word` belong to an abbreviation, given the following word? */
function isAbbreviation(word: string, next: string): boolean {
  if (word === '') return false;
  const lower = word.toLowerCase();
  if (/^\p{Lu}$/u.test(word)) return true; // initial
  if (ALWAYS.has(word) || ALWAYS.has(lower)) return true;
  if (lower === 'no' && /^\d/.test(next)) return true; // "No. 5"
  const dotted = /^(\p{L}\.)+\p{L}$/u.test(word); // U.S, a.m, p.m
  if (SOMETIMES.has(lower) || dotted) return !OPENERS.has(next.toLowerCase());
  return false;
}

/** Split plain text into sentence spans (indices into `text`, whitespace trimmed). */
export function splitSentences(text: string): Span[] {
  const spans: Span[] = [];
  const n = text.length;
  let start = 0;
  const pushSpan = (s: number, e: number): void => {
    while (s < e && isSpace(text[s])) s++;
    while (e > s && isSpace(text[e - 1])) e--;
    if (e > s) spans.push({ start: s, end: e });
  };
  for (let i = 0; i < n; i++) {
    if (!TERMINATORS.includes(text[i])) continue;
    let j = i;
    while (j + 1 < n && TERMINATORS.includes(text[j + 1])) j++;
    let k = j;
    while (k + 1 < n && CLOSERS.includes(text[k + 1])) k++;
    if (k + 1 < n && !isSpace(text[k + 1])) {
      i = j; // "3.5", "example.com", "?!" inside a token
      continue;
    }
    let m = k + 1;
    while (m < n && isSpace(text[m])) m++;
    if (m >= n) break; // the tail is pushed below
    const next = text[m];
    if (!(/\p{Lu}|\p{N}/u.test(next) || OPENING.includes(next))) {
      i = j; // lower-case continuation: "e.g. this", "... and then"
      continue;
    }
    if (text[i] === '.' && j === i) {
      const before = /[\p{L}.]*$/u.exec(text.slice(Math.max(start, i - 40), i))?.[0] ?? '';
      const word = before.replace(/^\.+/, '');
      const nextWord = /^[\p{L}\p{N}]*/u.exec(text.slice(m, m + 40))?.[0] ?? '';
      if (isAbbreviation(word, nextWord)) {
        i = j;
        continue;
      }
    }
    pushSpan(start, k + 1);
    start = m;
    i = k;
  }
  pushSpan(start, n);
  return spans;
}
