/**
 * The claim checker's words: its word key (`wordKey`, word-forms.ts without
 * the collisions with function words), and the lexicon (claim-lexicon/)
 * indexed by key: negators, antonym poles, hedges, comparison pivots,
 * synonyms, light verbs, exclusive and attributive sets.
 *
 * The lexicon is hand-written and small on purpose: every entry is a common
 * English word whose role is unambiguous in report-style prose, so a verdict
 * can always be explained by naming the words that decided it. Words are
 * given as written; the checker compares them by `wordKey`, so "increase",
 * "increased", "increases" are one entry. The lexicon's files:
 *  - negations-hedges.ts: NEGATORS, PHRASES, HEDGES (1..5 scales), OVERCLAIMS;
 *  - antonyms.ts (with polarity-*.ts): ANTONYM_GROUPS, NEGATING_PREFIXES;
 *  - comparison-pivots.ts: COMPARISON_PIVOTS;
 *  - synonyms.ts: SYNONYM_GROUPS, PHRASE_SYNONYMS, COMPARATIVES;
 *  - subject-words.ts: LIGHT_VERBS, NUMBER_BOUND, EXCLUSIVE_SETS, ATTRIBUTIVE_SETS;
 *  - claim-cues.ts: QUALIFIER_WORDS, EFFECT_WORDS, EFFECT_INFLECTED (claim-extract.ts).
 */
import { tokenize } from './words';
import { wordKey as formKey } from './word-forms';
import { MONTH_WORDS } from './claim-facts';
import { STOPWORDS } from './stopwords';
import { NEGATORS, HEDGES, OVERCLAIMS, PHRASES, HEDGE_PHRASE_WORDS } from './claim-lexicon/negations-hedges';
import { ANTONYM_GROUPS } from './claim-lexicon/antonyms';
import { COMPARISON_PIVOTS } from './claim-lexicon/comparison-pivots';
import { PHRASE_SYNONYMS, SYNONYM_GROUPS, COMPARATIVES } from './claim-lexicon/synonyms';
import { LIGHT_VERBS, NUMBER_BOUND, EXCLUSIVE_SETS, ATTRIBUTIVE_SETS } from './claim-lexicon/subject-words';

export type Scale = 'freq' | 'quant';

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
export const POLE = new Map<string, { group: string; axis: string; side: 'a' | 'b' }>();
for (const g of ANTONYM_GROUPS)
  for (const side of ['a', 'b'] as const)
    for (const w of g[side]) POLE.set(wordKey(w), { group: g.name, axis: g.axis ?? g.name, side });
export const HEDGE = new Map<string, { scale: Scale; level: number }>();
for (const scale of ['freq', 'quant'] as const)
  for (const [w, level] of Object.entries(HEDGES[scale])) HEDGE.set(wordKey(w), { scale, level });
export const OVERCLAIM = new Set(OVERCLAIMS.map(wordKey));
export const PIVOT = new Set(COMPARISON_PIVOTS.map(wordKey));
export const PHRASE_LIST = [...PHRASES].sort((x, y) => y.words.length - x.words.length);
const CANONICAL = new Map<string, string>();
for (const group of SYNONYM_GROUPS) for (const w of group) CANONICAL.set(wordKey(w), wordKey(group[0]));

/** Every key the lexicon gives a role: these carry the statement's polarity, not its subject. */
export const LEXICAL = new Set<string>([
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
export const LIGHT = new Set(LIGHT_VERBS.map(wordKey));
export const ATTRIBUTIVE = new Map<string, number>();
ATTRIBUTIVE_SETS.forEach((set, i) => set.forEach((w) => ATTRIBUTIVE.set(wordKey(w), i)));
export const EXCLUSIVE = new Map<string, number>();
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
export function wordsIn(text: string): string[] {
  // "in May 2023" is a month, not a hedge
  const months = text.replace(/\bMay(?=\s+\d)|(?<=\b(?:in|of|since|until|by|early|late|mid)\s+)May\b/g, 'month');
  return tokenize(months.replace(/’/g, "'").replace(NUMBER_BOUND, ' '))
    .filter((t) => t.kind === 'word')
    .flatMap((t) => t.text.toLowerCase().split('-'))
    .filter(Boolean);
}

export const isNegator = (w: string): boolean => NEG_WORDS.has(w) || /n't$/.test(w);

/** Words of change as such, neither up nor down: "no effect", "did not change" deny any change. */
export const CHANGE = new Set(
  ['effect', 'impact', 'influence', 'change', 'affect', 'alter', 'difference'].map(formKey),
);
/** Words after which a word that can be a verb is one ("can shift", "they turn", "often value", "don't measure"). */
export const VERB_CUE = new Set(
  'to can could will would may might must should shall do does did they we you he she it that who which also still just'.split(
    ' ',
  ),
);

/** Keys of the forms a word may be inflected from ("using" -> "use", "handles" -> "handle", "deadlier" -> "deadly"). */
export function basesOf(w: string): string[] {
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
