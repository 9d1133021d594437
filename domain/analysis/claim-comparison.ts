/**
 * Comparisons in a claim and its source: the two sides of the first
 * comparison pivot ("A beats B", "A earns more than B") and the measure it
 * compares by (`sides`), and how the claim's sides line up with the
 * source's (`comparison`: swapped, or other things compared).
 */
import { STOPWORDS } from './stopwords';
import { oppositeKeys } from './claim-relations';
import { NEGATING_PREFIXES } from './claim-lexicon/antonyms';
import { HEDGE, PIVOT, POLE, canonicalKey, foldPhrases, isNegator, wordKey, wordsIn } from './claim-words';

/** Time adjuncts float anywhere in a sentence ("last year", "in 2023"): they name neither side of a comparison. */
const TIME_ADJUNCT =
  /\b(?:the|a) (?:year|month|week|quarter|decade) (?:before|earlier)\b|\b(?:last|this|next|past|previous) (?:year|month|week|quarter|decade)\b|\b(?:in|since|during|by) (?:\w+ )?\d{4}\b|\b\w+ (?:years?|months?|weeks?|days?) ago\b/gi;
/** A fronted adverbial ("For small lists, ...", "In most offices, ...") comes before the compared side. */
const FRONTED =
  /^\s*(?:for|in|on|at|among|across|during|after|before|with|without|according to|by|from|under|over|since|within|when|if)\b[^,]*,/i;

/** Keys (in order) left and right of the first comparison pivot ("A beats B"), or undefined without one. */
export function sides(text: string): { left: string[]; right: string[]; attribute?: string } | undefined {
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
export function comparison(claim: string, source: string): 'swapped' | 'other' | undefined {
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
