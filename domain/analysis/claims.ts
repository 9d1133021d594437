/**
 * Claim checking against supplied sources: the body of POST
 * /api/blog/hallucination/check (without `success`/`processing_time_ms`).
 *
 * For each claim: BM25 retrieves the 5 best source sentences; each is
 * scored by content-word overlap with the claim and by agreement of the
 * claim's numbers, dates and names. Labels:
 *  - contradicted: the best passage restates the claim closely (content-word
 *    overlap >= 0.7) but gives a different number or date for the same
 *    thing, and no other relevant passage states the claimed value;
 *  - verified: support >= confidence_threshold (default 0.6), every
 *    number/date of the claim is confirmed by a relevant passage (overlap
 *    >= 0.35) and every name in the claim appears in the best passage;
 *  - unverified: everything else.
 * `confidence` estimates how likely the claim is to be accurate.
 */
import { Bm25Index, createBm25Index, search } from './bm25';
import { Claim, ClaimType, extractClaims } from './claim-extract';
import { DateFact, Facts, NumberFact, UNIT_WORDS, datesAgree, extractFacts, numbersAgree } from './claim-facts';
import { splitSentences } from './sentences';
import { contentKeys, phraseKeys } from './word-forms';
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
export const DEFAULT_CONFIDENCE_THRESHOLD = 0.6;

interface Passage {
  source: ClaimSource;
  text: string;
  keys: Set<string>;
  facts: Facts;
}

type FactStatus = 'agree' | 'conflict' | 'absent';

interface Scored {
  p: Passage;
  overlap: number;
  support: number;
  numbers: FactStatus[];
  dates: FactStatus[];
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
  if (cands.some(agree)) return 'agree';
  const shared = cands.map((c) => [...fact.context].filter((k) => c.context.has(k)).length);
  // no shared subject words: a lone candidate in a sentence clearly about the claim is still the same subject
  if (Math.max(...shared) === 0 && !(cands.length === 1 && overlap >= 0.5)) return 'absent';
  return 'conflict';
}

function score(claim: Claim, claimKeys: Set<string>, p: Passage, verifyStats: boolean): Scored {
  const shared = [...claimKeys].filter((k) => p.keys.has(k)).length;
  const overlap = claimKeys.size ? shared / claimKeys.size : 0;
  const numbers = claim.facts.numbers.map((n: NumberFact) =>
    compare(
      n,
      p.facts.numbers.filter((c) => c.unit === n.unit),
      overlap,
      (c) => numbersAgree(n, c),
    ),
  );
  const dates = claim.facts.dates.map((d: DateFact) => compare(d, p.facts.dates, overlap, (c) => datesAgree(d, c)));
  const names = claim.facts.names.filter((n) => p.keys.has(n)).length;
  const considered = [...(verifyStats ? numbers : []), ...dates];
  const facts = considered.length + claim.facts.names.length;
  const agree = considered.filter((s) => s === 'agree').length + names;
  const support = facts > 0 ? 0.6 * overlap + 0.4 * (agree / facts) : overlap;
  return { p, overlap, support, numbers: verifyStats ? numbers : numbers.map(() => 'agree'), dates };
}

function passagesOf(sources: ClaimSource[]): Passage[] {
  return sources.flatMap((source) => {
    const titleKeys = contentKeys(source.title ?? '');
    const text = source.excerpt ?? '';
    return splitSentences(text).map(({ start, end }) => {
      const t = text.slice(start, end);
      return {
        source,
        text: t,
        keys: new Set([...contentKeys(t), ...phraseKeys(t), ...titleKeys]),
        facts: extractFacts(t),
      };
    });
  });
}

const validSource = (s: ClaimSource): boolean =>
  typeof s?.excerpt === 'string' && s.excerpt.trim() !== '' && /^https?:\/\/\S+$/i.test(s.url ?? '');

