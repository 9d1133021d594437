/**
 * How the claim checker reads a sentence for meaning: its negations (and
 * what each negates), its antonym poles per axis (and what a verb of the
 * lexicon acts on), its hedges, and the adjectives that name which thing is
 * meant; only the clauses about what the other sentence is about
 * (`relevantReading`). compareMeaning (claim-meaning.ts) compares two readings.
 */
import { extractFacts } from './claim-facts';
import { canBeVerb } from './claim-relations';
import { STOPWORDS } from './stopwords';
import {
  ATTRIBUTIVE,
  HEDGE,
  LEXICAL,
  PHRASE_LIST,
  PIVOT,
  POLE,
  Scale,
  VERB_CUE,
  basesOf,
  foldPhrases,
  isNegator,
  subjectKeys,
  wordKey,
  wordsIn,
} from './claim-words';

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

export interface Hedge {
  word: string;
  level: number;
}

export interface Negation {
  word: string;
  /** After a comparison's pivot ("than those without"): part of what is compared, not a denial. */
  compared?: boolean;
  /** Keys of the (up to three) content words it negates: "does not [affect sender reputation]". */
  scope: string[];
}

export interface Reading {
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

/** Clause boundaries: punctuation and conjunctions ("helps rankings and may trigger a penalty" is two statements). */
const CLAUSE_SPLIT = /[,;:()–—]|\s(?:and|but|while|whereas|although|though|yet)\s/i;

/**
 * The clauses of `text` that are about what `other` is about: at least half
 * their subject words shared, or a figure of theirs stated in `other` too
 * ("..., up 20% from the previous year" is about the claim's 20%).
 */
export function relevantReading(text: string, other: ReadonlySet<string>, otherFigures: ReadonlySet<string>): Reading {
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
export const figuresOf = (text: string): string[] => extractFacts(text).numbers.map((n) => `${n.value}${n.unit}`);
