/**
 * Checkable facts inside a sentence: numbers (with unit and scale), dates
 * and names, each with the content words around it (its "subject").
 *
 * Dates are normalised so "March 2023", "Mar. 2023", "2023-03" and
 * "March 5, 2023" compare at their common precision. Years standing alone
 * (1900-2099, no unit) are dates, not quantities. Number words ("six",
 * "twenty-five", "a dozen") are numbers too; shares in words ("a third of",
 * "half of", "one in five") are percentages; ordinals ("15th") compare with
 * ordinals. Citation markers ("[3]",
 * "[1, 4]", "[2][5]", "[1-3]") point at a source; they are never figures.
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
  /** A bound instead of a value: "more than 150" is `>`, "at most 5%" is `<=`. */
  bound?: Bound;
  context: Set<string>;
}

export type Bound = '>' | '>=' | '<' | '<=';

const BOUNDS: Array<[RegExp, Bound]> = [
  [/\bno (?:more|greater|higher) than\s*$/, '<='],
  [/\bno (?:fewer|less|lower) than\s*$/, '>='],
  [/\b(?:more|greater|higher|longer|older|bigger|larger|later) than\s*$|\b(?:over|above|exceeding)\s*$/, '>'],
  [/\bat least\s*$|\bupwards of\s*$/, '>='],
  [/\b(?:fewer|less|lower|shorter|younger|smaller|earlier) than\s*$|\b(?:under|below)\s*$/, '<'],
  [/\bat most\s*$|\bup to\s*$/, '<='],
];

/** The bound words right before a number ("more than", "under", "at least"), if any, as written. */
function boundBefore(text: string, at: number): { bound: Bound; words: string } | undefined {
  const before = text.slice(Math.max(0, at - 24), at);
  for (const [re, bound] of BOUNDS) {
    const m = re.exec(before.toLowerCase());
    if (m) return { bound, words: before.slice(m.index).trim() };
  }
  return undefined;
}

export interface DateFact {
  /** Absent for a month named without a year ("peaked in August"). */
  year?: number;
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
/** After a month: the rest of a range ending in a dated month ("and September 2024", "to March 2023"). */
const RANGE_YEAR = new RegExp(`^\\s*(?:and|to|through|until|till|-|–)\\s+${MONTH_RE}\\s+((?:19|20)\\d{2})\\b`, 'i');
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
  // a month without a year, capitalised and not opening the sentence ("peaked in August", "between May and June")
  [
    /(?<=\S\s+)\b(January|February|March|April|May|June|July|August|September|October|November|December)\b(?!\s+\d)/g,
    // the first month of a range takes the range's year: "between January and September 2024" is January 2024
    (m) => {
      const year = RANGE_YEAR.exec(m.input.slice(m.index + m[0].length));
      return { month: monthOf(m[1]), ...(year ? { year: +year[2] } : {}) };
    },
  ],
];
const NUMBER_RE =
  /(?<![\p{L}\d.,])([$€£])?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?![\p{L}\d])(\s*(?:%|percent\b|per cent\b))?(\s+(?:thousand|million|billion|trillion)\b)?/giu;
const SCALE: Record<string, number> = { thousand: 1e3, million: 1e6, billion: 1e9, trillion: 1e12 };
/** Number words ("six", "twenty-five", "a dozen"); "one" is left out, it is mostly a pronoun ("one of the"). */
const UNITS: Record<string, number> = Object.fromEntries(
  'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen'
    .split(' ')
    .map((w, i) => [w, i]),
);
UNITS.dozen = 12;
UNITS.dozens = 24;
const TENS: Record<string, number> = Object.fromEntries(
  'twenty thirty forty fifty sixty seventy eighty ninety'.split(' ').map((w, i) => [w, 20 + 10 * i]),
);
const FRACTIONS: Record<string, number> = {
  half: 50,
  third: 100 / 3,
  quarter: 25,
  fifth: 20,
  tenth: 10,
  'two thirds': 200 / 3,
  'three quarters': 75,
  'two fifths': 40,
  'three fifths': 60,
  'four fifths': 80,
};
const FRACTION_RE =
  /\b(?:(?:a|one) (?:half|third|quarter|fifth|tenth) of|(?<!(?:first|second|last|final|other|the) )half (?:of|the)\b|(?:by|in) (?:(?:about|roughly|nearly|around|almost|over|under) )?(?:(?:a|one) (?:third|quarter|fifth|tenth)|half)\b|(?:two|three|four) (?:thirds|quarters|fifths) of|(?:one|two|three|four|[1-9]) in (?:two|three|four|five|six|ten|[1-9]\d?)\b)/gi;
