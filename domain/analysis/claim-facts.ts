/**
 * Checkable facts inside a sentence: numbers (with unit and scale), dates
 * and names, each with the content words around it (its "subject").
 *
 * Dates are normalised so "March 2023", "Mar. 2023", "2023-03" and
 * "March 5, 2023" compare at their common precision. Years standing alone
 * (1900-2099, no unit) are dates, not quantities.
 */
import { tokenize } from './words';
import { contentKeys, wordKey } from './word-forms';
import { STOPWORDS } from './stopwords';

export interface NumberFact {
  value: number;
  unit: string;
  text: string;
  /** Decimal places written, to compare "about 50%" with 49.6%. */
  decimals: number;
  context: Set<string>;
}

export interface DateFact {
  year: number;
  month?: number;
  day?: number;
  text: string;
  context: Set<string>;
}

export interface Facts {
  numbers: NumberFact[];
  dates: DateFact[];
  /** Lower-cased keys of capitalised non-initial words (likely names). */
  names: string[];
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH_RE =
  '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
const DATE_PATTERNS: Array<[RegExp, (m: RegExpExecArray) => Omit<DateFact, 'text' | 'context'>]> = [
  [
    /\b((?:19|20)\d{2})-(\d{1,2})(?:-(\d{1,2}))?\b/g,
    (m) => ({ year: +m[1], month: +m[2], ...(m[3] ? { day: +m[3] } : {}) }),
  ],
  [
    new RegExp(`\\b${MONTH_RE}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+((?:19|20)\\d{2})\\b`, 'gi'),
    (m) => ({ year: +m[3], month: monthOf(m[1]), day: +m[2] }),
  ],
  [
    new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+${MONTH_RE}\\s+((?:19|20)\\d{2})\\b`, 'gi'),
    (m) => ({ year: +m[3], month: monthOf(m[2]), day: +m[1] }),
  ],
  [
    new RegExp(`\\b${MONTH_RE}(?:\\s+of)?\\s+((?:19|20)\\d{2})\\b`, 'gi'),
    (m) => ({ year: +m[2], month: monthOf(m[1]) }),
  ],
  [/(?<![$€£\d.,])\b((?:19|20)\d{2})\b(?!\s*%|[.,]\d|\s*(?:percent|million|billion))/g, (m) => ({ year: +m[1] })],
];
const NUMBER_RE =
  /([$€£])?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?![\p{L}\d])(\s*(?:%|percent\b|per cent\b))?(\s+(?:thousand|million|billion|trillion)\b)?/giu;
const SCALE: Record<string, number> = { thousand: 1e3, million: 1e6, billion: 1e9, trillion: 1e12 };

function monthOf(s: string): number {
  return MONTHS.indexOf(s.slice(0, 3).toLowerCase()) + 1;
}

const MONTH_WORDS = new Set(
  'january february march april may june july august september october november december jan feb mar apr jun jul aug sep sept oct nov dec'
    .split(' ')
    .map(wordKey),
);
/** Unit words say how a number is written, not what it is about. */
export const UNIT_WORDS: ReadonlySet<string> = new Set(
  ['percent', 'cent', 'percentage', 'thousand', 'million', 'billion', 'trillion'].map(wordKey),
);
/** Clause boundaries: a number's subject rarely reaches across them. */
const CLAUSE = /,(?!\d)|[;:()–—]|\s(?:while|whereas|but|and|although|compared)\s/gi;
const CLAUSE_NO_COMMA = /[;:()–—]|\s(?:while|whereas|but|and|although|compared)\s/gi;

/**
 * Subject of a fact: content-word keys within `radius` words of the span
 * [start, end), not crossing a clause boundary. "Revenue grew 45% while
 * costs fell 10%" gives 45% {revenue, grew} and 10% {costs, fell}. Dates
 * ignore commas: "In March 2023, Acme hired ..." is about the hiring.
 */
function contextOf(text: string, start: number, end: number, commas = true, radius = 4): Set<string> {
  let from = 0;
  let to = text.length;
  for (const m of text.matchAll(commas ? CLAUSE : CLAUSE_NO_COMMA)) {
    const at = m.index!;
    if (at + m[0].length <= start) from = at + m[0].length;
    else if (at >= end) {
      to = at;
      break;
    }
  }
  const toks = tokenize(text.slice(from, to)).filter((t) => t.kind === 'word');
  const before = toks.filter((t) => t.end + from <= start).slice(-radius);
  const after = toks.filter((t) => t.start + from >= end).slice(0, radius);
  return new Set(
    [...before, ...after].flatMap((t) => contentKeys(t.text)).filter((k) => !MONTH_WORDS.has(k) && !UNIT_WORDS.has(k)),
  );
}

export function extractFacts(text: string): Facts {
  const taken: Array<[number, number]> = [];
  const free = (s: number, e: number): boolean => taken.every(([a, b]) => e <= a || s >= b);
  const dates: DateFact[] = [];
  for (const [re, build] of DATE_PATTERNS) {
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text))) {
      const s = m.index;
      const e = s + m[0].length;
      if (!free(s, e)) continue;
      const d = build(m);
      if (d.month !== undefined && (d.month < 1 || d.month > 12)) continue;
      taken.push([s, e]);
      dates.push({ ...d, text: m[0], context: contextOf(text, s, e, false) });
    }
  }
  const numbers: NumberFact[] = [];
  NUMBER_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = NUMBER_RE.exec(text))) {
    const s = m.index;
    const e = s + m[0].length;
    if (!free(s, e)) continue;
    const base = Number(`${m[2].replace(/,/g, '')}${m[3] ? '.' + m[3] : ''}`);
    const scale = m[5] ? SCALE[m[5].trim().toLowerCase()] : 1;
    const unit = m[4] ? '%' : (m[1] ?? '');
    numbers.push({
      value: base * scale,
      unit,
      text: m[0].trim(),
      decimals: m[3]?.length ?? 0,
      context: contextOf(text, s, e),
    });
  }
  return { numbers, dates, names: namesOf(text) };
}

export function namesOf(text: string): string[] {
  const toks = tokenize(text).filter((t) => t.kind === 'word');
  const out = new Set<string>();
  toks.forEach((t, i) => {
    if (!/^\p{Lu}/u.test(t.text) || STOPWORDS.has(t.text.toLowerCase()) || t.text === 'I') return;
    if (MONTHS.includes(t.text.slice(0, 3).toLowerCase()) && t.text.length <= 9) return;
    // the first word is capitalised anyway; count it only when a capitalised word follows ("Acme Corp")
    if (i === 0 && !(toks[1] && /^\p{Lu}/u.test(toks[1].text))) return;
    out.add(wordKey(t.text));
  });
  return [...out];
}

/** Numbers agree when equal within 0.5 %, or equal once the source value is rounded as the claim was written. */
export function numbersAgree(claim: NumberFact, source: NumberFact): boolean {
  if (claim.unit !== source.unit) return false;
  const a = claim.value;
  const b = source.value;
  if (Math.abs(a - b) <= 0.005 * Math.max(Math.abs(a), Math.abs(b))) return true;
  const f = 10 ** claim.decimals;
  return Math.round(b * f) / f === a;
}

/** Dates agree when equal at the precision both state (year, then month, then day). */
export function datesAgree(a: DateFact, b: DateFact): boolean {
  if (a.year !== b.year) return false;
  if (a.month !== undefined && b.month !== undefined && a.month !== b.month) return false;
  if (a.day !== undefined && b.day !== undefined && a.day !== b.day) return false;
  return true;
}
