import { evaluateClaims } from '../../../domain/analysis/claims-eval';
import { HELDOUT_CLAIMS, LABELLED_CLAIMS, LABELLED_SOURCES } from './fixtures/claims-labelled';

/*
 * Thresholds set after measuring (scripts/bench/claims-eval.ts), a little
 * below the measured values so only a real regression fails:
 *   labelled set: contradicted P 1.00 R 0.95, unverified P 0.90 R 1.00
 *   held-out set: contradicted P 1.00 R 0.60, unverified P 0.71 R 1.00
 */
describe('claim checker quality', () => {
  it('has at least 40 labelled claims of every kind', () => {
    expect(LABELLED_CLAIMS.length).toBeGreaterThanOrEqual(40);
    for (const l of ['verified', 'unverified', 'contradicted'])
      expect(LABELLED_CLAIMS.filter((c) => c.label === l).length).toBeGreaterThanOrEqual(10);
  });

  it('keeps precision and recall on the labelled set', () => {
    const { metrics } = evaluateClaims(LABELLED_CLAIMS, LABELLED_SOURCES);
    expect(metrics.contradicted.precision).toBeGreaterThanOrEqual(0.9);
    expect(metrics.contradicted.recall).toBeGreaterThanOrEqual(0.85);
    expect(metrics.unverified.precision).toBeGreaterThanOrEqual(0.85);
    expect(metrics.unverified.recall).toBeGreaterThanOrEqual(0.9);
  });

  it('keeps precision and recall on the held-out set', () => {
    const { metrics } = evaluateClaims(HELDOUT_CLAIMS, LABELLED_SOURCES);
    expect(metrics.contradicted.precision).toBeGreaterThanOrEqual(0.75);
    expect(metrics.contradicted.recall).toBeGreaterThanOrEqual(0.6);
    expect(metrics.unverified.precision).toBeGreaterThanOrEqual(0.6);
    expect(metrics.unverified.recall).toBeGreaterThanOrEqual(0.8);
  });
});
