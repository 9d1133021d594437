/**
 * Claim checking against supplied sources: the body of POST
 * /api/blog/hallucination/check (without `success`/`processing_time_ms`).
 *
 * For each claim (citation markers such as "[3]" set aside): BM25 retrieves
 * the 5 best source sentences (claim-passages.ts); each is scored by
 * content-word overlap with the claim (synonyms folded:
 * claim-lexicon/synonyms.ts) and by agreement of the claim's numbers, dates
 * and names; passages that restate the claim's subject are read for meaning
 * (claim-meaning.ts: negation, antonyms, swapped comparisons, hedges).
 * Labels (claim-judge.ts):
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
import { Claim, claimTypes, extractClaims } from './claim-extract';
import { UNIT_WORDS, extractFacts, maskCitations } from './claim-facts';
import { subjectKeys } from './claim-words';
import { thingWords } from './claim-things';
import { Passage, Probe, claimKeysOf, passagesOf, queryOf, validSource } from './claim-passages';
import { Judgement, MIN_SUBJECT_OVERLAP, judge, score } from './claim-judge';
import { CheckOptions, ClaimResult, ClaimSource, HallucinationCheckResult, VerificationStatus } from './claim-types';
import { tokenize } from './words';
import { round } from './readability';

export const DEFAULT_CONFIDENCE_THRESHOLD = 0.6;

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
/** The check's public shapes (claim-types.ts): callers import the checker and its types from here. */
export type {
  CheckOptions,
  ClaimResult,
  ClaimSource,
  HallucinationCheckResult,
  VerificationStatus,
} from './claim-types';
