/**
 * npm run eval:content — the content evaluation (docs/quality.md): every brief of bench/content-briefs.json
 * through every text-producing route family of a running platform, per provider, judged by metrics.ts,
 * LanguageTool and the claim checker against the cited sources. Starts its own platform processes per provider
 * (scripts/eval/platform.ts; the stack must be up: scripts/stack up) and LanguageTool (ensure_languagetool).
 *
 *   EVAL_PROVIDERS  local,llama (default; `vendor` when VENDOR_A_BASE_URL is set: any OpenAI-compatible server)
 *   EVAL_BRIEFS     brief ids, comma-separated (default: all)
 *   EVAL_ROUTES     route ids, comma-separated (default: all)
 *   EVAL_LLAMA_ALL  1: run llama on every route (default: only the routes the model writes; the others give the
 *                   template writer's text, the same as `local`)
 *   EVAL_WRITE_DOC  1: write the results into docs/quality.md (between its eval:content markers)
 *   EVAL_OUT        where the results go (default .run/eval)
 * Results: .run/eval/content-<provider>.json (every piece, its text and every measure) and content-report.md.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Brief } from './metrics';
import { corpusReader, judge, Judged, RouteSummary, summarise } from './judge';
import { startLanguageTool } from './languagetool';
import { EvalProvider, startEvalPlatform } from './platform';
import { createCalendar, ROUTES } from './routes';

const ROOT = path.resolve(__dirname, '../..');
const OUT = process.env.EVAL_OUT ?? path.join(ROOT, '.run/eval');

export function loadBriefs(ids?: string[]): Brief[] {
  const all = (JSON.parse(readFileSync(path.join(ROOT, 'bench/content-briefs.json'), 'utf8')) as { briefs: Brief[] })
    .briefs;
  return ids?.length ? all.filter((b) => ids.includes(b.id)) : all;
}

const list = (v: string | undefined) =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

const f2 = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? '–' : x.toFixed(2));

export function reportTable(rows: RouteSummary[]): string {
  const head =
    '| route | provider | pieces (failed) | topicality median (min) | pieces with a duplicate sentence | repeated 4-grams | key-point coverage | LanguageTool errors /100 words | hashtag fragments | lower-cased names | dangling `[n]` | numbering faults | unsupported cited / cited | listicle misses (nothing to list) | CTA misses | length ratio |';
  const sep = `|${'---|'.repeat(16)}`;
  const lines = rows.map(
    (r) =>
      `| ${r.route} | ${r.provider} | ${r.pieces} (${r.failed}) | ${f2(r.medianTopicality)} (${f2(r.minTopicality)}) | ${r.withDuplicates} | ${f2(r.meanRepeated4grams)} | ${f2(r.meanKeyPointCoverage)} | ${f2(r.ltPer100)} | ${r.hashtagFragments} | ${r.lowerCasedNames} | ${r.danglingCitations} | ${r.numberingFaults} | ${r.unsupportedCited} / ${r.cited} | ${r.listicleMisses} (${r.listicleNothing}) | ${r.ctaMisses} | ${f2(r.meanLengthRatio)} |`,
  );
  return [head, sep, ...lines].join('\n');
}

async function main(): Promise<void> {
  const providers = (
    list(process.env.EVAL_PROVIDERS).length
      ? list(process.env.EVAL_PROVIDERS)
      : ['local', 'llama', ...(process.env.VENDOR_A_BASE_URL ? ['vendor'] : [])]
  ) as EvalProvider[];
  const briefs = loadBriefs(list(process.env.EVAL_BRIEFS));
  const routeIds = list(process.env.EVAL_ROUTES);
  const routes = ROUTES.filter((r) => !routeIds.length || routeIds.includes(r.id));
  mkdirSync(OUT, { recursive: true });
  const lt = await startLanguageTool();
  const summaries: RouteSummary[] = [];
  const started = Date.now();
  try {
    for (const provider of providers) {
      const platform = await startEvalPlatform(provider);
      const judged: Judged[] = [];
      const failures: Array<{ route: string; brief: string; error: string }> = [];
      try {
        const client = { base: platform.base, key: platform.key, session: platform.session };
        const calendarId = await createCalendar(client);
        const read = corpusReader(platform.base, platform.key);
        const mine = routes.filter((r) => provider !== 'llama' || r.model || process.env.EVAL_LLAMA_ALL === '1');
        for (const route of mine) {
          const perRoute: Judged[] = [];
          let failed = 0;
          for (const brief of briefs) {
            const t0 = Date.now();
            try {
              const run = await route.run(client, brief, { calendarId, provider });
              for (const piece of run.pieces)
                perRoute.push(await judge({ ...piece, route: route.id, provider, brief }, lt, read));
            } catch (e) {
              failed++;
              failures.push({ route: route.id, brief: brief.id, error: (e as Error).message });
            }
            process.stdout.write(
              `${provider} ${route.id} ${brief.id}: ${((Date.now() - t0) / 1000).toFixed(1)} s${failed ? ` (${failed} failed)` : ''}\n`,
            );
          }
          judged.push(...perRoute);
          summaries.push(summarise(route.id, provider, perRoute, failed));
        }
      } finally {
        await platform.stop();
      }
      writeFileSync(path.join(OUT, `content-${provider}.json`), JSON.stringify({ judged, failures }, null, 2));
      for (const f of failures) process.stdout.write(`FAILED ${provider} ${f.route} ${f.brief}: ${f.error}\n`);
    }
  } finally {
    await lt.close();
  }
  const minutes = ((Date.now() - started) / 60000).toFixed(1);
  const report = [
    `Run of ${new Date().toISOString().slice(0, 10)}: ${briefs.length} briefs (${briefs.filter((b) => !b.corpus).length} off the sample corpus), ${routes.length} routes, providers ${providers.join(', ')}; ${minutes} min.`,
    '',
    reportTable(summaries),
  ].join('\n');
  writeFileSync(path.join(OUT, 'content-report.md'), `${report}\n`);
  process.stdout.write(`\n${report}\n`);
  if (process.env.EVAL_WRITE_DOC === '1') {
    const doc = path.join(ROOT, 'docs/quality.md');
    const text = readFileSync(doc, 'utf8');
    const next = text.replace(
      /<!-- eval:content -->[\s\S]*<!-- \/eval:content -->/,
      `<!-- eval:content -->\n${report}\n<!-- /eval:content -->`,
    );
    writeFileSync(doc, next);
  }
}

if (require.main === module)
  main().catch((e) => {
    process.stderr.write(`${(e as Error).stack}\n`);
    process.exit(1);
  });
