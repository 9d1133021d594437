/**
 * Claim-checker quality on the hand-labelled sets.
 * Run: npx tsx scripts/bench/claims-eval.ts
 */
import { EvalResult, evaluateClaims } from '../../domain/analysis/claims-eval';
import { HELDOUT_CLAIMS, LABELLED_CLAIMS, LABELLED_SOURCES } from '../../test/unit/analysis/fixtures/claims-labelled';

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;

function report(name: string, r: EvalResult): void {
  console.log(`\n== ${name}: ${r.total} claims, accuracy ${pct(r.accuracy)}`);
  for (const m of Object.values(r.metrics)) {
    console.log(
      `${m.label.padEnd(13)} precision ${pct(m.precision).padStart(6)}  recall ${pct(m.recall).padStart(6)}  (labelled ${m.support}, predicted ${m.predicted})`,
    );
  }
  console.log('confusion (rows = expected, columns = predicted):');
  console.log(
    ''.padEnd(13),
    Object.keys(r.confusion)
      .map((l) => l.padStart(13))
      .join(''),
  );
  for (const [expected, row] of Object.entries(r.confusion)) {
    console.log(
      expected.padEnd(13),
      Object.values(row)
        .map((n) => String(n).padStart(13))
        .join(''),
    );
  }
  for (const e of r.errors) console.log(`  miss [${e.expected} -> ${e.predicted}] ${e.claim}`);
}

report('labelled set (thresholds chosen on it)', evaluateClaims(LABELLED_CLAIMS, LABELLED_SOURCES));
report('held-out set', evaluateClaims(HELDOUT_CLAIMS, LABELLED_SOURCES));
report('all', evaluateClaims([...LABELLED_CLAIMS, ...HELDOUT_CLAIMS], LABELLED_SOURCES));
