/**
 * What a claim names and whether a source mentions it: the words of a
 * claim that name things (`thingWords`: nouns and adjectives before a noun)
 * and the keys a passage offers for them (`coverageKeys`, `mentionsWord`).
 */
import { tokenize } from './words';
import { UNIT_WORDS } from './claim-facts';
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
import { NEGATING_PREFIXES } from './claim-lexicon/antonyms';
import {
  CHANGE,
  EXCLUSIVE,
  HEDGE,
  LEXICAL,
  LIGHT,
  POLE,
  VERB_CUE,
  basesOf,
  canonicalKey,
  foldPhrases,
  isNegator,
  wordKey,
} from './claim-words';

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
