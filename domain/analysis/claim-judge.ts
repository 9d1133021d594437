/**
 * The claim checker's verdict on one claim: each retrieved passage scored
 * (content-word overlap, agreement of numbers, dates and names), then the
 * label decided (claims.ts describes the rules) and the passage that
 * decided it.
 */
import { DateFact, NumberFact, datesAgree, maskCitations, numbersAgree } from './claim-facts';
import { MeaningCheck, compareMeaning } from './claim-meaning';
import { coverageKeys, mentionsWord } from './claim-things';
import { canonicalKey } from './claim-words';
import { Passage, Probe } from './claim-passages';
import { VerificationStatus } from './claim-types';
import { round } from './readability';

/** Share of the claim's content words a passage must contain to be "about the same subject". */
export const MIN_SUBJECT_OVERLAP = 0.35;
/** A contradiction needs a closer match: the passage must restate nearly the whole claim. */
export const MIN_CONTRADICTION_OVERLAP = 0.7;
/**
 * Reading a passage for meaning (negation, antonyms, hedges) needs it to be
 * about the same thing: this share of the claim's subject words (content
 * words other than the polarity words themselves) must be in it.
 */
export const MIN_MEANING_OVERLAP = 0.6;

type FactStatus = 'agree' | 'conflict' | 'absent';

export interface Scored {
  p: Passage;
  overlap: number;
  /** The same without the antonym-class matches ("lifts" ~ "increases"). */
  plainOverlap: number;
  /** Share of the claim's subject words (polarity words aside) in the passage's sentence. */
  subject: number;
  /** The same counting the source's title too ("Acme" in "Acme Robotics company profile"). */
  subjectWithTitle: number;
  support: number;
  numbers: FactStatus[];
  dates: FactStatus[];
  /** Filled for passages about the same subject: does the passage say the same or the opposite? */
  meaning?: MeaningCheck;
}

/**
 * Compare one claimed fact with the passage's facts of the same kind/unit.
 * Agreement is lenient: the passage is already about the claim's subject,
 * so the same value anywhere in it confirms the claim (flagging a correct
 * sentence as a hallucination is the costlier mistake). A conflict needs a
 * different value whose context words match the claimed fact's subject.
 */
function compare<T extends { context: Set<string> }>(
  fact: T,
  cands: T[],
  overlap: number,
  agree: (c: T) => boolean,
): FactStatus {
  if (cands.length === 0) return 'absent';
  // a bound ("fewer than 300") is checked against the value about the same thing, not any value that fits it
  if ((fact as { bound?: string }).bound) {
    const near = (c: T) => [...fact.context].filter((k) => c.context.has(k)).length;
    const most = Math.max(...cands.map(near));
    cands = cands.filter((c) => near(c) === most);
  }
  if (cands.some(agree)) return 'agree';
  // subjects compare with synonyms folded ("employees" and "employs")
  const ctx = (x: T) => new Set([...x.context].map(canonicalKey));
  const own = ctx(fact);
  const shared = cands.map((c) => {
    const theirs = ctx(c);
    return [...own].filter((k) => theirs.has(k)).length;
  });
  // no shared subject words: a lone candidate in a sentence clearly about the claim is still the same subject
  if (Math.max(...shared) === 0 && !(cands.length === 1 && overlap >= 0.5)) return 'absent';
  return 'conflict';
}

