import { evaluateClaims } from '../../../domain/analysis/claims-eval';
import { HELDOUT_CLAIMS, HELDOUT_SOURCES, LABELLED_CLAIMS, LABELLED_SOURCES } from './fixtures/claims-labelled';

/*
 * Thresholds set after measuring (npm run eval:claims), a little below the
 * measured values so only a real regression fails:
 *   labelled set (the method was tuned on it; batches 1-7 included): accuracy
 *     0.987; contradicted P 0.996 R 0.984, unverified P 0.965 R 0.991,
 *     verified P 0.988 R 0.988
 *   held-out set (batch 8, written blind, run once, never tuned on): accuracy
 *     0.746; contradicted P 0.917 R 0.759, unverified P 0.500 R 0.846,
 *     verified P 0.846 R 0.647
 * The held-out figures are below the targets (accuracy 0.90,
 * contradicted recall 0.85); see docs/analysis.md. These floors only guard
 * against regressions. Do not raise them by tuning on HELDOUT_CLAIMS: move
 * the batch into the labelled set and write a fresh one blind instead.
 */
describe('claim checker quality', () => {
  it('has labelled claims of every kind, paraphrased contradictions among them', () => {
    expect(LABELLED_CLAIMS.length).toBeGreaterThanOrEqual(100);
    for (const l of ['verified', 'unverified', 'contradicted'])
      expect(LABELLED_CLAIMS.filter((c) => c.label === l).length).toBeGreaterThanOrEqual(30);
  });

  it('has a held-out set of at least 40 claims of every kind, with sources of its own', () => {
    expect(HELDOUT_CLAIMS.length).toBeGreaterThanOrEqual(40);
    for (const l of ['verified', 'unverified', 'contradicted'])
      expect(HELDOUT_CLAIMS.filter((c) => c.label === l).length).toBeGreaterThanOrEqual(10);
    expect(HELDOUT_SOURCES.length).toBeGreaterThan(0);
    const labelled = new Set(LABELLED_CLAIMS.map((c) => c.claim));
    expect(HELDOUT_CLAIMS.filter((c) => labelled.has(c.claim))).toEqual([]);
  });

  it('keeps accuracy, precision and recall on the labelled set', () => {
    const { accuracy, metrics } = evaluateClaims(LABELLED_CLAIMS, LABELLED_SOURCES);
    expect(accuracy).toBeGreaterThanOrEqual(0.94);
    expect(metrics.contradicted.precision).toBeGreaterThanOrEqual(0.95);
    expect(metrics.contradicted.recall).toBeGreaterThanOrEqual(0.95);
    expect(metrics.unverified.precision).toBeGreaterThanOrEqual(0.92);
    expect(metrics.unverified.recall).toBeGreaterThanOrEqual(0.85);
    expect(metrics.verified.precision).toBeGreaterThanOrEqual(0.92);
    expect(metrics.verified.recall).toBeGreaterThanOrEqual(0.97);
  });

  it('keeps accuracy, precision and recall on the held-out set', () => {
    const { accuracy, metrics } = evaluateClaims(HELDOUT_CLAIMS, [...LABELLED_SOURCES, ...HELDOUT_SOURCES]);
    expect(accuracy).toBeGreaterThanOrEqual(0.72);
    expect(metrics.contradicted.precision).toBeGreaterThanOrEqual(0.88);
    expect(metrics.contradicted.recall).toBeGreaterThanOrEqual(0.72);
    expect(metrics.unverified.precision).toBeGreaterThanOrEqual(0.45);
    expect(metrics.unverified.recall).toBeGreaterThanOrEqual(0.8);
    expect(metrics.verified.precision).toBeGreaterThanOrEqual(0.8);
    expect(metrics.verified.recall).toBeGreaterThanOrEqual(0.6);
  });
});
