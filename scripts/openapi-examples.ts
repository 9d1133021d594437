/**
 * The OpenAPI document's examples, taken from real answers: `npm run openapi:examples [-- <folder>]` reads the
 * answers a test run recorded (`RECORD_EXAMPLES=<folder>`, default `.run/examples`: every JSON 2xx answer the tests
 * received through test/support/http.ts `call`) and writes api/docs/openapi-examples.json — per operation and
 * status, one answer that the document's own response schema accepts, with loopback addresses and credentials
 * replaced and long lists and texts shortened (still accepted). The served document shows each as its response's
 * `example` (api/kernel/openapi.ts); test/unit/api/openapi-examples.unit.test.ts checks each against its schema.
 * Refresh after a change of answers: `RECORD_EXAMPLES=.run/examples scripts/test`, then this.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { PLATFORM_ROUTES } from '../api/routes';
import { docsRoutes } from '../api/docs/routes';
import { buildOpenApi } from '../api/kernel/openapi';
import { standaloneSchema } from '../api/kernel/openapi-passes';
import { VERSION } from '../api/health/routes';

type Json = unknown;
interface Answer {
  method: string;
  path: string;
  status: number;
  body: Json;
}
interface Operation {
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

const root = path.join(__dirname, '..');
const folder = path.resolve(root, process.argv[2] ?? '.run/examples');
const OUT = path.join(root, 'api/docs/openapi-examples.json');

const routes = [...PLATFORM_ROUTES];
routes.push(...docsRoutes(() => routes));
const doc = buildOpenApi(routes, { version: VERSION }) as {
  paths: Record<string, Record<string, Operation>>;
  components: unknown;
};

/** Path templates, most literal first: `/v1/content/generate` before `/v1/content/{content_id}`. */
const templates = Object.keys(doc.paths)
  .map((t) => ({
    t,
    re: new RegExp(`^${t.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    literal: t.split('/').filter((s) => s && !s.startsWith('{')).length,
  }))
  .sort((a, b) => b.literal - a.literal);
const templateOf = (method: string, p: string) => templates.find((x) => x.re.test(p) && doc.paths[x.t][method])?.t;

const ajv = addFormats(new Ajv({ strict: false, allErrors: false }));
const validators = new Map<string, ValidateFunction | null>();
function validatorOf(key: string, method: string, template: string, status: number): ValidateFunction | null {
  if (!validators.has(key)) {
    const schema = doc.paths[template][method].responses[String(status)]?.content?.['application/json']?.schema;
    validators.set(key, schema ? ajv.compile(standaloneSchema(doc, schema)) : null);
  }
  return validators.get(key)!;
}

/** Loopback addresses and credentials made neutral. */
const REDACT: [RegExp, string][] = [
  [/https?:\/\/(?:127\.0\.0\.1|localhost)(?::\d+)?/g, 'https://api.example.com'],
  // The same inside a URL-encoded parameter (an OAuth redirect_uri).
  [/https?%3A%2F%2F(?:127\.0\.0\.1|localhost)(?:%3A\d+)?/gi, 'https%3A%2F%2Fapi.example.com'],
  [/\b127\.0\.0\.1\b/g, 'api.example.com'],
  [/\b(cp_(?:live|test)|cps|cpo|cpr|whsec)_[A-Za-z0-9_-]{8,}/g, '$1_EXAMPLEONLY0123456789'],
];
const redact = (body: Json): Json =>
  JSON.parse(REDACT.reduce((text, [re, by]) => text.replace(re, by), JSON.stringify(body)));

/** Lists cut to three items and texts to 400 characters: an example to read, not a dump. */
function shorten(v: Json): Json {
  if (Array.isArray(v)) return v.slice(0, 3).map(shorten);
  if (typeof v === 'string') return v.length > 400 ? `${v.slice(0, 400)}…` : v;
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shorten(x)]));
  return v;
}

/** How much an answer shows: its distinct keys (a richer answer is a better example). */
const keysOf = (v: Json, out = new Set<string>(), at = ''): Set<string> => {
  if (Array.isArray(v)) v.forEach((x) => keysOf(x, out, `${at}[]`));
  else if (v && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) {
      out.add(`${at}.${k}`);
      keysOf(x, out, `${at}.${k}`);
    }
  return out;
};

const best = new Map<string, { body: Json; keys: number }>();
let read = 0;
let refused = 0;
/** Answers the document does not describe: each a fault of the document or of the answer. */
const undocumented = new Set<string>();
for (const file of readdirSync(folder).filter((f) => f.endsWith('.jsonl'))) {
  for (const line of readFileSync(path.join(folder, file), 'utf8').split('\n')) {
    if (!line) continue;
    const a = JSON.parse(line) as Answer;
    read++;
    const template = templateOf(a.method, a.path);
    // The document itself is no example of itself.
    if (!template || template === '/openapi.json') continue;
    const key = `${a.method} ${template} ${a.status}`;
    const v = validatorOf(key, a.method, template, a.status);
    if (!v) continue;
    // The answer as served must be documented; then the neutral, shortened one (else the neutral one whole).
    if (!v(a.body)) {
      refused++;
      undocumented.add(`${key}: ${ajv.errorsText(v.errors).slice(0, 200)}`);
      continue;
    }
    const neutral = redact(a.body);
    const short = shorten(neutral);
    const body = v(short) ? short : v(neutral) ? neutral : undefined;
    if (body === undefined) continue;
    const keys = keysOf(body).size;
    const size = JSON.stringify(body).length;
    const known = best.get(key);
    if (size <= 12_000 && (!known || keys > known.keys)) best.set(key, { body, keys });
  }
}

const examples = Object.fromEntries(
  [...best.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, x]) => [k, x.body]),
);
writeFileSync(OUT, `${JSON.stringify(examples, null, 2)}\n`);

// Coverage: operations with a JSON success answer, and which of them have an example.
const wanted = Object.entries(doc.paths).flatMap(([t, ops]) =>
  Object.entries(ops).flatMap(([m, op]) =>
    Object.entries(op.responses)
      .filter(([s, r]) => s.startsWith('2') && r.content?.['application/json'])
      .map(([s]) => `${m} ${t} ${s}`),
  ),
);
const operations = new Set(wanted.map((k) => k.split(' ').slice(0, 2).join(' ')));
const covered = new Set(Object.keys(examples).map((k) => k.split(' ').slice(0, 2).join(' ')));
console.log(
  `${read} answers read, ${refused} not as documented (left out); examples for ${covered.size} of ${operations.size} operations with a JSON success answer (${Object.keys(examples).length} statuses) -> ${path.relative(root, OUT)}`,
);
if (undocumented.size) console.log(`answers not as documented:\n  ${[...undocumented].join('\n  ')}`);
const missing = [...operations].filter((o) => !covered.has(o));
if (missing.length) console.log(`without an example:\n  ${missing.join('\n  ')}`);
