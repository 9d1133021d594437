/**
 * Throughput of the pure analysis functions on a ~3,000-word Markdown post.
 * Run: npx tsx scripts/bench/analysis.ts   (BENCH_SECONDS=5 by default)
 *
 * The article is generated deterministically (seeded PRNG over sentence
 * templates), so runs are comparable across machines and commits. Timing
 * lives here, not in domain/ (which must stay clock-free).
 */
import { performance } from 'node:perf_hooks';
import { analyzeSeo, analyzeReadability } from '../../domain/analysis/seo';
import { generateMetadata } from '../../domain/analysis/metadata';
import { checkClaims } from '../../domain/analysis/claims';
import { countWords, bodySentences, buildDocument } from '../../domain/analysis/text';

function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SUBJECTS = [
  'Content marketing',
  'A clear editorial calendar',
  'Your audience',
  'Search traffic',
  'The analytics team',
  'Small businesses',
  'Every good headline',
  'Long-form guides',
];
const VERBS = [
  'improves',
  'depends on',
  'is shaped by',
  'grows with',
  'was measured by',
  'benefits from',
  'competes with',
  'rarely replaces',
];
const OBJECTS = [
  'consistent publishing',
  'useful examples',
  'internal links to related posts',
  'a focused keyword strategy',
  'reader questions',
  'original research',
  'clean page structure',
  'honest product comparisons',
];
const TAILS = [
  '',
  ' in 2023',
  ' by 35% on average',
  ', according to the 2024 survey',
  ' when teams plan ahead',
  ' for most readers',
  ' over twelve months',
  ' even on a small budget',
];
const OPENERS = ['', 'However, ', 'For example, ', 'As a result, ', 'In practice, ', 'Meanwhile, '];

export function buildArticle(targetWords = 3000, seed = 42): string {
  const rnd = prng(seed);
  const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)];
  const sentence = (): string => {
    const s = `${pick(OPENERS)}${pick(SUBJECTS).replace(/^./, (c) => c)} ${pick(VERBS)} ${pick(OBJECTS)}${pick(TAILS)}`;
    const first = s[0].toUpperCase() + s.slice(1);
    return rnd() < 0.08 ? `${first.replace(/[.,]$/, '')}?` : `${first}.`;
  };
  const parts = ['# Content marketing that compounds', ''];
  let words = 0;
  let section = 0;
  while (words < targetWords) {
    parts.push(`## Part ${++section}: ${pick(OBJECTS).replace(/^./, (c) => c.toUpperCase())}`, '');
    for (let p = 0; p < 3 && words < targetWords; p++) {
      const n = 3 + Math.floor(rnd() * 5);
      const para = Array.from({ length: n }, sentence).join(' ');
      words += para.split(/\s+/).length;
      parts.push(para, '');
    }
    if (section % 3 === 0) parts.push('- Plan topics monthly', '- Link related posts', '- Measure what readers do', '');
    if (section % 4 === 0)
      parts.push(
        `![Chart for part ${section}](/img/part-${section}.png)`,
        '',
        'See [our guide](/guide) and [the study](https://example.org/study).',
        '',
      );
  }
  return parts.join('\n');
}

function bench(name: string, seconds: number, fn: () => unknown): void {
  const warmEnd = performance.now() + 1000;
  while (performance.now() < warmEnd) fn();
  let ops = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  let now = start;
  while (now < end) {
    fn();
    ops++;
    now = performance.now();
  }
  const elapsed = (now - start) / 1000;
  console.log(
    `${name.padEnd(34)} ${(ops / elapsed).toFixed(1).padStart(8)} ops/s   mean ${((elapsed * 1000) / ops).toFixed(2).padStart(7)} ms   (${ops} runs in ${elapsed.toFixed(1)} s)`,
  );
}

function main(): void {
  const seconds = Number(process.env.BENCH_SECONDS ?? 5);
  const article = buildArticle();
  const words = countWords(bodySentences(buildDocument(article)));
  const sources = [
    {
      title: 'Editorial calendar study',
      url: 'https://example.org/calendar',
      excerpt: 'Teams with an editorial calendar publish 35% more often. The 2024 survey covered 1,000 marketers.',
    },
    {
      title: 'Internal links and search traffic',
      url: 'https://example.org/links',
      excerpt: 'Internal links to related posts improve search traffic in 2023.',
    },
  ];
  console.log(
    `article: ${article.length} characters, ${words} body words; node ${process.version}; ${seconds} s per benchmark after 1 s warm-up`,
  );
  bench('analyzeSeo (full SEO + readability)', seconds, () =>
    analyzeSeo({
      content: article,
      blog_title: 'Content marketing that compounds',
      keywords: ['content marketing'],
      research_data: { sources },
    }),
  );
  bench('analyzeReadability (all formulas)', seconds, () => analyzeReadability(article));
  bench('generateMetadata', seconds, () =>
    generateMetadata(
      { content: article, title: 'Content marketing that compounds', keywords: ['content marketing'] },
      { base_url: 'https://example.com/blog', now: 0 },
    ),
  );
  bench('checkClaims (2 sources)', seconds, () => checkClaims(article, sources));
}

// run only as a script, so tests/tools can import buildArticle
if (require.main === module) main();
