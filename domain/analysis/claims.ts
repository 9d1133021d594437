/**
 * Claim checking against supplied sources: the body of POST
 * /api/blog/hallucination/check (without `success`/`processing_time_ms`).
 *
 * For each claim (citation markers such as "[3]" set aside): BM25 retrieves
 * the 5 best source sentences; each is scored by content-word overlap with
 * the claim (synonyms folded: claim-lexicon.ts) and by agreement of the
 * claim's numbers, dates and names; passages that restate the claim's
 * subject are read for meaning (claim-meaning.ts: negation, antonyms,
 * swapped comparisons, hedges). Labels:
 *  - contradicted: the best passage restates the claim closely (content-word
 *    overlap >= 0.7) but gives a different number or date for the same
 *    thing, and no other relevant passage states the claimed value; or the
 *    passage closest in subject (subject overlap >= 0.6) says the opposite
 *    and no equally close passage agrees;
 *  - verified: support >= confidence_threshold (default 0.6) from a passage
 *    that says the same (not reversed, not less strongly), every
 *    number/date of the claim is confirmed by a relevant passage (overlap
 *    >= 0.35) and every name in the claim appears in the best passage;
 *  - unverified: everything else.
 * `confidence` estimates how likely the claim is to be accurate.
 */
import { Bm25Index, createBm25Index, search } from './bm25';
import { Claim, ClaimType, claimTypes, extractClaims } from './claim-extract';
import {
  DateFact,
  Facts,
  MONTH_WORDS,
  NumberFact,
  UNIT_WORDS,
  datesAgree,
  extractFacts,
  maskCitations,
  numbersAgree,
} from './claim-facts';
import {
  MeaningCheck,
  canonicalKey,
  compareMeaning,
  contentKeys,
  coverageKeys,
  foldPhrases,
  isQualifierKey,
  mentionsWord,
  phraseKeys,
  poleClass,
  subjectKeys,
  thingWords,
  wordKey,
} from './claim-meaning';
import { SYNONYM_GROUPS } from './claim-lexicon';
import { splitSentences } from './sentences';
import { tokenize } from './words';
import { round } from './readability';

export interface ClaimSource {
  title: string;
  url: string;
  excerpt: string;
}

export interface CheckOptions {
  verify_statistics?: boolean;
  check_claims?: boolean;
  validate_sources?: boolean;
  confidence_threshold?: number;
}

export type VerificationStatus = 'verified' | 'unverified' | 'contradicted';

export interface ClaimResult {
  claim: string;
  confidence: number;
  verification_status: VerificationStatus;
  supporting_sources: Array<{ title: string; url: string; relevance_score: number }>;
  recommendation?: string;
  /** Extras: where the claim is, what kind it is, and the passage that decided it. */
  start: number;
  end: number;
  claim_types: ClaimType[];
  evidence?: { title: string; url: string; passage: string };
}

export interface HallucinationCheckResult {
  overall_confidence: number;
  hallucination_analysis: {
    total_claims: number;
    verified_claims: number;
    unverified_claims: number;
    potential_hallucinations: number;
  };
  claim_analysis: ClaimResult[];
  recommendations: string[];
}

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
export const DEFAULT_CONFIDENCE_THRESHOLD = 0.6;

interface Passage {
  source: ClaimSource;
  text: string;
  /** Keys of the sentence and of its source's title. */
  keys: Set<string>;
  /** Keys of the sentence alone: whether it is about the claim's subject is read from these. */
  ownKeys: Set<string>;
  facts: Facts;
  /**
   * For `mentionsWord`, what the passage speaks of: its sentence's words; those with its source's title and lead
   * sentence; and its whole source's.
   */
  sentenceKeys: Set<string>;
  nearKeys: Set<string>;
  docKeys: Set<string>;
  /** The sentence's own words that name things (`thingWords`). */
  things: string[];
}

type FactStatus = 'agree' | 'conflict' | 'absent';