function judge(
  claim: Claim,
  scored: Scored[],
  threshold: number,
): { status: VerificationStatus; confidence: number; best?: Scored; conflict?: string } {
  const relevant = scored.filter((s) => s.overlap >= MIN_SUBJECT_OVERLAP).sort((a, b) => b.support - a.support);
  if (relevant.length === 0) {
    const top = Math.max(0, ...scored.map((s) => s.support));
    return { status: 'unverified', confidence: round(0.75 * Math.min(top, threshold), 2) };
  }
  const best = relevant[0];
  const confirmed = (kind: 'numbers' | 'dates', i: number): boolean => relevant.some((s) => s[kind][i] === 'agree');
  const conflicts = [
    ...best.numbers.map((st, i) =>
      st === 'conflict' && !confirmed('numbers', i) ? claim.facts.numbers[i].text : null,
    ),
    ...best.dates.map((st, i) => (st === 'conflict' && !confirmed('dates', i) ? claim.facts.dates[i].text : null)),
  ].filter((x): x is string => x !== null);
  if (conflicts.length > 0 && best.overlap >= MIN_CONTRADICTION_OVERLAP) {
    return {
      status: 'contradicted',
      confidence: round(Math.max(0.01, 0.3 * (1 - best.overlap)), 2),
      best,
      conflict: conflicts[0],
    };
  }
  // every figure confirmed somewhere, and every named entity present in the deciding passage ("India" is not "global")
  const allConfirmed =
    best.numbers.every((_, i) => confirmed('numbers', i)) &&
    best.dates.every((_, i) => confirmed('dates', i)) &&
    claim.facts.names.every((n) => best.p.keys.has(n));
  if (best.support >= threshold && allConfirmed)
    return { status: 'verified', confidence: round(best.support, 2), best };
  return { status: 'unverified', confidence: round(0.75 * Math.min(best.support, threshold), 2), best };
}

function recommendationFor(
  claim: Claim,
  status: VerificationStatus,
  best?: Scored,
  conflict?: string,
): string | undefined {
  if (status === 'verified') return undefined;
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

export function checkClaims(
  content: string,
  sources: ClaimSource[] = [],
  options: CheckOptions = {},
): HallucinationCheckResult {
  const verifyStats = options.verify_statistics !== false;
  const threshold = options.confidence_threshold ?? DEFAULT_CONFIDENCE_THRESHOLD;
  const usable =
    options.validate_sources === false
      ? sources.filter((s) => s && typeof s.excerpt === 'string')
      : sources.filter(validSource);
  const passages = passagesOf(usable);
  const index: Bm25Index = createBm25Index(passages.map((p, i) => ({ id: String(i), text: p.text })));
  let claims = extractClaims(content);
  if (options.check_claims === false)
    claims = claims.filter((c) => c.types.includes('statistic') || c.types.includes('date'));

  const results: ClaimResult[] = claims.map((claim) => {
    const claimKeys = new Set(contentKeys(claim.text).filter((k) => !UNIT_WORDS.has(k)));
    const scored = search(index, claim.text, 5).map((h) =>
      score(claim, claimKeys, passages[Number(h.id)], verifyStats),
    );
    const { status, confidence, best, conflict } = judge(claim, scored, threshold);
    const support =
      status === 'contradicted' && best
        ? [best]
        : scored.filter(
            (s) => s.overlap >= MIN_SUBJECT_OVERLAP && !s.numbers.includes('conflict') && !s.dates.includes('conflict'),
          );
    const seen = new Set<string>();
    const supporting_sources = support
      .sort((a, b) => b.support - a.support)
      .filter((s) => !seen.has(s.p.source.url) && (seen.add(s.p.source.url), true))
      .slice(0, 3)
      .map((s) => ({ title: s.p.source.title, url: s.p.source.url, relevance_score: round(s.support, 2) }));
    const recommendation = recommendationFor(claim, status, best, conflict);
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
  });

  const count = (s: VerificationStatus): number => results.filter((r) => r.verification_status === s).length;
  const recs: string[] = [];
  if (count('contradicted'))
    recs.push(
      `Correct ${count('contradicted')} statement(s) whose numbers or dates contradict the sources (see claim_analysis).`,
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
