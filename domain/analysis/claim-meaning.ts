/**
 * Does a sentence say the same as a source sentence about the same thing,
 * or the opposite? Numbers and dates are compared elsewhere (claim-facts.ts);
 * this reads the words that turn a statement around while keeping its
 * subject (lexicon: claim-lexicon.ts):
 *
 *  - negation: "does not", "never", "no longer", "fail to" added or removed;
 *  - antonyms: "fell" for "rose", "disaster" for "beats", "unlikely" for
 *    "likely" (a negating prefix);
 *  - a comparison's sides swapped: "B beats A" for "A beats B";
 *  - hedges and quantifiers changed: "always" for "usually", "all" for
 *    "some", "will" for "may", "rarely" for "often" (scales 0..5 in
 *    claim-lexicon.ts; "never"/"no" are negations and the scale's 0).
 *
 * Negations, antonym swaps and side swaps each flip the statement; an odd
 * number of flips contradicts the source, an even number (two reversals,
 * "did not rise" for "fell") leaves it unsure. A hedge two steps away on its
 * scale, or moved to or from an end of it (rarely/few, always/all), is a
 * contradiction too. Only the clauses that share the subject are compared,
 * so "costs fell, but revenue did not" does not contradict "costs fell". A
 * sentence about another thing is `unsure`, neither confirmed nor reversed:
 * a comparison of other things or by another measure, an exclusive word
 * ("evening" for "morning"), an adjective naming another subject ("short
 * manuals" for "long manuals"), a negation of something the source does not
 * mention.
 *
 * Deterministic: every verdict names the words that decided it.
 */
import { tokenize } from './words';
import { wordKey as formKey } from './word-forms';
import { MONTH_WORDS, UNIT_WORDS, extractFacts, namesOf } from './claim-facts';
import {
  alikeKeys,
  canBeVerb,
  isAdjective,
  isIrregularPast,
  isVerbish,
  oppositeKeys,
  spelling,
} from './claim-relations';
import { STOPWORDS } from './stopwords';
import {
  ANTONYM_GROUPS,
  COMPARISON_PIVOTS,
  HEDGES,
  NEGATING_PREFIXES,
  NEGATORS,
  OVERCLAIMS,
  PHRASES,
  PHRASE_SYNONYMS,
  SYNONYM_GROUPS,
  COMPARATIVES,
  LIGHT_VERBS,
  NUMBER_BOUND,
  HEDGE_PHRASE_WORDS,
  EXCLUSIVE_SETS,
  ATTRIBUTIVE_SETS,
} from './claim-lexicon';

type Scale = 'freq' | 'quant';

/** Function words and modals: a word whose suffix-stripped key would be one of these keeps its form. */
const GUARDED = new Set(['can', 'may', 'will', 'must', 'might', 'could', 'shall', 'not', 'no', 'none']);

/**
 * The claim checker's word key: `wordKey` (word-forms.ts) without its
 * collisions with function words ("canned" is not "can", "notes" not "not",
 * "willing" not "will"), and "found" read as the past of "find", not as
 * "founded".
 */