export function score(probe: Probe, p: Passage, verifyStats: boolean): Scored {
  const { claim, keys: claimKeys } = probe;
  const shared = [...claimKeys].filter((k) => p.keys.has(k)).length;
  const overlap = claimKeys.size ? shared / claimKeys.size : 0;
  const plainShared = [...claimKeys].filter((k) => !k.startsWith('~') && p.keys.has(k)).length;
  const plainOverlap = probe.plain ? plainShared / probe.plain : 0;
  const share = (keys: Set<string>) =>
    probe.subject.size ? [...probe.subject].filter((k) => keys.has(k)).length / probe.subject.size : overlap;
  const subject = share(p.ownKeys);
  const subjectWithTitle = share(p.keys);
  const numbers = claim.facts.numbers.map((n: NumberFact) =>
    compare(
      n,
      p.facts.numbers.filter((c) => c.unit === n.unit),
      overlap,
      (c) => numbersAgree(n, c),
    ),
  );
  // a dated claim compares with the passage's dated facts; a month named alone with any month
  const dates = claim.facts.dates.map((d: DateFact) =>
    compare(
      d,
      p.facts.dates.filter((c) => (d.year === undefined ? c.month !== undefined : c.year !== undefined)),
      overlap,
      (c) => datesAgree(d, c),
    ),
  );
  const names = claim.facts.names.filter((n) => p.keys.has(n)).length;
  const considered = [...(verifyStats ? numbers : []), ...dates];
  const facts = considered.length + claim.facts.names.length;
  const agree = considered.filter((s) => s === 'agree').length + names;
  const support = facts > 0 ? 0.6 * overlap + 0.4 * (agree / facts) : overlap;
  return {
    p,
    overlap,
    plainOverlap,
    subject,
    subjectWithTitle,
    support,
    numbers: verifyStats ? numbers : numbers.map(() => 'agree'),
    dates,
  };
}

export interface Judgement {
  status: VerificationStatus;
  confidence: number;
  best?: Scored;
  /** The claimed figure a source contradicts. */
  conflict?: string;
  /** Why the deciding passage reverses the claim, or says less than it. */
  meaning?: string;
}