interface Scored {
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

/** What a claim is compared by: its text without markers, its keys (synonyms folded) and subject keys. */
interface Probe {
  claim: Claim;
  text: string;
  keys: Set<string>;
  /** How many of `keys` are words (not antonym classes). */
  plain: number;
  subject: Set<string>;
  /** The words of the claim that name things (`thingWords`): a source that says the claim mentions each. */
  things: string[];
}

/**
 * Content keys with synonyms folded ("sales" -> "revenue") and antonym words
 * by class ("lifts" ~ "increases"); unit words, negations and hedges (judged
 * apart) dropped.
 */
function claimKeysOf(text: string): Set<string> {
  return new Set(
    contentKeys(foldPhrases(text))
      .filter((k) => !isQualifierKey(k))
      .map((k) => poleClass(k) ?? canonicalKey(k))
      .filter((k) => !UNIT_WORDS.has(k) && !MONTH_WORDS.has(k)),
  );
}

/** A passage's keys: every word as written and in its canonical (synonym) form, plus the source title's. */
function passageKeys(text: string, title: string): Set<string> {
  const raw = [...contentKeys(text), ...phraseKeys(text), ...contentKeys(title)];
  const folded = [...contentKeys(foldPhrases(text)), ...contentKeys(foldPhrases(title))];
  const classes = folded.map(poleClass).filter((c): c is string => c !== undefined);
  return new Set([...raw, ...raw.map(canonicalKey), ...folded.map(canonicalKey), ...classes]);
}

const SYNONYMS_OF = new Map<string, string[]>();
for (const group of SYNONYM_GROUPS) for (const w of group) SYNONYMS_OF.set(canonicalKey(wordKey(w)), group);

/** The BM25 query: the claim's words plus the synonyms of its words, so a paraphrase finds its passage. */
function queryOf(text: string, keys: Set<string>): string {
  const extra = [...keys].flatMap((k) => SYNONYMS_OF.get(k) ?? []);
  return [foldPhrases(text), ...new Set(extra)].join(' ');
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

function score(probe: Probe, p: Passage, verifyStats: boolean): Scored {
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

/**
 * The sentences of an excerpt. An excerpt may be Markdown: paragraphs, headings and list items end a
 * sentence even without a full stop, and their markers ("## ", "- ") are not words.
 */
function sentencesOfExcerpt(text: string): string[] {
  return text
    .split(/\n\s*\n|\n(?=\s*(?:#{1,6}\s|[-*+]\s|\d+[.)]\s))/)
    .map((block) => block.replace(/^\s*(?:#{1,6}\s+|[-*+]\s+|\d+[.)]\s+)/, '').trim())
    .filter(Boolean)
    .flatMap((block) => splitSentences(block).map(({ start, end }) => block.slice(start, end)));
}

/** Passages of a source, memoised by its title and excerpt (bounded): sources repeat across calls. */
const passageMemo = new Map<string, Array<Omit<Passage, 'source'>>>();

function passagesOf(sources: ClaimSource[]): Passage[] {
  return sources.flatMap((source) => {
    const text = source.excerpt ?? '';
    const memoKey = `${source.title ?? ''}\u0000${text}`;
    let parts = passageMemo.get(memoKey);
    if (!parts) {
      const docKeys = coverageKeys(`${source.title ?? ''}\n${maskCitations(text)}`);
      const sentences = sentencesOfExcerpt(text);
      // what the source as a whole is about: its title and its lead sentence ("questioned 2,500 employees")
      const leadKeys = coverageKeys(`${source.title ?? ''}\n${maskCitations(sentences[0] ?? '')}`);
      parts = sentences.map((t) => {
        // markers in a source ("... 45% [2].") are not its words or figures either
        const plain = maskCitations(t).replace(/\s+([.,;:!?])/g, '$1');
        return {
          text: t,
          keys: passageKeys(plain, source.title ?? ''),
          ownKeys: passageKeys(plain, ''),
          facts: extractFacts(plain),
          sentenceKeys: coverageKeys(plain),
          nearKeys: new Set([...coverageKeys(plain), ...leadKeys]),
          things: thingWords(plain),
          docKeys,
        };
      });
      if (passageMemo.size >= 2_000) passageMemo.clear();
      passageMemo.set(memoKey, parts);
    }
    return parts.map((part) => ({ ...part, source }));
  });
}

const validSource = (s: ClaimSource): boolean =>
  typeof s?.excerpt === 'string' && s.excerpt.trim() !== '' && /^https?:\/\/\S+$/i.test(s.url ?? '');

interface Judgement {
  status: VerificationStatus;
  confidence: number;
  best?: Scored;
  /** The claimed figure a source contradicts. */
  conflict?: string;
  /** Why the deciding passage reverses the claim, or says less than it. */
  meaning?: string;
}

function judge(probe: Probe, scored: Scored[], threshold: number): Judgement {
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

function recommendationFor(claim: Claim, j: Judgement): string | undefined {
  const { status, best, conflict, meaning } = j;
  if (status === 'verified') return undefined;
  if (status === 'contradicted' && best && meaning)
    return `"${best.p.source.title}" says "${best.p.text}", and the text says the opposite (${meaning}); correct the statement or cite a source that supports it.`;
  if (status === 'unverified' && best && meaning)
    return `The closest source sentence ("${best.p.source.title}": "${best.p.text}") does not say the same (${meaning}); keep to what it says or cite a source that supports the statement.`;
  if (status === 'contradicted' && best) {
    const stated = [...best.p.facts.numbers.map((n) => n.text), ...best.p.facts.dates.map((d) => d.text)].join(', ');
    return `"${best.p.source.title}" states ${stated || 'a different value'} where the text says ${conflict}; correct the figure or cite a source that supports it.`;
  }
  if (claim.types.includes('statistic') || claim.types.includes('date'))
    return 'No supplied source confirms this figure or date; add a citation or remove the specific value.';
  if (claim.types.includes('absolute'))
    return 'Absolute wording ("always", "never", "all") is hard to support; qualify the statement or cite evidence.';
  return 'Add a citation from a credible source for this statement or soften the wording.';
}

interface Context {
  passages: Passage[];
  index: Bm25Index;
  verifyStats: boolean;
  threshold: number;
}

function contextOf(sources: ClaimSource[], options: CheckOptions): Context & { usable: ClaimSource[] } {
  const usable =
    options.validate_sources === false
      ? sources.filter((s) => s && typeof s.excerpt === 'string')
      : sources.filter(validSource);
  const passages = passagesOf(usable);
  return {
    usable,
    passages,
    index: createBm25Index(passages.map((p, i) => ({ id: String(i), text: p.text }))),
    verifyStats: options.verify_statistics !== false,
    threshold: options.confidence_threshold ?? DEFAULT_CONFIDENCE_THRESHOLD,
  };
}

/**
 * An attribution that introduces a claim ("According to “Title”,", "As Title notes,", "Title reports that",
 * "“Title” makes the point directly:") names who says it, not what is said: the claim is checked without it.
 */
const ATTRIBUTION = [
  /^according to\s+(?:“[^”]+”|"[^"]+"|[^,]{1,80}),\s*/i,
  /^as\s+(?:“[^”]+”|"[^"]+"|[^,]{1,80})\s+(?:notes|says|writes|explains|puts it|points out|reports|argues|found|finds|shows),\s*/i,
  /^(?:“[^”]+”|"[^"]+"|one source)\s+(?:reports|notes|says|writes|explains|finds|found|shows|argues|points out)\s+that\s+/i,
  /^(?:“[^”]+”|"[^"]+"|one source)\s+makes the point directly:\s*/i,
];
export function withoutAttribution(text: string): string {
  for (const re of ATTRIBUTION) {
    const m = re.exec(text);
    if (m) {
      const rest = text.slice(m[0].length);
      return rest.charAt(0).toUpperCase() + rest.slice(1);
    }
  }
  return text;
}

function checkOne(claim: Claim, ctx: Context): ClaimResult {
  const text = withoutAttribution(
    maskCitations(claim.text)
      .replace(/\s+([.,;:!?])/g, '$1')
      .trim(),
  );
  const keys = claimKeysOf(text);
  // The facts of what is claimed, not of who is said to claim it (a title's words, numbers or dates).
  const stripped = text !== claim.text ? { ...claim, facts: extractFacts(text) } : claim;
  const probe: Probe = {
    claim: stripped,
    text,
    keys,
    plain: [...keys].filter((k) => !k.startsWith('~')).length,
    subject: new Set(subjectKeys(text).filter((k) => !UNIT_WORDS.has(k))),
    things: thingWords(text),
  };
  const scored = search(ctx.index, queryOf(text, keys), 5).map((h) =>
    score(probe, ctx.passages[Number(h.id)], ctx.verifyStats),
  );
  const j = judge(probe, scored, ctx.threshold);
  const { status, confidence, best } = j;
  const support =
    status === 'contradicted' && best
      ? [best]
      : scored.filter(
          (s) =>
            s.overlap >= MIN_SUBJECT_OVERLAP &&
            !s.numbers.includes('conflict') &&
            !s.dates.includes('conflict') &&
            (!s.meaning || s.meaning.verdict === 'same'),
        );
  const seen = new Set<string>();
  const supporting_sources = support
    .sort((a, b) => b.support - a.support)
    .filter((s) => !seen.has(s.p.source.url) && (seen.add(s.p.source.url), true))
    .slice(0, 3)
    .map((s) => ({ title: s.p.source.title, url: s.p.source.url, relevance_score: round(s.support, 2) }));
  const recommendation = recommendationFor(claim, j);
  return {
    claim: claim.text,
    confidence,
    verification_status: status,
    supporting_sources,
    ...(recommendation ? { recommendation } : {}),
    start: claim.start,
    end: claim.end,
    claim_types: claim.types,
    ...(best ? { evidence: { title: best.p.source.title, url: best.p.source.url, passage: best.p.text } } : {}),
  };
}

/**
 * Checks one statement as a whole (whether or not it reads as a claim)
 * against the sources: what the model-rewrite gate uses to compare a
 * rewritten sentence with the sentence it rewrote (the original as source).
 */
export function checkStatement(statement: string, sources: ClaimSource[], options: CheckOptions = {}): ClaimResult {
  const text = statement.trim();
  const facts = extractFacts(text);
  const words = tokenize(maskCitations(text))
    .filter((t) => t.kind !== 'url')
    .map((t) => t.text);
  const claim: Claim = { text, start: 0, end: text.length, types: claimTypes(text, words, facts), facts };
  return checkOne(claim, contextOf(sources, options));
}

export function checkClaims(
  content: string,
  sources: ClaimSource[] = [],
  options: CheckOptions = {},
): HallucinationCheckResult {
  const ctx = contextOf(sources, options);
  const usable = ctx.usable;
  let claims = extractClaims(content);
  if (options.check_claims === false)
    claims = claims.filter((c) => c.types.includes('statistic') || c.types.includes('date'));
  const results: ClaimResult[] = claims.map((claim) => checkOne(claim, ctx));

  const count = (s: VerificationStatus): number => results.filter((r) => r.verification_status === s).length;
  const recs: string[] = [];
  if (count('contradicted'))
    recs.push(
      `Correct ${count('contradicted')} statement(s) whose numbers, dates or meaning contradict the sources (see claim_analysis).`,
    );
  if (count('unverified'))
    recs.push(`Add citations for ${count('unverified')} claim(s) that no supplied source confirms, or soften them.`);
  if (usable.length < sources.length)
    recs.push(
      `${sources.length - usable.length} source(s) were skipped: each needs an http(s) URL and a non-empty excerpt.`,
    );
  if (usable.length === 0 && results.length > 0)
    recs.push('Supply research sources with excerpts so claims can be verified.');
  if (recs.length === 0)
    recs.push(
      results.length
        ? 'All checked claims are supported by the supplied sources.'
        : 'No checkable factual claims were found.',
    );

  return {
    overall_confidence: results.length ? round(results.reduce((s, r) => s + r.confidence, 0) / results.length, 2) : 1,
    hallucination_analysis: {
      total_claims: results.length,
      verified_claims: count('verified'),
      unverified_claims: count('unverified'),
      potential_hallucinations: count('contradicted'),
    },
    claim_analysis: results,
    recommendations: recs,
  };
}

export { extractClaims };
