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
 *   EVAL_WRITE_DOC  1: write the results into docs/quality.md (between its eval:content markers; eval:vendor when
 *                   only the vendor path ran)
 *   EVAL_OUT        where the results go (default .run/eval)
 *   EVAL_MERGE      result folders, comma-separated: run nothing, report the pieces those runs saved as one run (a
 *                   long evaluation split by EVAL_BRIEFS into shards that ran side by side, each with its EVAL_OUT)
 * Results: .run/eval/content-<provider>.json (every piece, its text and every measure, the failures and the vendor
 * path's JSON answers) and content-report.md.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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

/** How one JSON answer of the vendor path was read (the worker's 'ai structured answer' log line). */
export interface StructuredAnswer {
  /** The route whose run the answer came in (runs since 2026-11-27; undefined in older results). */
  route?: string;
  purpose: string;
  mode: string;
  first_valid: boolean;
  repair: 'none' | 'syntax' | 'reask';
  valid: boolean;
  /** `fresh`: the gateway's one new call after an answer still unusable once repaired (runs since 2026-11-27). */
  attempt?: 'first' | 'fresh';
}

/** The vendor path's JSON answers, from the worker's log. */
export function structuredAnswers(procs: Array<{ name: string; output(): string }>): StructuredAnswer[] {
  const out: StructuredAnswer[] = [];
  for (const p of procs.filter((x) => x.name === 'temporal-worker'))
    for (const line of p.output().split('\n')) {
      if (!line.includes('"ai structured answer"')) continue;
      try {
        const o = JSON.parse(line) as {
          purpose: string;
          valid: boolean;
          attempt?: 'first' | 'fresh';
          structured_output: Omit<StructuredAnswer, 'purpose' | 'valid' | 'attempt'>;
        };
        out.push({
          purpose: o.purpose,
          valid: o.valid,
          ...o.structured_output,
          ...(o.attempt ? { attempt: o.attempt } : {}),
        });
      } catch {
        /* a line cut by the process's end */
      }
    }
  return out;
}

const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)} %` : '–');

/**
 * Per route and JSON task (per task alone for results without routes): answers, valid as written, valid after
 * repair (by kind), and the structured mode the server took; then all of them. A fresh attempt (the gateway's new
 * call after an answer still unusable once repaired) is counted as an answer, and the calls it served are counted
 * apart: "calls usable" is the share of logical calls that ended with a usable answer (a call has at most one).
 */
export function structuredTable(rows: StructuredAnswer[]): string {
  const order = ROUTES.map((r) => r.id);
  const keyOf = (r: StructuredAnswer) => (r.route ? `${r.route}: ${r.purpose}` : r.purpose);
  const rank = (r: StructuredAnswer) => (r.route ? order.indexOf(r.route) : -1);
  const keys = [
    ...new Map(
      [...rows].sort((a, b) => rank(a) - rank(b) || a.purpose.localeCompare(b.purpose)).map((r) => [keyOf(r), r]),
    ).keys(),
  ];
  const line = (name: string, rs: StructuredAnswer[]) => {
    const fresh = rs.filter((r) => r.attempt === 'fresh').length;
    const usable = rs.filter((r) => r.valid).length;
    return `| ${name} | ${rs.length} | ${pct(rs.filter((r) => r.first_valid).length, rs.length)} | ${pct(usable, rs.length)} | ${rs.filter((r) => r.repair === 'syntax').length} / ${rs.filter((r) => r.repair === 'reask').length} / ${fresh} | ${pct(usable, rs.length - fresh)} | ${[...new Set(rs.map((r) => r.mode))].join(', ')} |`;
  };
  return [
    '| route: JSON task (vendor path) | answers | valid as written | valid after repair | read back / asked again / fresh call | calls usable | structured mode |',
    '|---|---|---|---|---|---|---|',
    ...keys.map((k) =>
      line(
        k,
        rows.filter((r) => keyOf(r) === k),
      ),
    ),
    line('**all**', rows),
  ].join('\n');
}

/** What one provider's run saved (content-<provider>.json). */
interface SavedRun {
  provider: EvalProvider;
  briefs: string[];
  routes: string[];
  minutes: number;
  judged: Judged[];
  failures: Array<{ route: string; brief: string; error: string }>;
  structured: StructuredAnswer[];
  /** False while the run goes on (or when it was stopped): `routes` are the routes it finished. */
  complete: boolean;
}

/** The report of one run, or of shards of one run merged: a table row per route and provider, in route order. */
function report(runs: SavedRun[], heading: string): string {
  const summaries: RouteSummary[] = [];
  const providers = [...new Set(runs.map((r) => r.provider))];
  for (const provider of providers) {
    const mine = runs.filter((r) => r.provider === provider);
    const routeIds = ROUTES.map((r) => r.id).filter((id) => mine.some((r) => r.routes.includes(id)));
    for (const id of routeIds)
      summaries.push(
        summarise(
          id,
          provider,
          mine.flatMap((r) => (r.routes.includes(id) ? r.judged.filter((j) => j.route === id) : [])),
          mine.reduce((n, r) => n + (r.routes.includes(id) ? r.failures.filter((f) => f.route === id).length : 0), 0),
        ),
      );
  }
  const structured = runs.flatMap((r) => r.structured);
  return [heading, '', reportTable(summaries), ...(structured.length ? ['', structuredTable(structured)] : [])].join(
    '\n',
  );
}

/**
 * The report, printed and saved; with EVAL_WRITE_DOC=1 also written into docs/quality.md: between its eval:vendor
 * markers when only the vendor path ran (its own section), between eval:content otherwise.
 */
function writeReport(text: string, providers: EvalProvider[]): void {
  writeFileSync(path.join(OUT, 'content-report.md'), `${text}\n`);
  process.stdout.write(`\n${text}\n`);
  if (process.env.EVAL_WRITE_DOC === '1') {
    const marker = providers.every((p) => p === 'vendor') ? 'eval:vendor' : 'eval:content';
    const doc = path.join(ROOT, 'docs/quality.md');
    const before = readFileSync(doc, 'utf8');
    const section = new RegExp(`<!-- ${marker} -->[\\s\\S]*<!-- /${marker} -->`);
    if (!section.test(before)) throw new Error(`docs/quality.md has no ${marker} markers`);
    writeFileSync(
      doc,
      before.replace(section, () => `<!-- ${marker} -->\n${text}\n<!-- /${marker} -->`),
    );
  }
}

/** EVAL_MERGE: the saved runs of several result folders reported as one. */
function merge(dirs: string[]): void {
  const runs: SavedRun[] = [];
  for (const dir of dirs)
    for (const provider of ['local', 'llama', 'vendor'] as const) {
      const file = path.join(dir, `content-${provider}.json`);
      if (!existsSync(file)) continue;
      const saved = JSON.parse(readFileSync(file, 'utf8')) as SavedRun;
      runs.push({ ...saved, structured: saved.structured ?? [] });
    }
  if (!runs.length) throw new Error(`no content-<provider>.json in ${dirs.join(', ')}`);
  const briefs = new Set(runs.flatMap((r) => r.briefs));
  const providers = [...new Set(runs.map((r) => r.provider))];
  const routes = new Set(runs.flatMap((r) => r.routes));
  const longest = Math.max(...runs.map((r) => r.minutes));
  const partial = runs.filter((r) => !r.complete).length;
  mkdirSync(OUT, { recursive: true });
  writeReport(
    report(
      runs,
      `Run of ${new Date().toISOString().slice(0, 10)}: ${briefs.size} briefs, ${routes.size} routes, providers ${providers.join(', ')}; ${runs.length} shards side by side, the longest ${longest.toFixed(1)} min${partial ? `; ${partial} stopped part-way (only the routes they finished)` : ''}.`,
    ),
    providers,
  );
}

async function main(): Promise<void> {
  if (list(process.env.EVAL_MERGE).length) return merge(list(process.env.EVAL_MERGE));
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
  const runs: SavedRun[] = [];
  const started = Date.now();
  try {
    for (const provider of providers) {
      const t0 = Date.now();
      const platform = await startEvalPlatform(provider);
      const run: SavedRun = {
        provider,
        briefs: briefs.map((b) => b.id),
        routes: [],
        minutes: 0,
        judged: [],
        failures: [],
        structured: [],
        complete: false,
      };
      // Saved after every route: a run stopped part-way still reports (and merges) the routes it finished.
      const save = (route?: string) => {
        run.minutes = (Date.now() - t0) / 60000;
        // The worker's log lines since the last save are the answers of the route that just ran.
        if (provider === 'vendor')
          run.structured.push(
            ...structuredAnswers(platform.procs)
              .slice(run.structured.length)
              .map((a) => ({ ...a, route })),
          );
        writeFileSync(path.join(OUT, `content-${provider}.json`), JSON.stringify(run, null, 2));
      };
      const mine = routes.filter((r) => provider !== 'llama' || r.model || process.env.EVAL_LLAMA_ALL === '1');
      try {
        const client = { base: platform.base, key: platform.key, session: platform.session };
        const calendarId = await createCalendar(client);
        const read = corpusReader(platform.base, platform.key);
        for (const route of mine) {
          let failed = 0;
          for (const brief of briefs) {
            const t1 = Date.now();
            try {
              const pieces = await route.run(client, brief, { calendarId, provider });
              for (const piece of pieces.pieces)
                run.judged.push(await judge({ ...piece, route: route.id, provider, brief }, lt, read));
              for (const error of pieces.failures ?? []) {
                failed++;
                run.failures.push({ route: route.id, brief: brief.id, error });
              }
            } catch (e) {
              failed++;
              run.failures.push({ route: route.id, brief: brief.id, error: (e as Error).message });
            }
            process.stdout.write(
              `${provider} ${route.id} ${brief.id}: ${((Date.now() - t1) / 1000).toFixed(1)} s${failed ? ` (${failed} failed)` : ''}\n`,
            );
          }
          run.routes.push(route.id);
          save(route.id);
        }
        run.complete = true;
        save();
      } finally {
        await platform.stop();
      }
      runs.push(run);
      const { failures } = run;
      for (const f of failures) process.stdout.write(`FAILED ${provider} ${f.route} ${f.brief}: ${f.error}\n`);
    }
  } finally {
    await lt.close();
  }
  const minutes = ((Date.now() - started) / 60000).toFixed(1);
  writeReport(
    report(
      runs,
      `Run of ${new Date().toISOString().slice(0, 10)}: ${briefs.length} briefs (${briefs.filter((b) => !b.corpus).length} off the sample corpus), ${routes.length} routes, providers ${providers.join(', ')}; ${minutes} min.`,
    ),
    providers,
  );
}

if (require.main === module)
  main().catch((e) => {
    process.stderr.write(`${(e as Error).stack}\n`);
    process.exit(1);
  });