export function judge(probe: Probe, scored: Scored[], threshold: number): Judgement {
  const { claim } = probe;
  const relevant = scored.filter((s) => s.overlap >= MIN_SUBJECT_OVERLAP).sort((a, b) => b.support - a.support);
  if (relevant.length === 0) {
    const top = Math.max(0, ...scored.map((s) => s.support));
    return { status: 'unverified', confidence: round(0.75 * Math.min(top, threshold), 2) };
  }
  const best = relevant[0];
  // a figure is confirmed by a passage about its subject ("rose 7% in the second half" confirms no "by half")
  const confirmed = (kind: 'numbers' | 'dates', i: number): boolean =>
    relevant.some((s) => s[kind][i] === 'agree' && Math.max(s.plainOverlap, s.subject) >= 0.5);
  // a passage whose source does not mention a thing the claim names speaks of something else; the rest of the
  // source counts where the sentence names nothing in the claim's place ("Only 12% wanted ..." of a survey),
  // else only the source's title and lead sentence do ("Respondents saved ..." of a survey of employees): not
  // another sentence about another thing ("cargo volumes dropped" for "carried most of the airport's cargo")
  const claimKeys = coverageKeys(probe.text);
  const unmentioned = (s: Scored) => {
    const substitutes = s.p.things.some((w) => !mentionsWord(claimKeys, claimKeys, w));
    return probe.things.filter((w) => !mentionsWord(s.p.sentenceKeys, substitutes ? s.p.nearKeys : s.p.docKeys, w));
  };
  const conflicts = [
    ...best.numbers.map((st, i) =>
      st === 'conflict' && !confirmed('numbers', i) ? claim.facts.numbers[i].text : null,
    ),
    ...best.dates.map((st, i) => (st === 'conflict' && !confirmed('dates', i) ? claim.facts.dates[i].text : null)),
  ].filter((x): x is string => x !== null);
  // "the same thing": nearly all the claim's words, or nearly all its subject words (two at least) -
  // a rewrite may change the verb ("grew" for "up") and still state the figure about the same subject
  // (words matched only by their antonym class, "overtake" for "grew", do not make it the same thing)
  const restates =
    (best.plainOverlap >= MIN_CONTRADICTION_OVERLAP && best.plainOverlap * probe.plain >= 2) ||
    (best.subjectWithTitle >= MIN_CONTRADICTION_OVERLAP && best.subjectWithTitle * probe.subject.size >= 2);
  if (conflicts.length > 0 && restates && unmentioned(best).length === 0) {
    return {
      status: 'contradicted',
      confidence: round(Math.max(0.01, 0.3 * (1 - best.overlap)), 2),
      best,
      conflict: conflicts[0],
    };
  }
  // Passages about the same subject: does the closest one say the opposite, with none as close agreeing?
  // (a passage stating every figure of the claim is about its subject even with other words around them,
  // and its source's title counts: "Acme" in "Acme Robotics company profile")
  const figuresAgree = (s: Scored) =>
    s.numbers.length + s.dates.length > 0 && [...s.numbers, ...s.dates].every((st) => st === 'agree');
  const closeness = (s: Scored) => Math.max(s.subject, figuresAgree(s) ? s.subjectWithTitle : 0);
  const close = relevant
    .filter((s) => closeness(s) >= MIN_MEANING_OVERLAP)
    .sort((a, b) => closeness(b) - closeness(a) || b.support - a.support);
  for (const s of close) s.meaning = compareMeaning(probe.text, maskCitations(s.p.text));
  const top = close[0];
  if (
    top?.meaning?.verdict === 'contradicted' &&
    unmentioned(top).length === 0 &&
    !close.some((s) => s.meaning?.verdict === 'same' && closeness(s) >= closeness(top))
  ) {
    return {
      status: 'contradicted',
      confidence: round(Math.max(0.01, 0.3 * (1 - top.overlap)), 2),
      best: top,
      meaning: top.meaning.reason,
    };
  }
  // Only a passage about the same subject that says the same can verify: not one that reverses the claim or says less.
  // (a passage not close in subject verifies only with a number of the claim: a matching year alone is weak)
  // (one that agrees in figures only is still read for meaning: "15% less" is not confirmed by "rose 15%")
  const agreeing = relevant.filter((s) => {
    if (s.meaning) return s.meaning.verdict === 'same';
    if (!(figuresAgree(s) && s.numbers.includes('agree'))) return false;
    s.meaning = compareMeaning(probe.text, maskCitations(s.p.text));
    return s.meaning.verdict !== 'contradicted';
  });
  // A passage that states every figure of the claim - two at least, a number other than a year among them -
  // about the same subject (its words and the claim's names) stands for the claim even where one word of it
  // is put another way ("the ingredient bill came to £14.2 million" for "spent £14.2 million on ingredients")
  const figuresStandFor = (s: Scored) =>
    figuresAgree(s) &&
    s.numbers.filter((st) => st === 'agree').length >= 1 &&
    s.numbers.length + s.dates.length >= 2 &&
    claim.facts.names.every((n) => s.p.keys.has(n)) &&
    s.subjectWithTitle >= MIN_MEANING_OVERLAP &&
    s.meaning?.verdict === 'same' &&
    unmentioned(s).length <= 1 &&
    probe.things.length >= 3;
  const decider = agreeing.find((s) => unmentioned(s).length === 0) ?? agreeing.find(figuresStandFor);
  const doubt = close.find((s) => s.meaning && s.meaning.verdict !== 'same');
  if (!decider && agreeing.length > 0) {
    const missing = unmentioned(agreeing[0]);
    return {
      status: 'unverified',
      confidence: round(0.75 * Math.min(agreeing[0].support, threshold), 2),
      best: agreeing[0],
      meaning: `the source does not mention ${missing.map((w) => `"${w}"`).join(', ')}`,
    };
  }
  if (!decider) {
    return {
      status: 'unverified',
      confidence: round(0.75 * Math.min(best.support, threshold), 2),
      best: doubt ?? best,
      meaning: doubt?.meaning?.reason,
    };
  }
  // every figure confirmed somewhere, and every named entity present in the deciding passage ("India" is not "global")
  const allConfirmed =
    decider.numbers.every((_, i) => confirmed('numbers', i)) &&
    decider.dates.every((_, i) => confirmed('dates', i)) &&
    claim.facts.names.every((n) => decider.p.keys.has(n));
  if (decider.support >= threshold && allConfirmed)
    return { status: 'verified', confidence: round(decider.support, 2), best: decider };
  return {
    status: 'unverified',
    confidence: round(0.75 * Math.min(decider.support, threshold), 2),
    best: doubt ?? decider,
    meaning: doubt?.meaning?.reason,
  };
}
