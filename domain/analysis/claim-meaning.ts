/**
 * Does a sentence say the same as a source sentence about the same thing,
 * or the opposite? Numbers and dates are compared elsewhere (claim-facts.ts);
 * this reads the words that turn a statement around while keeping its
 * subject (lexicon: claim-lexicon/, indexed by key in claim-words.ts):
 *
 *  - negation: "does not", "never", "no longer", "fail to" added or removed;
 *  - antonyms: "fell" for "rose", "disaster" for "beats", "unlikely" for
 *    "likely" (a negating prefix);
 *  - a comparison's sides swapped: "B beats A" for "A beats B";
 *  - hedges and quantifiers changed: "always" for "usually", "all" for
 *    "some", "will" for "may", "rarely" for "often" (scales 0..5 in
 *    claim-lexicon/negations-hedges.ts; "never"/"no" are negations and the
 *    scale's 0).
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
 * How a sentence is read: claim-reading.ts; comparisons' sides:
 * claim-comparison.ts.
 *
 * Deterministic: every verdict names the words that decided it.
 */
import { extractFacts, namesOf } from './claim-facts';
import { oppositeKeys } from './claim-relations';
import { NEGATING_PREFIXES } from './claim-lexicon/antonyms';
import {
  ATTRIBUTIVE,
  CHANGE,
  EXCLUSIVE,
  LEXICAL,
  OVERCLAIM,
  POLE,
  canonicalKey,
  subjectKeys,
  wordKey,
  wordsIn,
} from './claim-words';
import { Hedge, Negation, Reading, figuresOf, relevantReading } from './claim-reading';
import { comparison, sides } from './claim-comparison';

/** Keys of superlatives: "longest", "highest", "most common" picks out one thing. */
const SUPERLATIVE = /^(?:\w{2,}est|most|least|best|worst|top)$/;

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
