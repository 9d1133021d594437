/**
 * Precision/recall of claim labels on a labelled set. Shared by the unit
 * test and scripts/bench/claims-eval.ts so both measure the same thing.
 */
import { checkClaims } from './claims';
import { ClaimSource, VerificationStatus } from './claim-types';

export interface LabelMetrics {
  label: VerificationStatus;
  precision: number;
  recall: number;
  support: number;
  predicted: number;
}

export interface EvalResult {
  total: number;
  accuracy: number;
  metrics: Record<VerificationStatus, LabelMetrics>;
  confusion: Record<VerificationStatus, Record<VerificationStatus, number>>;
  errors: Array<{ claim: string; expected: VerificationStatus; predicted: VerificationStatus }>;
}

const LABELS: VerificationStatus[] = ['verified', 'unverified', 'contradicted'];

/** Each claim is checked alone (as one-sentence content) against all sources. */
export function evaluateClaims(
  claims: Array<{ claim: string; label: VerificationStatus }>,
  sources: ClaimSource[],
): EvalResult {
  const confusion = Object.fromEntries(
    LABELS.map((l) => [l, Object.fromEntries(LABELS.map((m) => [m, 0]))]),
  ) as EvalResult['confusion'];
  const errors: EvalResult['errors'] = [];
  for (const c of claims) {
    const r = checkClaims(c.claim, sources);
    // a sentence the extractor does not treat as a claim has nothing backing it
    const predicted = r.claim_analysis[0]?.verification_status ?? 'unverified';
    confusion[c.label][predicted]++;
    if (predicted !== c.label) errors.push({ claim: c.claim, expected: c.label, predicted });
  }
  const metrics = {} as EvalResult['metrics'];
  for (const l of LABELS) {
    const tp = confusion[l][l];
    const predicted = LABELS.reduce((n, e) => n + confusion[e][l], 0);
    const support = LABELS.reduce((n, p) => n + confusion[l][p], 0);
    metrics[l] = {
      label: l,
      precision: predicted ? tp / predicted : 1,
      recall: support ? tp / support : 1,
      support,
      predicted,
    };
  }
  const correct = LABELS.reduce((n, l) => n + confusion[l][l], 0);
  return { total: claims.length, accuracy: claims.length ? correct / claims.length : 1, metrics, confusion, errors };
}