const MULTIPLIER_RE =
  /\b(twice|thrice|(?:two|three|four|five|six|seven|eight|nine|ten|\d+(?:\.\d+)?) times)(?= (?:as|more|less|fewer|higher|lower|larger|bigger|smaller|faster|slower|the)\b)/gi;
const ORDINAL_WORDS = ['second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'];
const RUN_RE = new RegExp(
  `\\b(${ORDINAL_WORDS.join('|')}) (?:straight |consecutive )?(?:year|month|quarter|week|season)s? (?:in a row|running)\\b`,
  'gi',
);
const ORDINAL_RE = /\b(\d{1,4})(?:st|nd|rd|th)\b/gi;
const countOf = (w: string): number => (/^\d+$/.test(w) ? Number(w) : (UNITS[w] ?? NaN));

const NUMBER_WORD_RE =
  /\b(?:(twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[- ](one|two|three|four|five|six|seven|eight|nine)\b)?|(two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|dozens|dozen))\b(\s*(?:%|percent\b|per cent\b))?(\s+(?:thousand|million|billion|trillion)\b)?/gi;

function monthOf(s: string): number {
  return MONTHS.indexOf(s.slice(0, 3).toLowerCase()) + 1;
}

/** Keys of month names: a date's words, not its subject. */
export const MONTH_WORDS: ReadonlySet<string> = new Set(
  'january february march april may june july august september october november december jan feb mar apr jun jul aug sep sept oct nov dec'
    .split(' ')
    .map(wordKey),
);
/** Unit, share and approximation words say how a number is written, not what it is about. */
export const UNIT_WORDS: ReadonlySet<string> = new Set(
  [
    'percent',
    'cent',
    'percentage',
    'thousand',
    'million',
    'billion',
    'trillion',
    'half',
    'third',
    'thirds',
    'quarter',
    'quarters',
    'fifth',
    'fifths',
    'tenth',
    'nearly',
    'roughly',
    'approximately',
    'almost',
    'around',
  ].map(wordKey),
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

/** A citation marker: "[3]", "[1, 4]", "[1-3]" (adjacent markers "[2][5]" are two of them). */
export const CITATION_MARKER = /\[\s*\d{1,3}(?:\s*[,;–-]\s*\d{1,3})*\s*\]/g;

/** The text with its citation markers blanked out (same length, so offsets still match). */
export function maskCitations(text: string): string {
  return text.replace(CITATION_MARKER, (m) => ' '.repeat(m.length));
}

export function extractFacts(raw: string): Facts {
  const text = maskCitations(raw);
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
  const found: Array<[number, NumberFact]> = [];
  const push = (s: number, e: number, written: string, value: number, unit: string, decimals: number): void => {
    const b = boundBefore(text, s);
    taken.push([s, e]);
    found.push([
      s,
      {
        value,
        unit,
        text: b ? `${b.words} ${written}` : written,
        decimals,
        ...(b ? { bound: b.bound } : {}),
        context: contextOf(text, s, e),
      },
    ]);
  };
  // shares in words: "a third of", "half of", "two in five" (a share, so a percentage)
  let m: RegExpExecArray | null;
  FRACTION_RE.lastIndex = 0;
  while ((m = FRACTION_RE.exec(text))) {
    const s = m.index;
    const e = s + m[0].length;
    if (!free(s, e)) continue;
    const w = m[0]
      .toLowerCase()
      .replace(/\s+(?:of|the)$/, '')
      .replace(/^(?:by|in) (?:(?:about|roughly|nearly|around|almost|over|under) )?/, '');
    const ratio = /^(\w+) in (\w+)$/.exec(w);
    const value = ratio ? (100 * countOf(ratio[1])) / countOf(ratio[2]) : FRACTIONS[w.replace(/^(?:a|one) /, '')];
    if (value !== undefined && Number.isFinite(value)) push(s, e, m[0].trim(), Math.round(value), '%', 0);
  }
  // multipliers: "twice as likely", "three times more" (unit "x")
  MULTIPLIER_RE.lastIndex = 0;
  while ((m = MULTIPLIER_RE.exec(text))) {
    const s = m.index;
    const e = s + m[1].length;
    if (!free(s, e)) continue;
    const w = m[1].toLowerCase();
    const n = w === 'twice' ? 2 : w === 'thrice' ? 3 : Number(/^[\d.]+/.exec(w)?.[0] ?? UNITS[w.split(' ')[0]]);
    if (Number.isFinite(n)) push(s, e, m[1], n, 'x', 0);
  }
  // a run of years: "for the third year in a row" is the same figure as "three years running"
  RUN_RE.lastIndex = 0;
  while ((m = RUN_RE.exec(text))) {
    const s = m.index;
    const e = s + m[0].length;
    if (free(s, e)) push(s, e, m[0], ORDINAL_WORDS.indexOf(m[1].toLowerCase()) + 2, '', 0);
  }
  NUMBER_RE.lastIndex = 0;
  while ((m = NUMBER_RE.exec(text))) {
    const s = m.index;
    const e = s + m[0].length;
    if (!free(s, e)) continue;
    const base = Number(`${m[2].replace(/,/g, '')}${m[3] ? '.' + m[3] : ''}`);
    const scale = m[5] ? SCALE[m[5].trim().toLowerCase()] : 1;
    push(s, e, m[0].trim(), base * scale, m[4] ? '%' : (m[1] ?? ''), m[3]?.length ?? 0);
  }
  NUMBER_WORD_RE.lastIndex = 0;
  while ((m = NUMBER_WORD_RE.exec(text))) {
    const s = m.index;
    const e = s + m[0].length;
    if (!free(s, e)) continue;
    const base = m[1] ? TENS[m[1].toLowerCase()] + (m[2] ? UNITS[m[2].toLowerCase()] : 0) : UNITS[m[3].toLowerCase()];
    const scale = m[5] ? SCALE[m[5].trim().toLowerCase()] : 1;
    push(s, e, m[0].trim(), base * scale, m[4] ? '%' : '', 0);
    // "dozens of" is at least two dozen
    if (m[3]?.toLowerCase() === 'dozens') found[found.length - 1][1].bound = '>=';
  }
  // ordinals: "the 15th century" (unit "th", compared with ordinals only)
  ORDINAL_RE.lastIndex = 0;
  while ((m = ORDINAL_RE.exec(text))) {
    const s = m.index;
    const e = s + m[0].length;
    if (free(s, e)) push(s, e, m[0], Number(m[1]), 'th', 0);
  }
  const numbers = found.sort((a, b) => a[0] - b[0]).map(([, n]) => n);
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

/**
 * Numbers agree when equal within 0.5 %, or equal once the source value is
 * rounded as the claim was written. A bounded claim ("fewer than 300") agrees
 * with a source value inside the bound, or with a source bound that implies
 * it ("over 200" for "more than 150"); "fewer than 300" does not agree with 300.
 */
export function numbersAgree(claim: NumberFact, source: NumberFact): boolean {
  if (claim.unit !== source.unit) return false;
  const a = claim.value;
  const b = source.value;
  const equal = (): boolean => {
    if (Math.abs(a - b) <= 0.005 * Math.max(Math.abs(a), Math.abs(b))) return true;
    const f = 10 ** claim.decimals;
    return Math.round(b * f) / f === a;
  };
  if (!claim.bound) return equal();
  const up = (x: Bound) => x === '>' || x === '>=';
  // a bound speaks of values near it: "over 60" (an age) is not confirmed by 3,200 (a head count)
  if (!source.bound && (b > 3 * a || b < a / 3)) return false;
  if (source.bound) return up(claim.bound) === up(source.bound) && (up(claim.bound) ? b >= a : b <= a);
  switch (claim.bound) {
    case '>':
      return b > a && !equal();
    case '>=':
      return b >= a || equal();
    case '<':
      return b < a && !equal();
    default:
      return b <= a || equal();
  }
}

/** Dates agree when equal at the precision both state (year, then month, then day). */
export function datesAgree(a: DateFact, b: DateFact): boolean {
  if (a.year !== undefined && b.year !== undefined && a.year !== b.year) return false;
  if (a.month !== undefined && b.month !== undefined && a.month !== b.month) return false;
  if (a.day !== undefined && b.day !== undefined && a.day !== b.day) return false;
  return true;
}
