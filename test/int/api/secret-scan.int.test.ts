/**
 * No secret leaves the platform (issue 31, item 3). One run issues every kind
 * of credential the API hands out — API keys (created, rotated), an outreach
 * session token, webhook signing secrets (given and generated, general and
 * calendar), a calendar OAuth client secret, authorization code, access and
 * refresh tokens (and their rotation), a Search Console refresh token and a
 * site-builder connection (state, code, the builder's tokens) — drives routes
 * of every area with them, then sweeps every registered route with secrets
 * planted where a client could mistype them (bodies the routes refuse, query
 * strings). Then the real `npm run events -- export` and `tail` run over
 * everything written, and the export, the tail, the captured logs, every
 * response and every webhook payload the stored events make are scanned for:
 * - each secret text the run knows (a response may carry only the one it
 *   issued: the key of the create, the secret of the registration);
 * - each SHA-256 hash and `sha256:` fingerprint stored in the event store, the
 *   hashes of the known secrets and the PKCE challenges;
 * - each encrypted blob at rest (webhook_secrets, sitebuilder_tokens,
 *   integration_credentials), hex and base64;
 * - credential-shaped texts (`cp_live_`, `cp_test_`, `cps_`, `cpo_`, `cpa_`,
 *   `cpr_`, `cpcs_`, `whsec_`) and a hash field with a value.
 * Nothing may be found; the counts scanned are printed.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bearer, startTestApi, TestApi } from '../../support/api';
import { call, JsonResponse } from '../../support/http';
import { isolatedSchema, IsolatedSchema } from '../../support/schema';
import { testTemporal } from '../../support/env';
import { FAKE_CLIENT, FakeBuilder, startFakeBuilder } from '../../support/sitebuilder/fake-builder';
import {
  apiSitebuilder,
  capturedLogger,
  sitebuilderEnv,
  startSitebuilderWorker,
} from '../../support/sitebuilder/setup';
import { familyOf } from '../../../api/kernel/families';
import type { AppDeps } from '../../../api/kernel/types';
import { SecretBox } from '../../../infra/webhooks/secrets';
import { parseAllowList } from '../../../infra/webhooks/ssrf';
import { IntegrationCredentialStore } from '../../../infra/seo';
import { PostgresPolicyEngine, SendLedger } from '../../../infra/outreach';
import { DEFAULT_POLICY } from '../../../domain/outreach/policy';
import { buildPayload, SourceContext, SourceEvent, webhookMessagesFor } from '../../../domain/webhooks/catalogue';
import { checkpointOf, START } from '../../../infra/eventstore/port';
import { taskStatusProjection } from '../../../projections/task-status';
import { sitebuilderConnectionsProjection } from '../../../projections/sitebuilder-connections';
import { calendarsProjection } from '../../../projections/calendars';
import { webhookDeliveriesProjection } from '../../../projections/webhook-deliveries';
import { outreachProjection } from '../../../projections/outreach';
import { outreachActivityProjection } from '../../../projections/outreach-activity';

jest.setTimeout(600000);

const ROOT = path.resolve(__dirname, '../../..');
const REDIRECT = 'https://integrator.example.com/callback';
const OUTREACH = '/api/v1/backlink-outreach';
const lots = { minute: 100000, hour: 1000000, day: 1000000 };
const RATES = {
  rate: {
    overrides: {
      '*': { general: lots, developer: lots, calendar: lots, integration: lots, status: { minute: 100000 } },
    },
  },
};

const sha256 = (t: string) => createHash('sha256').update(t).digest('hex');
/** Credential texts of every shape the platform hands out; `_[redacted]` in place of the secret part does not match. */
const CREDENTIAL_TEXT =
  /(?:cp_(?:live|test)_[A-Za-z0-9]{12}|cp(?:s|o|a|r|cs)_[A-Za-z0-9]{16})_[A-Za-z0-9_-]{43}|whsec_[A-Za-z0-9+/]{20,}={0,2}/g;
