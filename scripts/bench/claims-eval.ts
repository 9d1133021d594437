/**
 * Claim-checker quality on the hand-labelled sets
 * (test/unit/analysis/fixtures/claims-labelled.ts).
 * Run: npm run eval:claims  (npx tsx scripts/bench/claims-eval.ts)
 *
 * The labelled set is the tuning set (the method was fitted to it). The
 * held-out set (HELDOUT_CLAIMS) was written after the method was frozen and is
 * checked against the labelled sources plus sources of its own; batch 8, the
 * set there now, was written blind and never tuned on (its one run is the
 * figure of record in docs/analysis.md).
 * Then the false-positive probe on the research corpus (below).
 */
import { checkStatement } from '../../domain/analysis/claims';
import { ClaimSource } from '../../domain/analysis/claim-types';
import { EvalResult, evaluateClaims } from '../../domain/analysis/claims-eval';
import { splitSentences } from '../../domain/analysis/sentences';
import { CorpusDocument, loadCorpus } from '../../infra/research/corpus';
import {
  HELDOUT_CLAIMS,
  HELDOUT_SOURCES,
  LABELLED_CLAIMS,
  LABELLED_SOURCES,
} from '../../test/unit/analysis/fixtures/claims-labelled';

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

const heldoutSources = [...LABELLED_SOURCES, ...HELDOUT_SOURCES];
report('labelled set (tuning: the method was fitted to it)', evaluateClaims(LABELLED_CLAIMS, LABELLED_SOURCES));
report('held-out set (batch 8: never tuned on; see docs/analysis.md)', evaluateClaims(HELDOUT_CLAIMS, heldoutSources));
report('all', evaluateClaims([...LABELLED_CLAIMS, ...HELDOUT_CLAIMS], heldoutSources));

/*
 * False-positive probe on the research corpus (data/corpus, read as
 * infra/research/corpus.ts reads it): every sentence of each document (its
 * prose paragraphs and list items; headings aside) is checked as a statement
 * (checkStatement: whether or not it reads as a claim) against the OTHER
 * documents - they were written independently and do not contradict one
 * another, so nearly every `contradicted` here is a false alarm - and
 * against its own document, where every sentence should come out `verified`.
 */
function sentencesOf(d: CorpusDocument): string[] {
  return d.paragraphs
    .flatMap((p) => p.split(/\n|\s(?=[-*+]\s)/))
    .map((p) => p.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '').trim())
    .filter(Boolean)
    .flatMap((p) => splitSentences(p).map(({ start, end }) => p.slice(start, end).trim()))
    .filter((t) => /[a-z]/i.test(t));
}

function probe(): void {
  const docs = loadCorpus();
  const sourceOf = (d: CorpusDocument): ClaimSource => ({
    title: d.title,
    url: `https://corpus.example.org/${d.slug}`,
    excerpt: d.body,
  });
  let total = 0;
  let contradicted = 0;
  let verifiedOwn = 0;
  const alarms: string[] = [];
  const misses: string[] = [];
  for (const d of docs) {
    const rest = docs.filter((o) => o !== d).map(sourceOf);
    const own = [sourceOf(d)];
    for (const sentence of sentencesOf(d)) {
      total++;
      const r = checkStatement(sentence, rest);
      if (r.verification_status === 'contradicted') {
        contradicted++;
        alarms.push(`  [${d.slug}] ${sentence}\n      <- ${r.evidence?.title ?? ''}: "${r.evidence?.passage ?? ''}"`);
      }
      const o = checkStatement(sentence, own);
      if (o.verification_status === 'verified') verifiedOwn++;
      else misses.push(`  [${d.slug}] ${o.verification_status}: ${sentence}`);
    }
  }
  console.log(`\n== false-positive probe: ${total} sentences of ${docs.length} corpus documents (data/corpus)`);
  console.log(
    `against the other documents: ${contradicted} contradicted (should stay <= 2; nearly all would be false alarms)`,
  );
  for (const a of alarms) console.log(a);
  console.log(`against their own document:  ${verifiedOwn} of ${total} verified (should be all)`);
  for (const m of misses) console.log(m);
}

probe();