export function wordKey(word: string): string {
  const lower = word.toLowerCase().replace(/’/g, "'");
  if (lower === 'found') return 'find';
  const k = formKey(word);
  return k !== lower && GUARDED.has(k) ? lower.replace(/'/g, '') : k;
}

/** Keys of the content words (as `contentKeys` in word-forms.ts, with the claim checker's `wordKey`). */
export function contentKeys(text: string): string[] {
  return tokenize(text)
    .filter((t) => t.kind === 'word')
    .flatMap((t) => t.text.split(/-(?=\p{L})/u))
    .filter((w) => w.length > 1 && !STOPWORDS.has(w.toLowerCase()))
    .map((w) => wordKey(w));
}

/** Keys of every word (stop words kept), with the claim checker's `wordKey`. */
export function phraseKeys(text: string): string[] {
  return tokenize(text)
    .filter((t) => t.kind !== 'url')
    .map((t) => wordKey(t.text));
}

/** Negators as written ("notes" must not read as "not"), and their keys where no other word shares them. */
const NEG_WORDS = new Set(NEGATORS);
const NEG = new Set(NEGATORS.filter((w) => !STOPWORDS.has(w)).map(wordKey));
/** Antonym words: their measure (`group`), the axis they oppose each other on, and their side. */
const POLE = new Map<string, { group: string; axis: string; side: 'a' | 'b' }>();
for (const g of ANTONYM_GROUPS)
  for (const side of ['a', 'b'] as const)
    for (const w of g[side]) POLE.set(wordKey(w), { group: g.name, axis: g.axis ?? g.name, side });
const HEDGE = new Map<string, { scale: Scale; level: number }>();
for (const scale of ['freq', 'quant'] as const)
  for (const [w, level] of Object.entries(HEDGES[scale])) HEDGE.set(wordKey(w), { scale, level });
const OVERCLAIM = new Set(OVERCLAIMS.map(wordKey));
const PIVOT = new Set(COMPARISON_PIVOTS.map(wordKey));
const PHRASE_LIST = [...PHRASES].sort((x, y) => y.words.length - x.words.length);
const CANONICAL = new Map<string, string>();
for (const group of SYNONYM_GROUPS) for (const w of group) CANONICAL.set(wordKey(w), wordKey(group[0]));

/** Every key the lexicon gives a role: these carry the statement's polarity, not its subject. */
const LEXICAL = new Set<string>([
  ...NEG,
  ...POLE.keys(),
  ...HEDGE.keys(),
  ...PIVOT,
  ...HEDGE_PHRASE_WORDS.map(wordKey),
]);

/**
 * Adverbs and -ness nouns compare with their adjective: "fully" ~ "full",
 * "monthly" ~ "month", "easily" ~ "easy", "fitness" ~ "fit".
 */
function adjectiveOf(key: string): string {
  if (key === 'fully') return 'full';
  if (key.endsWith('ness') && key.length >= 7) {
    const stem = key.slice(0, -4);
    return wordKey(stem.endsWith('i') ? `${stem.slice(0, -1)}y` : stem.replace(/([bdgmnpt])\1$/, '$1'));
  }
  if (!key.endsWith('ly') || key.length < 6) return key;
  const stem = key.slice(0, -2);
  return wordKey(stem.endsWith('i') ? `${stem.slice(0, -1)}y` : stem);
}

/** A synonym's canonical key ("sales" -> "revenue", "monthly" -> "month", "older" -> "old"); other keys unchanged. */
export const canonicalKey = (key: string): string => {
  const k = CANONICAL.get(key) ?? COMPARATIVE.get(key) ?? (LEXICAL.has(key) ? key : adjectiveOf(key));
  return CANONICAL.get(k) ?? k;
};

const COMPARATIVE = new Map(COMPARATIVES.map(([c, base]) => [wordKey(c), wordKey(base)]));
const LIGHT = new Set(LIGHT_VERBS.map(wordKey));
const ATTRIBUTIVE = new Map<string, number>();
ATTRIBUTIVE_SETS.forEach((set, i) => set.forEach((w) => ATTRIBUTIVE.set(wordKey(w), i)));
/** After "is a", "are", "became": the adjective says what the subject is ("a weak measure"), not which one. */
const COPULA = new Set([
  'is',
  'are',
  'was',
  'were',
  'be',
  'been',
  'being',
  'become',
  'becomes',
  'became',
  'seem',
  'seems',
]);
const predicate = (words: string[], i: number): boolean =>
  COPULA.has(words[i - 1]) || (['a', 'an', 'the'].includes(words[i - 1]) && COPULA.has(words[i - 2]));
/** A word that can be the noun after an adjective: not a function word, not a lexicon word. */
const nameWord = (w: string | undefined): boolean =>
  w !== undefined && w.length > 2 && !STOPWORDS.has(w) && !LEXICAL.has(wordKey(w)) && !isNegator(w);
const EXCLUSIVE = new Map<string, number>();
EXCLUSIVE_SETS.forEach((set, i) => set.forEach((w) => EXCLUSIVE.set(wordKey(w), i)));

/** An antonym word's class ("~polarity:a" for "lift" and "increase"): same-class words count as one word in overlap. */
export const poleClass = (key: string): string | undefined => {
  const p = POLE.get(key);
  return p ? `~${p.axis}:${p.side}` : undefined;
};

/** Negations and hedges: compareMeaning judges them, so they do not count as the claim's content words. */
export const isQualifierKey = (key: string): boolean => NEG.has(key) || HEDGE.has(key);

/** Text with multi-word synonyms folded ("makes up" -> "accounts"). */
export function foldPhrases(text: string): string {
  return PHRASE_SYNONYMS.reduce((t, [re, to]) => t.replace(re, to), text);
}

/** Subject keys of a text: canonical content-word keys without the lexicon's polarity words and light verbs. */
export function subjectKeys(text: string): string[] {
  return contentKeys(foldPhrases(text))
    .filter((k) => !LEXICAL.has(k) && !LIGHT.has(k) && !MONTH_WORDS.has(k))
    .map(canonicalKey);
}

/**
 * Lower-case words, hyphenated words split, curly apostrophes straightened.
 * A bound before a figure ("fewer than six hours", "over 30 minutes") is
 * the figure's, compared with the numbers (claim-facts.ts): not a word here.
 */
function wordsIn(text: string): string[] {
  // "in May 2023" is a month, not a hedge
  const months = text.replace(/\bMay(?=\s+\d)|(?<=\b(?:in|of|since|until|by|early|late|mid)\s+)May\b/g, 'month');
  return tokenize(months.replace(/’/g, "'").replace(NUMBER_BOUND, ' '))
    .filter((t) => t.kind === 'word')
    .flatMap((t) => t.text.toLowerCase().split('-'))
    .filter(Boolean);
}

const isNegator = (w: string): boolean => NEG_WORDS.has(w) || /n't$/.test(w);

interface Hedge {
  word: string;
  level: number;
}

interface Negation {
  word: string;
  /** After a comparison's pivot ("than those without"): part of what is compared, not a denial. */
  compared?: boolean;
  /** Keys of the (up to three) content words it negates: "does not [affect sender reputation]". */
  scope: string[];
}

interface Reading {
  /** Keys of adjectives used before a noun ("small teams"): part of what is spoken of. */
  attributive: Set<string>;
  /** Keys of any word right before a noun, not where a verb stands ("dry summers", not "often pleased customers"). */
  naming: Set<string>;
  /** Of those, the ones before a month or a name: they describe one thing ("a warm, dry August"), not pick one. */
  instance: Set<string>;
  negations: Negation[];
  /** Antonym words per axis and side, each as often as it occurs ("fewer ... fewer" is two). */
  poles: Map<string, { a: string[]; b: string[] }>;
  /** What a verb of the lexicon acts on: the next content word ("cut its [prices]", "extended its [opening] hours"). */
  objects: Map<string, string[]>;
  hedges: Record<Scale, Hedge[]>;
  keys: Set<string>;
  words: string[];
}

function emptyReading(): Reading {
  return {
    attributive: new Set(),
    naming: new Set(),
    instance: new Set(),
    negations: [],
    poles: new Map(),
    objects: new Map(),
    hedges: { freq: [], quant: [] },
    keys: new Set(),
    words: [],
  };
}

/** What a negation applies to: the next three content words ("no longer [helps rankings]"). */
function scopeAfter(words: string[], from: number): string[] {
  return words
    .slice(from)
    .filter((w) => !STOPWORDS.has(w) && !['been', 'being', 'always', 'even', 'really', 'yet', 'still'].includes(w))
    .slice(0, 3)
    .map(wordKey);
}

/** Negations, antonym poles and hedges of a stretch of text. */
function readWords(words: string[], into: Reading): void {
  const addHedge = (scale: Scale, word: string, level: number) => into.hedges[scale].push({ word, level });
  // In a comparison, a negation after the pivot ("than those without") and a "without"/"no"/"lacking" anywhere
  // describe what is compared ("restaurants without photos"); their side is read by `comparison`.
  const pivot = words.findIndex((w) => PIVOT.has(wordKey(w)));
  const DESCRIBE = ['without', 'no', 'lack', 'lacks', 'lacking', 'lacked'];
  const compared = (at: number) =>
    pivot >= 0 && (at > pivot || DESCRIBE.includes(words[at])) ? { compared: true } : {};
  let i = 0;
  outer: while (i < words.length) {
    for (const p of PHRASE_LIST) {
      if (p.words.every((w, j) => words[i + j] === w)) {
        const word = p.words.join(' ');
        if (p.role === 'neg')
          into.negations.push({ word, scope: scopeAfter(words, i + p.words.length), ...compared(i) });
        else if (p.role === 'freq' || p.role === 'quant') addHedge(p.role, word, p.level!);
        i += p.words.length;
        continue outer;
      }
    }
    const w = words[i];
    const key = wordKey(w);
    into.keys.add(key);
    into.words.push(w);
    const prev = words[i - 1] ?? '';
    const verbal =
      HEDGE.has(wordKey(prev)) ||
      isNegator(prev) ||
      VERB_CUE.has(prev) ||
      (/(?:ed|ing)$/.test(w) && w.length > 4 && basesOf(w).some(canBeVerb));
    if (nameWord(words[i + 1]) && !predicate(words, i) && !verbal) into.naming.add(key);
    // ("a warm, dry August": the adjectives before the month, through the comma and "and")
    const run = words.slice(i + 1, i + 4);
    const at = run.findIndex((x) => MONTH_NAME.test(x));
    if (at >= 0 && run.slice(0, at).every((x) => ADJECTIVE_RUN.test(x))) into.instance.add(key);
    if (isNegator(w)) {
      // "not always", "doesn't usually", "isn't often": a weaker hedge, not a denial
      const next = words[i + 1];
      const h = next !== undefined ? HEDGE.get(wordKey(next)) : undefined;
      if (h && !(h.scale === 'freq' && h.level <= 2)) {
        addHedge(h.scale, `${w} ${next}`, h.level === 5 ? 2 : 1);
        i += 2;
        continue;
      }
      into.negations.push({ word: w, scope: scopeAfter(words, i + 1), ...compared(i) });
      // "never" and "no"/"none" are also the bottom of their scale: "never" against "rarely" overstates it
      if (w === 'never') addHedge('freq', w, 0);
      else if (['no', 'none', 'nobody', 'nothing'].includes(w)) addHedge('quant', w, 0);
    } else if (HEDGE.has(key)) {
      const h = HEDGE.get(key)!;
      addHedge(h.scale, w, h.level);
    } else if (ATTRIBUTIVE.has(key) && nameWord(words[i + 1]) && !predicate(words, i)) {
      // "small teams", "long-form guides": the adjective names which thing, it does not say how it goes
      into.attributive.add(key);
    } else if (POLE.has(key)) {
      const { axis, side } = POLE.get(key)!;
      if (!into.poles.has(axis)) into.poles.set(axis, { a: [], b: [] });
      into.poles.get(axis)![side].push(key);
      const after = words
        .slice(i + 1, i + 4)
        .filter((x) => !STOPWORDS.has(x) && !LEXICAL.has(wordKey(x)) && !MONTH_NAME.test(x) && !/\d/.test(x));
      into.objects.set(key, after.slice(0, 1).map(wordKey));
    }
    i++;
  }
}

const MONTH_NAME = /^(?:january|february|march|april|may|june|july|august|september|october|november|december)$/;
/** A word that may stand in a run of adjectives ("warm, dry"): not a function word. */
const ADJECTIVE_RUN = /^(?!(?:the|a|an|in|on|of|to|for|by|with)$)[a-z]+$/;

/** Keys of superlatives: "longest", "highest", "most common" picks out one thing. */
const SUPERLATIVE = /^(?:\w{2,}est|most|least|best|worst|top)$/;

/** Words of change as such, neither up nor down: "no effect", "did not change" deny any change. */
const CHANGE = new Set(['effect', 'impact', 'influence', 'change', 'affect', 'alter', 'difference'].map(formKey));

/** Clause boundaries: punctuation and conjunctions ("helps rankings and may trigger a penalty" is two statements). */
const CLAUSE_SPLIT = /[,;:()–—]|\s(?:and|but|while|whereas|although|though|yet)\s/i;

/**
 * The clauses of `text` that are about what `other` is about: at least half
 * their subject words shared, or a figure of theirs stated in `other` too
 * ("..., up 20% from the previous year" is about the claim's 20%).
 */
function relevantReading(text: string, other: ReadonlySet<string>, otherFigures: ReadonlySet<string>): Reading {
  const r = emptyReading();
  // a fragment under three words ("Publishing fewer," before the rest of its phrase) belongs to the next one
  const clauses: string[] = [];
  let carry = '';
  for (const piece of foldPhrases(text).split(CLAUSE_SPLIT)) {
    const joined = `${carry} ${piece}`.trim();
    if (wordsIn(joined).length < 3) carry = joined;
    else [clauses[clauses.length], carry] = [joined, ''];
  }
  if (carry) clauses.push(carry);
  const rated = clauses.map((c) => {
    const subject = subjectKeys(c);
    const shared = subject.filter((k) => other.has(k)).length;
    const words = wordsIn(c);
    return {
      words,
      share: subject.length ? shared / subject.length : undefined,
      figure: figuresOf(c).some((f) => otherFigures.has(f)),
      // a clause without subject words ("but not always") qualifies the others; one with its own
      // predicate ("and may trigger a penalty") cannot be placed
      predicate: words.some((w) => POLE.has(wordKey(w))),
    };
  });
  const keep = rated.filter((c) => c.figure || (c.share === undefined ? !c.predicate : c.share >= 0.5));
  // the sentence is about the other one (the caller checked): with no clause passing, read its closest
  const best = rated.reduce((m, c) => ((c.share ?? -1) > (m.share ?? -1) ? c : m), rated[0]);
  for (const c of keep.some((x) => x.share !== undefined) ? keep : [...keep, best]) readWords(c.words, r);
  return r;
}

/** Figures of a text as comparable strings ("20%", "48000000$"). */
const figuresOf = (text: string): string[] => extractFacts(text).numbers.map((n) => `${n.value}${n.unit}`);

/** Time adjuncts float anywhere in a sentence ("last year", "in 2023"): they name neither side of a comparison. */
const TIME_ADJUNCT =
  /\b(?:the|a) (?:year|month|week|quarter|decade) (?:before|earlier)\b|\b(?:last|this|next|past|previous) (?:year|month|week|quarter|decade)\b|\b(?:in|since|during|by) (?:\w+ )?\d{4}\b|\b\w+ (?:years?|months?|weeks?|days?) ago\b/gi;
/** A fronted adverbial ("For small lists, ...", "In most offices, ...") comes before the compared side. */
const FRONTED =
  /^\s*(?:for|in|on|at|among|across|during|after|before|with|without|according to|by|from|under|over|since|within|when|if)\b[^,]*,/i;

/** Keys (in order) left and right of the first comparison pivot ("A beats B"), or undefined without one. */
function sides(text: string): { left: string[]; right: string[]; attribute?: string } | undefined {
  const words = wordsIn(foldPhrases(text).replace(TIME_ADJUNCT, ' '));
  const at = words.findIndex((w) => PIVOT.has(wordKey(w)));
  if (at < 0) return undefined;
  // subject and polarity words ("long videos ... than short ones"), and "~neg" for a negation, whose side
  // matters ("restaurants without photos ... than those with them"); hedges are judged apart
  const keys = (ws: string[]) =>
    ws.flatMap((w) => {
      if (isNegator(w)) return ['~neg'];
      const k = wordKey(w);
      return w.length < 2 || STOPWORDS.has(w) || HEDGE.has(k) ? [] : [canonicalKey(k)];
    });
  const raw = foldPhrases(text).replace(TIME_ADJUNCT, ' ');
  const fronted = FRONTED.exec(raw)?.[0];
  const leftKeys = keys(words.slice(0, at));
  const skip = fronted && fronted.length < raw.length ? keys(wordsIn(fronted)).length : 0;
  // what "than" compares by: the measure of the comparative just before it ("cheaper to build than": price)
  // ("more quickly than" compares by speed: a word after "more"/"less" is the comparative)
  const MORE = ['more', 'less', 'fewer'];
  const isComparative = (i: number) =>
    /er$/.test(words[i]) || [...MORE, 'better', 'worse'].includes(words[i]) || MORE.includes(words[i - 1] ?? '');
  let comparative: { group: string } | undefined;
  for (let i = at - 1; wordKey(words[at]) === 'than' && i >= Math.max(0, at - 3) && !comparative; i--)
    if (POLE.has(wordKey(words[i])) && isComparative(i))
      // ("sooner than" compares by time, like "earlier than")
      comparative = words[i] === 'sooner' ? { group: 'time' } : POLE.get(wordKey(words[i]));
    // "more reliably than" compares by reliability, not by amount: an adverb of no measure the lexicon knows
    // names its own ("more cheaply" is price, like "cheaper"; hedges such as "more often" stay amounts)
    else if (MORE.includes(words[i - 1] ?? '') && /ly$/.test(words[i]) && !HEDGE.has(wordKey(words[i])))
      comparative = { group: `~${canonicalKey(wordKey(words[i]))}` };
  const left = leftKeys.slice(Math.min(skip, Math.max(0, leftKeys.length - 1)));
  // the passive turns a pivot verb round: "B is outperformed by A" is "A outperforms B" (the agent after "by"
  // is the first side)
  let be = at - 1;
  while (be >= 0 && (/ly$/.test(words[be]) || HEDGE.has(wordKey(words[be])))) be--;
  if (wordKey(words[at]) !== 'than' && words[at + 1] === 'by' && PASSIVE_BE.has(words[be] ?? ''))
    return { left: keys(words.slice(at + 2)), right: left, ...(comparative ? { attribute: comparative.group } : {}) };
  return {
    left,
    right: keys(words.slice(at + 1)),
    ...(comparative ? { attribute: comparative.group } : {}),
  };
}

/** Forms of "be" (and "get") that make a passive: "is outperformed by", "were overtaken by", "got beaten by". */
const PASSIVE_BE = new Set(['is', 'are', 'was', 'were', 'be', 'been', 'being', 'get', 'gets', 'got', 'gotten']);

/**
 * How the claim's comparison lines up with the source's. Each claim word is
 * placed on the source's side it comes from (words on both sides, like
 * "publishing" in "publishing few pieces beats publishing many", place
 * nothing; time adjuncts like "last year" are left out). The side after the
 * pivot is mostly just the compared thing: when it names the source's
 * second side the two line up; when it names the source's first side, the
 * claim swapped them ("B beats A" for "A beats B") if its first side names
 * the source's second, else it compares something the source does not
 * (`other`: "podcasts beat guides" where the source says guides beat news
 * posts), as it does when it names only things the source lacks or
 * compares by another measure ("cheaper than" against "more than").
 */
function comparison(claim: string, source: string): 'swapped' | 'other' | undefined {
  const c = sides(claim);
  const s = sides(source);
  if (!c || !s) return undefined;
  const left = new Set(s.left);
  const right = new Set(s.right);
  // "regular" finds the source's "irregular" (and the other way round): the negation is judged apart
  const forms = (k: string) => [
    k,
    ...NEGATING_PREFIXES.map((p) => p + k),
    ...NEGATING_PREFIXES.filter((p) => k.startsWith(p) && k.length - p.length >= 4).map((p) => k.slice(p.length)),
  ];
  const on = (set: Set<string>, k: string) => forms(k).some((f) => set.has(f));
  const placed = (k: string) => (on(left, k) ? (on(right, k) ? 'both' : 'L') : on(right, k) ? 'R' : 'none');
  // a word whose opposite names one side of the source names its other side ("younger" where it says "older")
  const where = (k: string) => {
    const at = placed(k);
    if (at !== 'none') return at;
    const opposite = [...oppositeKeys(k)].map(placed).filter((x) => x === 'L' || x === 'R');
    return opposite.length === 1 ? (opposite[0] === 'L' ? 'R' : 'L') : 'none';
  };
  // "cheaper than" and "more than" compare by different things ("earlier than" and "sooner than" by the same)
  // (time goes with speed and with length: "sooner than" against "faster than" or "longer than")
  const alike = (x: string, y: string) =>
    x === y || ((x === 'time' || y === 'time') && /speed|length|time/.test(x + y));
  if (c.attribute && s.attribute && !alike(c.attribute, s.attribute)) return 'other';
  // a negation on the other side than in the source swaps what is compared ("without photos ... than those with")
  const negSide = (x: { left: string[]; right: string[] }) =>
    x.left.includes('~neg') === x.right.includes('~neg') ? undefined : x.left.includes('~neg') ? 'L' : 'R';
  const cn = negSide(c);
  const sn = negSide(s);
  if (cn && sn && cn !== sn) return 'swapped';
  // a word the claim repeats on both sides ("visitors ... than visitors without it") places neither
  const repeated = (k: string) => c.left.includes(k) && c.right.includes(k);
  const wl = c.left.filter((k) => !repeated(k)).map(where);
  const wr = c.right.filter((k) => !repeated(k)).map(where);
  // The side after the pivot is mostly just the compared thing, so it speaks first.
  const rL = wr.includes('L');
  const rR = wr.includes('R');
  if (rR && !rL) return undefined;
  if (rL && !rR) return wl.includes('R') ? 'swapped' : 'other';
  if (!rL && !rR && wr.includes('none')) return 'other';
  if (wl.includes('R') && !wl.includes('L')) return 'swapped';
  return undefined;
}

/** Levels of the quantifier scale a share fits: 12% is "few" or "some", never "most" or "all". */
function levelsOfShare(pct: number): number[] {
  if (pct <= 0) return [0];
  if (pct >= 100) return [4, 5];
  if (pct > 50) return [3, 4];
  if (pct === 50) return [2, 3];
  return pct >= 20 ? [1, 2, 3] : [1, 2];
}

/** Multiset difference: the words of `a` left after taking out one per occurrence in `b`. */
function minus(a: string[], b: string[]): string[] {
  const left = [...b];
  return a.filter((k) => {
    const at = left.indexOf(k);
    if (at < 0) return true;
    left.splice(at, 1);
    return false;
  });
}

export interface MeaningCheck {
  /** same: nothing turned around; contradicted: the claim reverses the source; unsure: it says more or reverses twice. */
  verdict: 'same' | 'contradicted' | 'unsure';
  /** The words that decided it, e.g. `"disaster" where the source says "beats"`. */
  reason?: string;
}

/**
 * Compares what `claim` says with what `source` says, assuming both are
 * about the same subject (the caller checks that; see claims.ts).
 */
export function compareMeaning(claim: string, source: string): MeaningCheck {
  // the source says it word for word
  const flat = (t: string) => wordsIn(t).join(' ');
  if (wordsIn(claim).length >= 5 && ` ${flat(source)} `.includes(` ${flat(claim)} `)) return { verdict: 'same' };
  const cSubject = new Set(subjectKeys(claim));
  const sSubject = new Set(subjectKeys(source));
  const c = relevantReading(claim, sSubject, new Set(figuresOf(source)));
  const s = relevantReading(source, cSubject, new Set(figuresOf(claim)));
  const flips: string[] = [];

  // A negation counts when the other sentence speaks of what it negates; one about something else leaves it unsure.
  // (its first word, the verb it denies, or two of the three: "never [contact] the company directly" is not
  // about "share content when it directly helps")
  const speaksOf = (n: Negation, other: Reading) =>
    n.scope.length === 0 ||
    mentions(other, n.scope[0]) ||
    n.scope.filter((k) => mentions(other, k)).length >= Math.min(2, n.scope.length);
  const cNeg = c.negations.filter((n) => !n.compared && speaksOf(n, s));
  const sNeg = s.negations.filter((n) => !n.compared && speaksOf(n, c));
  const denials = (r: Reading) => r.negations.filter((n) => !n.compared).length;
  const offScope = cNeg.length < denials(c) || sNeg.length < denials(s);
  const negFlip = cNeg.length % 2 !== sNeg.length % 2;
  if (negFlip) {
    flips.push(cNeg.length > sNeg.length ? `"${cNeg[0].word}" added` : `the source's "${sNeg[0].word}" dropped`);
  }
  // "had no effect on attendance" where the source says "doubled attendance": no change against a change
  const noChange = (r: Reading) => r.negations.find((n) => !n.compared && CHANGE.has(n.scope[0] ?? ''));
  const moves = (r: Reading) => {
    const p = r.poles.get('polarity');
    const words = p ? [...p.a, ...p.b] : [];
    return words.find((k) => ['direction', 'valence'].includes(POLE.get(k)!.group));
  };
  for (const [x, y, claimSide] of [
    [c, s, true],
    [s, c, false],
  ] as const) {
    const none = noChange(x);
    const move = moves(y);
    if (none && move && denials(y) === 0 && !noChange(y)) {
      const reason = claimSide
        ? `"${none.word} ${wordOf(x, none.scope[0])}" where the source says "${wordOf(y, move)}"`
        : `"${wordOf(y, move)}" where the source says "${none.word} ${wordOf(x, none.scope[0])}"`;
      return { verdict: 'contradicted', reason };
    }
  }

  // Per axis, a word cancels the same word on the same side of the other sentence, then another word of its
  // measure ("bigger" and "more" are both up); what is left over on opposite sides reverses the source.
  // (not when the other sentence also has the measure's opposite: "increase" must not cancel the "more" of
  // "reduce injuries more than")
  const cancel = (x: string[], y: string[], yOpposite: string[]): [string[], string[]] => {
    let [xs, ys] = [minus(x, y), minus(y, x)];
    const left = [...ys];
    const group = (k: string) => POLE.get(k)!.group;
    xs = xs.filter((k) => {
      if (yOpposite.some((o) => group(o) === group(k))) return true;
      const at = left.findIndex((o) => group(o) === group(k));
      if (at < 0) return true;
      left.splice(at, 1);
      return false;
    });
    ys = left;
    return [xs, ys];
  };
  // (the same shape on both sides cancels: "fell ... to bigger hubs" against "dropped ... to larger hubs")
  const shape = (p: { a: string[]; b: string[] }) =>
    [...new Set([...p.a, ...p.b].map((k) => POLE.get(k)!.group))]
      .sort()
      .map(
        (g) =>
          `${g}:${p.a.filter((k) => POLE.get(k)!.group === g).length}:${p.b.filter((k) => POLE.get(k)!.group === g).length}`,
      )
      .join(' ');
  const before = flips.length;
  let otherObject: string | undefined;
  for (const [axis, cp] of c.poles) {
    const sp = s.poles.get(axis);
    if (!sp || shape(cp) === shape(sp)) continue;
    const [cA, sA] = cancel(cp.a, sp.a, sp.b);
    const [cB, sB] = cancel(cp.b, sp.b, sp.a);
    // (a verb acting on something the other sentence does not name reverses nothing: "cut its prices" against
    // "extended its opening hours")
    const elsewhere = (x: string, y: string) => {
      const xo = c.objects.get(x) ?? [];
      const yo = s.objects.get(y) ?? [];
      return xo.length > 0 && yo.length > 0 && !xo.some((k) => mentions(s, k)) && !yo.some((k) => mentions(c, k));
    };
    const flip = (x: string, y: string) => {
      if (elsewhere(x, y))
        otherObject ??= `"${wordOf(c, x)}" and the source's "${wordOf(s, y)}" act on different things`;
      else flips.push(`"${wordOf(c, x)}" where the source says "${wordOf(s, y)}"`);
    };
    if (cA.length && sB.length) flip(cA[0], sB[0]);
    else if (cB.length && sA.length) flip(cB[0], sA[0]);
  }

  // Opposites outside the hand lists (WordNet): "pleased" where the source says "annoyed"; a word naming
  // which thing is meant ("dry summers" where the source says "wet summers") speaks of another thing.
  const cOwn = [...c.keys].filter((k) => !s.keys.has(k) && !LEXICAL.has(k));
  const sOwn = new Set([...s.keys].filter((k) => !c.keys.has(k) && !LEXICAL.has(k)));
  for (const k of cOwn) {
    // ("irregular" against "regular" is a negating prefix: judged below, with the negations it may cancel)
    const prefixed = (x: string, y: string) => NEGATING_PREFIXES.some((p) => x === p + y || y === p + x);
    const o = [...oppositeKeys(k)].find((x) => sOwn.has(x) && !prefixed(k, x));
    if (!o) continue;
    const reason = `"${wordOf(c, k)}" where the source says "${wordOf(s, o)}"`;
    // in comparisons, the opposite naming the same side ("younger learners ... than" where "older learners ...
    // than") swaps what is compared; elsewhere it names another thing ("dry summers" where "wet summers")
    const cs = sides(claim);
    const ss = sides(source);
    const side = (x: { left: string[]; right: string[] } | undefined, key: string) =>
      x?.left.includes(canonicalKey(key)) ? 'L' : x?.right.includes(canonicalKey(key)) ? 'R' : undefined;
    if (cs && ss && side(cs, k) && side(cs, k) === side(ss, o)) {
      flips.push(`${reason}: the two sides of the comparison are swapped`);
      break;
    }
    if ((c.naming.has(k) && !c.instance.has(k)) || (s.naming.has(o) && !s.instance.has(o)))
      return { verdict: 'unsure', reason };
    flips.push(reason);
    break;
  }

  // "unproductive" for "productive"; with a negation on the other side it says the same ("not regular" = "irregular")
  const prefixFlip = (x: Reading, y: Reading): string | undefined => {
    for (const k of x.keys) {
      if (y.keys.has(k)) continue;
      for (const p of NEGATING_PREFIXES) {
        const rest = k.slice(p.length);
        if (k.startsWith(p) && rest.length >= 4 && y.keys.has(rest) && !x.keys.has(rest)) return k;
      }
    }
    return undefined;
  };
  const pc = prefixFlip(c, s) ?? prefixFlip(s, c);
  const anyNegFlip = c.negations.length % 2 !== s.negations.length % 2;
  // ("without a regular schedule" against "with an irregular schedule" compares the same thing)
  if (pc && negFlip) flips.shift();
  else if (pc && !anyNegFlip) flips.push(`"${pc}" reverses the source's wording`);

  // "short manuals" where the source says "long manuals": another thing, neither confirmed nor reversed
  for (const k of c.attributive) {
    if (s.attributive.has(k)) continue;
    const other = [...s.attributive].find((x) => ATTRIBUTIVE.get(x) === ATTRIBUTIVE.get(k) && !c.attributive.has(x));
    if (other) return { verdict: 'unsure', reason: `"${wordOf(c, k)}" where the source says "${wordOf(s, other)}"` };
  }
  // "evening" where the source says "morning": another thing, neither confirmed nor reversed
  // "Greece" where the source says "Spain": another place or body, which contradicts only what is unique
  // ("the busiest routes") or said of most
  const cNames = namesOf(claim).filter((n) => !s.keys.has(n));
  const sNames = namesOf(source).filter((n) => !c.keys.has(n));
  if (cNames.length > 0 && sNames.length > 0) {
    const reason = `"${cNames[0]}" where the source says "${sNames[0]}"`;
    const superlative = [...c.keys].some((x) => s.keys.has(x) && SUPERLATIVE.test(x));
    if (superlative) return { verdict: 'contradicted', reason };
  }
  for (const k of c.keys) {
    const set = EXCLUSIVE.get(k);
    if (set === undefined || s.keys.has(k)) continue;
    const other = [...s.keys].find((x) => x !== k && EXCLUSIVE.get(x) === set && !c.keys.has(x));
    if (!other) continue;
    const reason = `"${wordOf(c, k)}" where the source says "${wordOf(s, other)}"`;
    // "most families come on weekdays" where "most come at weekends": both cannot hold
    // (so does a superlative both say: "waiting times were longest on Friday" where "on Monday")
    const majority = (r: Reading) => [...r.hedges.freq, ...r.hedges.quant].some((h) => h.level >= 4);
    const superlative = [...c.keys].some((x) => s.keys.has(x) && SUPERLATIVE.test(x));
    return (majority(c) && majority(s)) || superlative
      ? { verdict: 'contradicted', reason }
      : { verdict: 'unsure', reason };
  }

  // a comparison the source does not make ("takes less time than writing new ones") is not confirmed by it
  // (a comparison of one thing at two times, "paid 23% more in September than in January", is a change over
  // time: what the source's "rose 23% between January and September" states)
  const claimSides = sides(claim);
  if (claimSides?.attribute && !sides(source) && claimSides.right.length > 0)
    return { verdict: 'unsure', reason: 'the source makes no comparison' };
  const cmp = comparison(claim, source);
  if (cmp === 'other') return { verdict: 'unsure', reason: 'the source compares other things' };
  // "A less than B" for "B more than A": the sides swapped and the comparison reversed say the same
  const poleFlips = flips.length - before;
  if (cmp === 'swapped' && poleFlips === 1 && flips.length === 1) flips.pop();
  else if (cmp === 'swapped') flips.push('the two sides of the comparison are swapped');

  let hedge: string | undefined;
  let overclaim: string | undefined;
  for (const scale of ['freq', 'quant'] as const) {
    const sWords = new Set(s.hedges[scale].map((h) => h.word));
    const cWords = new Set(c.hedges[scale].map((h) => h.word));
    const cOnly = c.hedges[scale].filter((h) => !sWords.has(h.word));
    const sOnly = s.hedges[scale].filter((h) => !cWords.has(h.word));
    const strongest = (hs: Hedge[]) => hs.reduce((m, h) => (h.level > m.level ? h : m));
    if (cOnly.length && sOnly.length) {
      const ch = strongest(cOnly);
      const sh = strongest(sOnly);
      const ends = (l: number) => l <= 1 || l === 5;
      if (ch.level !== sh.level && (Math.abs(ch.level - sh.level) >= 2 || ends(ch.level) || ends(sh.level)))
        hedge ??= `"${ch.word}" where the source says "${sh.word}"`;
    } else if (cOnly.length && s.hedges[scale].length === 0) {
      const low = cOnly.find((h) => h.level === 1);
      if (low) flips.push(`"${low.word}" added`);
      const abs = cOnly.find((h) => OVERCLAIM.has(wordKey(h.word)));
      if (abs) overclaim ??= `"${abs.word}" added where the source does not generalise`;
    } else if (sOnly.length && c.hedges[scale].length === 0) {
      const low = sOnly.find((h) => h.level === 1);
      if (low) flips.push(`the source's "${low.word}" dropped`);
    }
  }

  // "most employees" against "12% of employees": a quantifier the source's share rules out
  const shares = extractFacts(source).numbers.filter((n) => n.unit === '%');
  const claimShares = extractFacts(claim).numbers.filter((n) => n.unit === '%');
  const q = c.hedges.quant.filter((h) => h.level !== 0);
  if (!hedge && q.length && shares.length === 1 && claimShares.length === 0) {
    const wrong = q.find((h) => !levelsOfShare(shares[0].value).includes(h.level));
    if (wrong) hedge = `"${wrong.word}" where the source says ${shares[0].text}`;
  }

  // "for the first time" where the other says "always": it had not happened before
  const firstTime = (t: string) => /\bfor the first time\b/i.test(t);
  const always = (r: Reading) => r.hedges.freq.find((h) => h.word === 'always');
  if (firstTime(source) && always(c)) hedge ??= `"always" where the source says "for the first time"`;
  if (firstTime(claim) && always(s)) hedge ??= `"for the first time" where the source says "always"`;

  if (flips.length % 2 === 1) return { verdict: 'contradicted', reason: flips[0] };
  if (hedge) return { verdict: 'contradicted', reason: hedge };
  if (flips.length > 0) return { verdict: 'unsure', reason: flips.join('; ') };
  if (offScope) return { verdict: 'unsure', reason: 'a negation applies to something the other sentence does not say' };
  if (otherObject) return { verdict: 'unsure', reason: otherObject };
  if (overclaim) return { verdict: 'unsure', reason: overclaim };
  return { verdict: 'same' };
}

/** Does the reading speak of `key`: the word, a synonym, a negating-prefix form, or a word of the same antonym group? */
function mentions(r: Reading, key: string): boolean {
  const canon = canonicalKey(key);
  if (r.keys.has(key) || [...r.keys].some((k) => canonicalKey(k) === canon)) return true;
  if (NEGATING_PREFIXES.some((p) => r.keys.has(p + key) || (key.startsWith(p) && r.keys.has(key.slice(p.length)))))
    return true;
  const pole = POLE.get(key);
  return pole !== undefined && r.poles.has(pole.axis);
}

/** The word as written for a key (for explanations). */
function wordOf(r: Reading, key: string): string {
  return r.words.find((w) => wordKey(w) === key) ?? key;
}

/**
 * Generic words a paraphrase adds freely ("the number of", "people", "thanks to"): they name no new thing.
 * Unit abbreviations too ("km", "pm"): the figure they go with is compared as a figure.
 */
const SOFT = new Set(
  (
    'number amount level share part way thing things kind type variety sort people person whether thanks due result ' +
    'overall total average median minimum maximum top leading main first second last same other another ' +
    'much many lot lots even still really actually almost nearly roughly around about able likely case cases ' +
    'km kg mph gb mb pm am per cent fact whole entire full half programme program scheme ' +
    'since despite although though because unless whereas while hour hours minute minutes second seconds back ' +
    'previous prior following'
  )
    .split(' ')
    .map(wordKey),
);
const TIME_UNIT = /^(?:years?|months?|weeks?|days?|decades?|quarters?|periods?)$/;
/** Words after which a word that can be a verb is one ("can shift", "they turn", "often value", "don't measure"). */
const VERB_CUE = new Set(
  'to can could will would may might must should shall do does did they we you he she it that who which also still just'.split(
    ' ',
  ),
);
/** Words after which a word is a noun ("a review", "in dry summers"). */
const NOUN_CUE = new Set(
  (
    'the a an their its his her our your my this these those each every any some no ' +
    'in on at for from with of by into during about under over after before between among across through within near per'
  ).split(' '),
);
/** Words before a verb's object ("handles 300 items", "cuts the cost"). */
const OBJECT_START = new Set('the a an their its his her our your this these those some any'.split(' '));
/** Words after which an adjective says how a thing is, not which ("is deadlier", "are more prone"). */
const PREDICATE_CUE = new Set(
  'is are was were be been being become becomes became seem seems seemed remain remains remained feel feels felt get gets got more less most least as so too very'.split(
    ' ',
  ),
);
const NUMBER_OR_MONTH =
  /^(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|hundreds|dozen|dozens|twice|thrice|once|january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)$/i;

/** Keys of the forms a word may be inflected from ("using" -> "use", "handles" -> "handle", "deadlier" -> "deadly"). */
function basesOf(w: string): string[] {
  const stems = [w];
  for (const [re, to] of [
    [/ing$/, ''],
    [/ing$/, 'e'],
    [/ed$/, ''],
    [/ed$/, 'e'],
    [/ied$/, 'y'],
    [/es$/, ''],
    [/s$/, ''],
    [/ier$/, 'y'],
    [/er$/, ''],
    [/er$/, 'e'],
  ] as const)
    if (re.test(w)) stems.push(w.replace(re, to), w.replace(re, to).replace(/([bdgklmnprt])\1$/, '$1'));
  return [...new Set(stems.map(wordKey))];
}

/**
 * The words of a claim that name things: nouns and adjectives before a noun.
 * Left out: the lexicon's words (polarity, hedges, negations, comparisons,
 * light verbs), figures, names (compared apart), generic words, verbs and
 * adverbs (a claim may say "handled" where its source says "processed"), and
 * adjectives that say how a thing is ("is deadlier", "are more prone"). A
 * word is read as a verb when it is mostly one, or can be one and stands
 * where a verb does: inflected (-ed, -ing, "ran"), after a modal, "to", a
 * pronoun, a hedge or a negation, or before its object ("handles 300
 * items"); after an article or a preposition it is a noun.
 * A source that says the claim must mention each of them, in some form.
 */
export function thingWords(text: string): string[] {
  const toks = tokenize(foldPhrases(text).replace(/’/g, "'")).filter((t) => t.kind === 'word' || t.kind === 'number');
  const words: Array<{ w: string; name: boolean; compound: boolean }> = [];
  toks.forEach((t, i) => {
    const parts = t.text.split('-').filter(Boolean);
    for (const part of parts)
      words.push({ w: part.toLowerCase(), name: i > 0 && /^\p{Lu}/u.test(part), compound: parts.length > 1 });
  });
  const out: string[] = [];
  words.forEach(({ w, name, compound }, i) => {
    const k = wordKey(w);
    const prev = words[i - 1]?.w ?? '';
    const next = words[i + 1]?.w ?? '';
    if (w.length < 3 || name || STOPWORDS.has(w) || isNegator(w) || NUMBER_OR_MONTH.test(w) || /\d/.test(w)) return;
    if (
      LEXICAL.has(k) ||
      CHANGE.has(k) ||
      LIGHT.has(k) ||
      UNIT_WORDS.has(k) ||
      SOFT.has(k) ||
      SOFT.has(canonicalKey(k)) ||
      // time units as written ("the previous year"; "monthly" names which goal)
      TIME_UNIT.test(w)
    )
      return;
    // the word that qualifies: the one before any adverbs, hedges and negations ("were seldom necessary")
    let j = i - 1;
    while (j >= 0 && (HEDGE.has(wordKey(words[j].w)) || isNegator(words[j].w) || /ly$/.test(words[j].w))) j--;
    const cue = words[j]?.w ?? '';
    const bases = basesOf(w);
    const verb = bases.some(canBeVerb);
    // after an article, a preposition or a verb of the lexicon ("raise click-through rates") it is a noun
    const objectOf =
      POLE.has(wordKey(prev)) && !PREDICATE_CUE.has(prev) && canBeVerb(wordKey(prev)) && !/ly$/.test(`${prev} ${w}`);
    // so is a part of a compound ("check-in queues") and an -ing word after an adjective ("free parking")
    const gerund = /ing$/.test(w) && isAdjective(wordKey(prev));
    if ((NOUN_CUE.has(prev) && !(prev === 'to' && verb)) || objectOf || compound || gerund) {
      out.push(w);
      return;
    }
    if (isVerbish(k)) return;
    if (verb && ((/(?:ed|ing)$/.test(w) && w.length > 4) || isIrregularPast(k))) return;
    if (verb && (VERB_CUE.has(cue) || j < i - 1 || isNegator(prev))) return;
    if (verb && /s$/.test(w) && (OBJECT_START.has(next) || /^\d/.test(next))) return;
    if (bases.some(isAdjective) && PREDICATE_CUE.has(cue)) return;
    out.push(w);
  });
  return out;
}

/** The keys a text offers for `mentionsWord`: each word's key, synonym (canonical) key and spelling-folded key. */
export function coverageKeys(text: string): Set<string> {
  const keys = new Set<string>();
  for (const t of tokenize(foldPhrases(text).replace(/’/g, "'")))
    for (const part of t.text.toLowerCase().split('-').filter(Boolean)) {
      const k = wordKey(part);
      for (const x of [k, canonicalKey(k)]) {
        keys.add(x);
        keys.add(spelling(x));
      }
    }
  return keys;
}

/**
 * Does a passage mention the word? Its sentence (`coverageKeys`) may name it
 * as written, by a synonym or related form (hand lists and WordNet), by its
 * opposite or another of an exclusive set (a reversal or a swap is about the
 * same thing: the meaning check judges it), or with a negating prefix added
 * or dropped ("irregular" for "regular"); the rest of its source (`doc`)
 * only as written or by a hand-listed synonym ("respondents" of a survey
 * whose first sentence says "employees"), not by a looser relation
 * ("resolution time" is not the "response time" of a text that says
 * "resolved").
 */
export function mentionsWord(sentence: ReadonlySet<string>, doc: ReadonlySet<string>, word: string): boolean {
  const k = wordKey(word);
  const exact = [k, canonicalKey(k)];
  if (exact.some((f) => sentence.has(f) || sentence.has(spelling(f)) || doc.has(f) || doc.has(spelling(f))))
    return true;
  const exclusive = EXCLUSIVE.get(k);
  const siblings = exclusive === undefined ? [] : [...EXCLUSIVE].filter(([, set]) => set === exclusive).map(([x]) => x);
  const forms = exact.flatMap((x) => [...alikeKeys(x), ...oppositeKeys(x)]).concat(siblings);
  for (const p of NEGATING_PREFIXES) {
    forms.push(p + k);
    if (k.startsWith(p) && k.length - p.length >= 4) forms.push(k.slice(p.length));
  }
  return forms.some((f) => sentence.has(f) || sentence.has(spelling(f)));
}