/** A stored hash or fingerprint field that kept its value. */
const HASH_FIELD = /"(?:key_hash|token_hash|secret_hash|code_hash|state_hash|token_fingerprint)":"(?!\[redacted\])/g;

/** One response as a client saw it (body and headers), and the secrets it issued (it may carry those). */
interface Recorded {
  what: string;
  text: string;
  issued: Set<string>;
}

/** Runs the analysts' tool as an operator runs it: its own process against the test's schema. */
const eventsEnv = (s: IsolatedSchema) => ({ ...process.env, DATABASE_URL: s.url, KAFKA_TOPIC_PREFIX: s.topicPrefix });

function exportAll(s: IsolatedSchema): string {
  const out = path.join(mkdtempSync(path.join(tmpdir(), 'secret-scan-')), 'all.jsonl');
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'scripts/events.ts', 'export', '--since', '2000-01-01T00:00:00Z', '--out', out],
    { cwd: ROOT, env: eventsEnv(s), encoding: 'utf8', timeout: 120000 },
  );
  if (r.status !== 0) throw new Error(`export failed (${r.status}): ${r.stderr}`);
  return readFileSync(out, 'utf8');
}

/** `tail --from-start` until it has printed `lines` events, then stopped as an operator stops it (Ctrl-C). */
function tailAll(s: IsolatedSchema, lines: number): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/events.ts', 'tail', '--from-start'], {
      cwd: ROOT,
      env: eventsEnv(s),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    let n = 0;
    const giveUp = setTimeout(() => child.kill('SIGINT'), 120000);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => {
      out += d;
      n += d.split('\n').length - 1;
      if (n >= lines) child.kill('SIGINT');
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(giveUp);
      resolve({ code, out });
    });
  });
}

describe('no secret leaves: export, tail, logs, responses and webhook payloads of a run over every area', () => {
  let schema: IsolatedSchema;
  let builder: FakeBuilder;
  let temporal: Awaited<ReturnType<typeof testTemporal>>;
  let worker: Awaited<ReturnType<typeof startSitebuilderWorker>>;
  let api: TestApi;
  let sweeper: TestApi;
  const logs = capturedLogger();
  const responses: Recorded[] = [];
  /** Every secret text the run knows, with what it is (for the failure message). */
  const secrets = new Map<string, string>();
  const secretBoxKey = randomBytes(32);

  const know = (text: string, what: string) => {
    expect(text.length).toBeGreaterThanOrEqual(16);
    secrets.set(text, what);
    return text;
  };
  const record = (what: string, r: { status: number; headers: Headers; body: unknown }, issued: string[] = []) => {
    responses.push({
      what: `${what} → ${r.status}`,
      text: `${typeof r.body === 'string' ? r.body : JSON.stringify(r.body)}\n${JSON.stringify([...r.headers])}`,
      issued: new Set(issued),
    });
  };
  /** A call to `on` (the run's API unless told) with a credential, recorded. */
  const req = async (
    method: string,
    p: string,
    credential: string | null,
    json?: unknown,
    on: TestApi = api,
  ): Promise<JsonResponse> => {
    const r = await call(`${on.url}${p}`, {
      method,
      redirect: 'manual',
      headers: credential ? bearer(credential) : {},
      ...(json !== undefined ? { json } : {}),
    });
    record(`${method} ${p}`, r);
    return r;
  };
  const issuedBy = (r: JsonResponse, ...texts: string[]) => {
    const last = responses[responses.length - 1];
    expect(last.what.endsWith(`→ ${r.status}`)).toBe(true);
    for (const t of texts) last.issued.add(t);
  };

  beforeAll(async () => {
    builder = await startFakeBuilder();
    const env = sitebuilderEnv(builder);
    know(FAKE_CLIENT.secret, "the platform's site-builder client secret");
    know(env.SITEBUILDER_TOKEN_KEY, 'the site-builder token encryption key');
    know(secretBoxKey.toString('base64'), 'the webhook secret encryption key');
    temporal = await testTemporal();
    schema = await isolatedSchema();
    worker = await startSitebuilderWorker(schema.db, env, logs.logger);
    const webhookSettings = {
      secretKey: secretBoxKey,
      allow: parseAllowList('127.0.0.1'),
      schedule: [0],
      attemptTimeoutMs: 1000,
    };
    const box = new SecretBox(secretBoxKey);
    const deps: Partial<AppDeps> = {
      sitebuilder: apiSitebuilder(env),
      integrations: { credentials: new IntegrationCredentialStore(schema.db, box), searchConsole: true },
      outreach: {
        policy: new PostgresPolicyEngine(schema.db, { settings: DEFAULT_POLICY, logger: logs.logger }),
        ledger: new SendLedger(schema.db),
        unsubscribeKey: randomBytes(32),
        sending: { configured: true, missing: [] },
        replies: { configured: true, missing: [] },
      },
    };
    api = await startTestApi({
      schema,
      logger: logs.logger,
      settings: RATES,
      webhookSettings,
      projections: [
        taskStatusProjection,
        sitebuilderConnectionsProjection,
        calendarsProjection,
        webhookDeliveriesProjection,
        outreachProjection,
        outreachActivityProjection,
      ],
      deps: { ...deps, workflows: { client: async () => temporal.client, taskQueue: worker.taskQueue } },
    });
    // The sweep's app: the same schema and adapters, without workflows (a route that would start one answers 503
    // instead of leaving work on a queue no worker of this test serves).
    sweeper = await startTestApi({
      schema,
      pipeline: false,
      logger: logs.logger,
      settings: RATES,
      webhookSettings,
      deps,
    });
  });

  afterAll(async () => {
    await sweeper?.stop();
    await api?.stop();
    await worker?.stop();
    await builder?.stop();
    await temporal?.connection.close();
    await schema?.drop();
  });

  it('finds no secret anywhere', async () => {
    // --- Identity: keys made directly and through the API, a rotation, a session, refused credentials.
    const alice = await api.user('pro');
    const bob = await api.user('enterprise');
    const carol = await api.user('pro');
    know(alice.key, 'API key (alice)');
    know(bob.key, 'API key (bob)');
    know(carol.key, 'API key (carol)');
    const created = await req('POST', '/api/settings/api-keys', alice.key, {
      name: 'scan',
      environment: 'development',
    });
    expect(created.status).toBe(201);
    issuedBy(created, know(created.body.data.key, 'API key (created, development)'));
    const rotated = await req('POST', `/api/settings/api-keys/${alice.keyId}/rotate`, alice.key, {});
    expect(rotated.status).toBe(201);
    const aliceNew = know(rotated.body.data.key, 'API key (rotated)');
    issuedBy(rotated, aliceNew);
    expect((await req('GET', '/api/settings/api-keys', aliceNew)).status).toBe(200);
    expect((await req('GET', '/api/settings/api-keys', `${bob.key}x`)).status).toBe(401); // malformed: never echoed
    // A client that puts its key in the query string: the request line must not carry it.
    await req('GET', `/api/settings/api-keys?api_key=${encodeURIComponent(bob.key)}`, bob.key);
    await req('GET', `/api/no-such-route?access_token=${encodeURIComponent(carol.key)}`, carol.key);
    const session = await req('POST', '/api/settings/sessions', bob.key);
    expect(session.status).toBe(201);
    const token = know(session.body.data.token, 'session token');
    issuedBy(session, token);

    // --- Outreach (session family).
    expect(
      (await req('POST', `${OUTREACH}/campaigns`, token, { name: 'Garden blogs', keywords: ['compost'] })).status,
    ).toBe(201);
    expect((await req('GET', `${OUTREACH}/campaigns`, token)).status).toBe(200);
    expect((await req('GET', `${OUTREACH}/campaigns`, `${token}x`)).status).toBe(401);

    // --- Webhooks: a secret given, one generated, one refused; a test ping (its payload is stored).
    const given = know(`whsec_${randomBytes(32).toString('base64')}`, 'webhook secret (given)');
    const w1 = await req('POST', '/api/webhooks', alice.key, {
      url: 'http://127.0.0.1:9/hook',
      events: ['quota.warning', 'user_action'],
      secret: given,
    });
    expect(w1.status).toBe(201);
    issuedBy(w1, given);
    const w2 = await req('POST', '/api/webhooks', alice.key, {
      url: 'http://127.0.0.1:9/two',
      events: ['user_action'],
    });
    expect(w2.status).toBe(201);
    issuedBy(w2, know(w2.body.data.secret, 'webhook secret (generated)'));
    const tooLong = know(`refused-${randomBytes(16).toString('hex')}-${'z'.repeat(280)}`, 'webhook secret (refused)');
    expect(
      (
        await req('POST', '/api/webhooks', alice.key, {
          url: 'http://127.0.0.1:9/x',
          events: ['user_action'],
          secret: tooLong,
        })
      ).status,
    ).toBe(400);
    const hook = w1.body.data.id as string;
    expect((await req('GET', `/api/webhooks/${hook}`, alice.key)).status).toBe(200);
    expect((await req('POST', `/api/webhooks/${hook}/test`, alice.key)).status).toBe(202);
    expect((await req('GET', `/api/webhooks/${hook}/deliveries`, alice.key)).status).toBe(200);
    expect((await req('GET', '/api/webhooks', alice.key)).status).toBe(200);

    // --- Calendar: an OAuth client, a code (PKCE), tokens, a refused exchange, a refresh; a calendar and its webhook.
    const C = '/v1/calendar';
    const reg = await req('POST', `${C}/oauth/clients`, bob.key, {
      client_name: 'Scan app',
      redirect_uris: [REDIRECT],
    });
    expect(reg.status).toBe(201);
    const clientId = reg.body.client_id as string;
    const clientSecret = know(reg.body.client_secret, 'OAuth client secret');
    issuedBy(reg, clientSecret);
    const challenges = new Set<string>();
    const pkce = () => {
      const verifier = know(randomBytes(32).toString('base64url'), 'PKCE verifier');
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      challenges.add(challenge);
      return { verifier, challenge };
    };
    const codeFor = async (challenge: string) => {
      const q = new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: REDIRECT,
        scope: 'calendar:read',
        state: 'xyz',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      });
      const r = await req('GET', `${C}/oauth/authorize?${q}`, bob.key);
      expect(r.status).toBe(302);
      const code = know(new URL(r.headers.get('location')!).searchParams.get('code')!, 'OAuth authorization code');
      issuedBy(r, code);
      return code;
    };
    const tokenCall = async (form: Record<string, string>) => {
      const r = await call(`${api.url}${C}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form).toString(),
      });
      record(`POST ${C}/oauth/token (${form.grant_type})`, r);
      return r;
    };
    const refused = await tokenCall({
      grant_type: 'authorization_code',
      code: await codeFor(pkce().challenge),
      redirect_uri: REDIRECT,
      client_id: clientId,
      client_secret: clientSecret,
      code_verifier: pkce().verifier, // not the one of the challenge
    });
    expect(refused.status).toBe(400);
    // A client secret the form refuses (too long) is not echoed either.
    const secretTooLong = know(`${clientSecret}${'q'.repeat(200)}`, 'OAuth client secret (refused, too long)');
    expect(
      (await tokenCall({ grant_type: 'refresh_token', client_id: clientId, client_secret: secretTooLong })).status,
    ).toBe(400);
    const p = pkce();
    const granted = await tokenCall({
      grant_type: 'authorization_code',
      code: await codeFor(p.challenge),
      redirect_uri: REDIRECT,
      client_id: clientId,
      client_secret: clientSecret,
      code_verifier: p.verifier,
    });
    expect(granted.status).toBe(200);
    const access = know(granted.body.access_token, 'OAuth access token');
    issuedBy(granted, access, know(granted.body.refresh_token, 'OAuth refresh token'));
    const refreshed = await tokenCall({
      grant_type: 'refresh_token',
      refresh_token: granted.body.refresh_token,
      client_id: clientId,
      client_secret: clientSecret,
    });
    expect(refreshed.status).toBe(200);
    issuedBy(
      refreshed,
      know(refreshed.body.access_token, 'OAuth access token (refreshed)'),
      know(refreshed.body.refresh_token, 'OAuth refresh token (rotated)'),
    );
    const calendar = await req('POST', `${C}/calendars`, bob.key, { name: 'Scan calendar' });
    expect(calendar.status).toBe(201);
    expect((await req('GET', `${C}/calendars/${calendar.body.id}`, refreshed.body.access_token)).status).toBe(200);
    expect((await req('POST', `${C}/calendars`, refreshed.body.access_token, { name: 'no scope' })).status).toBe(403);
    const calHook = await req('POST', `${C}/webhooks`, bob.key, {
      url: 'http://127.0.0.1:9/cal',
      events: ['event.created'],
    });
    expect(calHook.status).toBe(201);
    issuedBy(calHook, know(calHook.body.secret, 'calendar webhook secret'));
    const calTooLong = know(
      `refused-${randomBytes(16).toString('hex')}-${'z'.repeat(280)}`,
      'calendar webhook secret (refused)',
    );
    expect(
      (
        await req('POST', `${C}/webhooks`, bob.key, {
          url: 'http://127.0.0.1:9/cal',
          events: ['event.created'],
          secret: calTooLong,
        })
      ).status,
    ).toBe(400);
    const event = await req('POST', `${C}/calendars/${calendar.body.id}/events`, bob.key, {
      title: 'Launch post',
      content_type: 'social_post',
      platform: 'profnet',
      scheduled_at: new Date(Date.now() + 48 * 3600_000).toISOString(),
      content: { caption: 'Coming soon', hashtags: ['launch'] },
    });
    expect(event.status).toBe(201); // its event.created payload is among those scanned

    // --- SEO: a Search Console refresh token (stored encrypted), its status, a token the route refuses; an import.
    const refreshToken = know(`1//0g${randomBytes(48).toString('base64url')}`, 'Search Console refresh token');
    const sc = await req('PUT', '/api/seo-dashboard/search-console', carol.key, {
      refresh_token: refreshToken,
      site_url: 'sc-domain:example.com',
    });
    expect(sc.status).toBe(200);
    // The status shows its owner a fingerprint of the stored token (which one is connected): the only place it may be.
    const shown = sc.body.data.token_fingerprint as string;
    issuedBy(sc, shown);
    issuedBy(await req('GET', '/api/seo-dashboard/search-console', carol.key), shown);
    const badToken = know(`1//0g${randomBytes(24).toString('base64url')} with a space`, 'refused Search Console token');
    expect((await req('PUT', '/api/seo-dashboard/search-console', carol.key, { refresh_token: badToken })).status).toBe(
      400,
    );
    await req('POST', '/api/seo-dashboard/performance/import', carol.key, {
      domain: 'example.com',
      rows: [{ date: '2026-01-05', page: '/a', query: 'compost', clicks: 3, impressions: 40, position: 4.2 }],
    });

    // --- Site builder: authorization URL (state), the owner's consent, the callback (code exchanged; tokens at rest).
    const url = await req('GET', '/api/sitebuilder/auth/url', carol.key);
    expect(url.status).toBe(200);
    issuedBy(url, know(url.body.data.state, 'site-builder state'));
    const consent = await builder.authorize(url.body.data.authorization_url);
    know(consent.code, 'site-builder authorization code');
    const connected = await req('POST', '/api/sitebuilder/auth/callback', carol.key, consent);
    expect(connected.status).toBe(200);
    expect((await req('GET', '/api/sitebuilder/connection', carol.key)).body.data).toMatchObject({ connected: true });
    const { issued } = await builder.state();
    for (const t of [...issued.access, ...issued.refresh]) know(t, 'site-builder token');

    // --- Pure analysis and the plan catalogue.
    await req('POST', '/api/blog/seo/analyze', alice.key, {
      content: '# Compost\n\nCompost feeds the soil. Turn the heap every week.',
      keywords: ['compost'],
    });
    await req('GET', '/api/subscription/plans', alice.key);

    // --- The sweep: every registered route, with a credential of its family; bodies carry secrets in fields a
    // client could name so, each too long or malformed to be accepted, so a route that echoes what it refuses shows.
    const sweep = await api.user('enterprise');
    know(sweep.key, 'API key (sweep)');
    const sweepSession = await req('POST', '/api/settings/sessions', sweep.key);
    issuedBy(sweepSession, know(sweepSession.body.data.token, 'session token (sweep)'));
    const planted = know(`pl4nted${randomBytes(16).toString('hex')}`, 'planted in refused bodies');
    const bad = `${planted} ${'y'.repeat(3000)}`;
    const body = {
      secret: bad,
      token: bad,
      refresh_token: bad,
      access_token: bad,
      password: bad,
      api_key: bad,
      client_secret: bad,
      code_verifier: bad,
      notification_secret: bad,
      options: { notification_secret: bad },
    };
    let swept = 0;
    for (const r of sweeper.app.routes) {
      const credential = familyOf(r.path) === 'outreach' ? sweepSession.body.data.token : sweep.key;
      const p = r.path.replace(/\{[^}]+\}/g, 'AAAAAAAAAAAA');
      const res = await req(
        r.method.toUpperCase(),
        p,
        credential,
        ['post', 'put', 'patch'].includes(r.method) ? body : undefined,
        sweeper,
      );
      // A route that makes a credential (a session, a webhook's secret) shows it here, once: known from now on.
      if (res.status < 300)
        for (const m of responses[responses.length - 1].text.matchAll(CREDENTIAL_TEXT))
          if (!secrets.has(m[0])) issuedBy(res, know(m[0], `issued by the sweep's ${r.method} ${r.path}`));
      swept++;
    }
    expect(swept).toBeGreaterThan(150);

    // --- Everything written: the real export and tail, and the webhook payload every stored event makes.
    const stored = (await schema.db('es_events').select(schema.db.raw('data::text as d, metadata::text as m'))) as {
      d: string;
      m: string;
    }[];
    const exported = exportAll(schema);
    expect(exported.trim().split('\n')).toHaveLength(stored.length);
    const tailed = await tailAll(schema, stored.length);
    expect(tailed.code).toBe(0);
    expect(tailed.out.trim().split('\n').length).toBeGreaterThanOrEqual(stored.length);
    const tasks = new Map<string, { task_type: string; user_id: string }>();
    const payloads: string[] = [];
    const all: SourceEvent[] = [];
    for (let cp = START; ;) {
      const page = await api.store.readAll(cp, 1000);
      if (!page.length) break;
      all.push(...(page as unknown as SourceEvent[]));
      cp = checkpointOf(page[page.length - 1]);
    }
    for (const e of all) if (e.type === 'TaskStarted') tasks.set(e.data.task_id, e.data);
    for (const e of all) {
      const ctx: SourceContext = e.type === 'TaskCompleted' ? { task: tasks.get(e.data.task_id) } : {};
      for (const m of webhookMessagesFor(e, ctx)?.messages ?? [])
        payloads.push(JSON.stringify(buildPayload(m, 'scan', e.recordedAt)));
      if (e.type === 'WebhookDeliveryRequested' || e.type === 'WebhookDeliveryScheduled')
        payloads.push(JSON.stringify(e.data.payload));
    }
    expect(payloads.some((x) => x.includes('"user_action"'))).toBe(true); // the Search Console connection's
    expect(payloads.some((x) => x.includes('"webhook.test"'))).toBe(true); // the ping's
    expect(payloads.some((x) => x.includes('"event.created"'))).toBe(true); // the calendar event's

    // --- What to look for.
    const hashes = new Set<string>();
    for (const r of stored)
      for (const text of [r.d, r.m])
        for (const m of text.matchAll(/[0-9a-f]{64}|sha256:[0-9a-f]{16}/g)) hashes.add(m[0]);
    const fromEvents = hashes.size;
    for (const t of secrets.keys()) hashes.add(sha256(t));
    for (const c of challenges) hashes.add(c);
    const blobs = new Set<string>();
    for (const table of ['webhook_secrets', 'sitebuilder_tokens', 'integration_credentials'])
      for (const row of (await schema.db(table).select('ciphertext')) as { ciphertext: Buffer }[]) {
        blobs.add(row.ciphertext.toString('hex'));
        blobs.add(row.ciphertext.toString('base64'));
      }
    // Enough was made for the scan to mean something: every kind of stored hash, every table of secrets at rest.
    expect(fromEvents).toBeGreaterThanOrEqual(20);
    expect(blobs.size).toBeGreaterThanOrEqual(2 * 5); // 3 webhook secrets, a Search Console token, a connection
    expect(logs.text().length).toBeGreaterThan(10000);

    const haystacks: { where: string; text: string; issued: Set<string> }[] = [
      { where: 'export', text: exported, issued: new Set() },
      { where: 'tail', text: tailed.out, issued: new Set() },
      { where: 'logs', text: logs.text(), issued: new Set() },
      ...payloads.map((text, i) => ({ where: `webhook payload ${i}`, text, issued: new Set<string>() })),
      ...responses.map((r) => ({ where: `response ${r.what}`, text: r.text, issued: r.issued })),
    ];
    const hits: string[] = [];
    for (const h of haystacks) {
      for (const [t, what] of secrets) if (!h.issued.has(t) && h.text.includes(t)) hits.push(`${h.where}: ${what}`);
      for (const x of hashes) if (!h.issued.has(x) && h.text.includes(x)) hits.push(`${h.where}: hash ${x}`);
      for (const b of blobs) if (h.text.includes(b)) hits.push(`${h.where}: encrypted blob`);
      for (const m of h.text.matchAll(CREDENTIAL_TEXT))
        if (!h.issued.has(m[0])) hits.push(`${h.where}: credential text ${m[0].slice(0, 12)}…`);
      if (!h.where.startsWith('response'))
        for (const m of h.text.matchAll(HASH_FIELD)) hits.push(`${h.where}: ${m[0]}…`);
    }
    const bytes = haystacks.reduce((n, h) => n + h.text.length, 0);
    console.log(
      `secret scan: ${secrets.size} secret texts, ${hashes.size} hashes and fingerprints (${fromEvents} stored in ` +
        `${stored.length} events), ${blobs.size / 2} encrypted blobs, credential and hash-field patterns; over the ` +
        `export (${exported.length} chars), the tail (${tailed.out.length}), the logs (${logs.text().length}), ` +
        `${payloads.length} webhook payloads and ${responses.length} responses (${swept} routes swept): ` +
        `${bytes} chars, ${hits.length} hits`,
    );
    expect(hits).toEqual([]);
    // Exported events keep every field; only the secret-derived values are replaced.
    const keyCreated = exported
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .find((e) => e.type === 'ApiKeyCreated' && e.data.key_id === alice.keyId);
    expect(keyCreated.data).toEqual({
      key_id: alice.keyId,
      user_id: alice.userId,
      name: 'test',
      environment: 'production',
      prefix: alice.keyId,
      key_hash: '[redacted]',
    });
  });
});
