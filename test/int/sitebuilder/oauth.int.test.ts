/**
 * The site-builder connection end to end on loopback: a real OAuth server
 * (node-oidc-provider, PKCE required, refresh-token rotation, revocation) and
 * the builder's content API. Covers the authorization URL, the callback
 * (state mismatch, reused state, expired state, expired code), connection
 * status, a refreshed token, a connection revoked at the builder, disconnect
 * with revocation, auth and owner checks — and that no token ever appears in
 * a response, a log line or an event.
 */
import { startTestApi, TestApi, bearer } from '../../support/api';
import { isolatedSchema, IsolatedSchema } from '../../support/schema';
import { testTemporal } from '../../support/env';
import { call, JsonResponse } from '../../support/http';
import { taskStatusProjection } from '../../../projections/task-status';
import { sitebuilderConnectionsProjection } from '../../../projections/sitebuilder-connections';
import { FakeBuilder, startFakeBuilder } from '../../support/sitebuilder/fake-builder';
import { hashProjection, replay, replayTables } from '../../../projections/replay';
import { waitForProjection } from '../../../projections/consistency';
import { sitebuilderStream } from '../../../domain/events/sitebuilder';
import {
  apiSitebuilder,
  capturedLogger,
  sitebuilderEnv,
  startSitebuilderWorker,
} from '../../support/sitebuilder/setup';

jest.setTimeout(180000);

const RATES = { rate: { overrides: { '*': { general: { minute: 10000, day: 100000 }, status: { minute: 10000 } } } } };
const ACCESS_TTL_SECONDS = 12;
const REFRESH_MARGIN_SECONDS = 6;

describe('site builder connection (OAuth on loopback)', () => {
  let builder: FakeBuilder;
  let schema: IsolatedSchema;
  let api: TestApi;
  let worker: Awaited<ReturnType<typeof startSitebuilderWorker>>;
  let temporal: Awaited<ReturnType<typeof testTemporal>>;
  let alice: { userId: string; key: string };
  let bob: { userId: string; key: string };
  let shiftMs = 0;
  const logs = capturedLogger();
  const responses: string[] = [];

  const req = async (path: string, key: string | undefined, init: RequestInit & { json?: unknown } = {}) => {
    const r = await call(`${api.url}${path}`, { ...init, headers: key ? bearer(key) : {} });
    responses.push(JSON.stringify(r.body), JSON.stringify([...r.headers]));
    return r;
  };
  const authUrl = (key: string) => req('/api/sitebuilder/auth/url', key);
  const callback = (key: string, json: unknown) => req('/api/sitebuilder/auth/callback', key, { method: 'POST', json });
  const status = async (key: string) => (await req('/api/sitebuilder/connection', key)).body.data;
  const connect = async (key: string): Promise<JsonResponse> => {
    const u = await authUrl(key);
    const { code, state } = await builder.authorize(u.body.data.authorization_url);
    return callback(key, { code, state });
  };

  beforeAll(async () => {
    // Access tokens live 12 s at this builder and are refreshed when 6 s or less are left, so a refresh happens within
    // the test, and a token the platform takes for fresh has 6 s left for its call, room for a loaded machine.
    // Codes live 60 s (time to complete an authorization on any machine); the test of an expired code makes the
    // builder issue one that lives 1 s.
    builder = await startFakeBuilder({ accessTtlSeconds: ACCESS_TTL_SECONDS });
    const env = sitebuilderEnv(builder, { SITEBUILDER_REFRESH_MARGIN_SECONDS: String(REFRESH_MARGIN_SECONDS) });
    temporal = await testTemporal();
    schema = await isolatedSchema();
    worker = await startSitebuilderWorker(schema.db, env, logs.logger);
    api = await startTestApi({
      schema,
      projections: [taskStatusProjection, sitebuilderConnectionsProjection],
      settings: RATES,
      logger: logs.logger,
      deps: {
        workflows: { client: async () => temporal.client, taskQueue: worker.taskQueue },
        sitebuilder: apiSitebuilder(env),
        now: () => new Date(Date.now() + shiftMs),
      },
    });
    alice = await api.user('free');
    bob = await api.user('free');
  });

  afterAll(async () => {
    await worker?.stop();
    await api?.stop();
    await temporal?.connection.close();
    await schema?.drop();
    await builder?.stop();
  });

  it('every route refuses a caller without a credential', async () => {
    for (const [method, path] of [
      ['GET', '/api/sitebuilder/auth/url'],
      ['POST', '/api/sitebuilder/auth/callback'],
      ['GET', '/api/sitebuilder/connection'],
      ['POST', '/api/sitebuilder/disconnect'],
      ['POST', '/api/sitebuilder/publish'],
      ['GET', '/api/sitebuilder/publish/sitebuilder-publish-00000000-0000-4000-8000-000000000000'],
    ]) {
      const r = await req(path, undefined, { method, ...(method === 'POST' ? { json: {} } : {}) });
      expect([path, r.status, r.body.error?.code]).toEqual([path, 401, 'INVALID_API_KEY']);
    }
  });

  it('authorization URL: state, PKCE S256 challenge, redirect, scopes and expiry', async () => {
    expect(await status(alice.key)).toMatchObject({ connected: false, status: 'not_connected', site: null });
    const r = await authUrl(alice.key);
    expect(r.status).toBe(200);
    const d = r.body.data;
    const u = new URL(d.authorization_url);
    expect(`${u.origin}${u.pathname}`).toBe(`${builder.oauthUrl}/auth`);
    expect(Object.fromEntries(u.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: 'platform-client',
      redirect_uri: d.redirect_uri,
      state: d.state,
      code_challenge: d.code_challenge,
      code_challenge_method: 'S256',
      scope: 'offline_access blog.manage',
    });
    expect(d.state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(d.expires_at) - Date.now()).toBeGreaterThan(500 * 1000);
    expect((await status(alice.key)).pending_authorization_expires_at).toBe(d.expires_at);
  });

  it('connects end to end; the state is single use and mismatches are refused', async () => {
    const u = await authUrl(alice.key);
    const { code, state } = await builder.authorize(u.body.data.authorization_url);
    expect(state).toBe(u.body.data.state);
    // Bob cannot complete Alice's authorization: her state is not one of his.
    const stolen = await callback(bob.key, { code, state });
    expect(stolen.status).toBe(400);
    expect(stolen.body.error).toMatchObject({ code: 'INVALID_REQUEST', details: { parameter: 'state' } });
    expect(stolen.body.error.message).toMatch(/state mismatch/);
    const mismatch = await callback(alice.key, { code, state: 'not-the-state' });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error.message).toMatch(/state mismatch/);
    // A mismatch consumes nothing: the right state still works.
    const ok = await callback(alice.key, { code, state });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({
      connected: true,
      status: 'connected',
      connection_id: expect.any(String),
      site: { name: 'Site Owner Blog', url: 'https://site-owner.example' },
      scopes: expect.arrayContaining(['blog.manage']),
    });
    const again = await callback(alice.key, { code, state });
    expect(again.status).toBe(400);
    expect(again.body.error.message).toMatch(/already used/);
    expect(await status(alice.key)).toMatchObject({
      connected: true,
      status: 'connected',
      connection_id: ok.body.data.connection_id,
      site: { name: 'Site Owner Blog' },
    });
    expect(await status(bob.key)).toMatchObject({ connected: false, status: 'not_connected' });
  });

  it('refuses an expired state, and an authorization code the builder let expire', async () => {
    const u = await authUrl(bob.key);
    const { code, state } = await builder.authorize(u.body.data.authorization_url);
    shiftMs = 11 * 60 * 1000; // past SITEBUILDER_STATE_TTL_SECONDS (600 s)
    try {
      const late = await callback(bob.key, { code, state });
      expect(late.status).toBe(400);
      expect(late.body.error.message).toMatch(/expired/);
    } finally {
      shiftMs = 0;
    }
    const u2 = await authUrl(bob.key);
    await builder.behaviour({ codeTtlSeconds: 1 });
    let second: Awaited<ReturnType<FakeBuilder['authorize']>>;
    try {
      second = await builder.authorize(u2.body.data.authorization_url);
    } finally {
      await builder.behaviour({ codeTtlSeconds: 60 });
    }
    await new Promise((r) => setTimeout(r, 2500)); // this code lived 1 s
    const expired = await callback(bob.key, second);
    expect(expired.status).toBe(400);
    expect(expired.body.error.code).toBe('INVALID_REQUEST');
    expect(expired.body.error.message).toMatch(
      /refused the authorization code: it is invalid, expired or already used/,
    );
    expect(await status(bob.key)).toMatchObject({ connected: false });
    // Without a state the newest authorization in progress is completed (PKCE binds the code to it).
    const u3 = await authUrl(bob.key);
    const third = await builder.authorize(u3.body.data.authorization_url);
    const noState = await callback(bob.key, { code: third.code });
    expect(noState.status).toBe(200);
    expect(noState.body.data.connected).toBe(true);
  });

  it('refreshes the access token before it expires, and uses the new one', async () => {
    const before = await status(alice.key);
    const issued = (await builder.state()).issued.access.length;
    // Alice's token is at least this old now, so 6 s or less of its 12 s are left: due for refresh.
    await new Promise((r) => setTimeout(r, (ACCESS_TTL_SECONDS - REFRESH_MARGIN_SECONDS) * 1000 + 500));
    const p = await req('/api/sitebuilder/publish?wait_seconds=30', alice.key, {
      method: 'POST',
      json: { title: 'Refreshed token post', content: 'Some **content** here.' },
    });
    expect(p.status).toBe(200);
    expect(p.body.data.status).toBe('completed');
    const after = await status(alice.key);
    expect(after.last_refreshed_at).not.toBeNull();
    expect(Date.parse(after.access_token_expires_at)).toBeGreaterThan(Date.parse(before.access_token_expires_at));
    const s = await builder.state();
    expect(s.issued.access.length).toBeGreaterThan(issued);
    // Every content call succeeded with a live token: no 401 reached the platform.
    expect(s.requests.filter((r) => r.status === 401)).toEqual([]);
  });

  it('a connection revoked at the builder: publishing fails clearly and the status says revoked', async () => {
    await builder.revokeAll();
    const p = await req('/api/sitebuilder/publish?wait_seconds=30', alice.key, {
      method: 'POST',
      json: { title: 'After revocation', content: 'Text.' },
    });
    expect(p.status).toBe(200);
    expect(p.body.data.status).toBe('failed');
    expect(p.body.data.error.code).toBe('VENDOR_REQUEST_REJECTED');
    expect(p.body.data.error.message).toMatch(/connect the site again/);
    expect(await status(alice.key)).toMatchObject({
      connected: false,
      status: 'revoked',
      disconnect_reason: 'revoked_by_builder',
    });
    expect(await schema.db('sitebuilder_tokens').where({ user_id: alice.userId })).toHaveLength(0);
    const again = await req('/api/sitebuilder/publish', alice.key, {
      method: 'POST',
      json: { title: 'x', content: 'y' },
    });
    expect(again.status).toBe(409);
  });

  it('disconnect revokes the tokens at the builder and forgets them; a second disconnect is 404', async () => {
    expect((await connect(alice.key)).status).toBe(200);
    const s = await builder.state();
    const lastAccess = s.issued.access[s.issued.access.length - 1];
    const usable = await fetch(`${builder.apiUrl}/site-properties/v4/properties`, {
      headers: { authorization: `Bearer ${lastAccess}` },
    });
    expect(usable.status).toBe(200);
    const d = await req('/api/sitebuilder/disconnect', alice.key, { method: 'POST' });
    expect(d.status).toBe(200);
    expect(d.body.data).toMatchObject({
      connected: false,
      status: 'disconnected',
      revoked_at_builder: true,
      revocation_error: null,
    });
    const dead = await fetch(`${builder.apiUrl}/site-properties/v4/properties`, {
      headers: { authorization: `Bearer ${lastAccess}` },
    });
    expect(dead.status).toBe(401);
    expect(await status(alice.key)).toMatchObject({
      status: 'disconnected',
      disconnect_reason: 'user_request',
      revoked_at_builder: true,
    });
    expect(await schema.db('sitebuilder_tokens').where({ user_id: alice.userId })).toHaveLength(0);
    expect((await req('/api/sitebuilder/disconnect', alice.key, { method: 'POST' })).status).toBe(404);
    // Bob's connection is untouched by Alice's disconnect.
    expect(await status(bob.key)).toMatchObject({ connected: true });
  });

  it('no token appears in any response, log line or event, and tokens are stored encrypted', async () => {
    const { issued } = await builder.state();
    const tokens = [...issued.access, ...issued.refresh];
    expect(tokens.length).toBeGreaterThan(4);
    const logText = logs.text();
    expect(logText.length).toBeGreaterThan(1000); // the captured logs hold the requests (the grep below means something)
    const events = (await schema.db('es_events').select(schema.db.raw('data::text as d, metadata::text as m'))).map(
      (r: { d: string; m: string }) => r.d + r.m,
    );
    const rows = (await schema.db('sitebuilder_tokens')).map((r: { ciphertext: Buffer }) =>
      r.ciphertext.toString('latin1'),
    );
    expect(rows.length).toBe(1); // Bob's connection
    const haystacks = {
      logs: logText,
      responses: responses.join('\n'),
      events: events.join('\n'),
      stored: rows.join('\n'),
    };
    for (const t of tokens)
      for (const [where, text] of Object.entries(haystacks)) expect([where, text.includes(t)]).toEqual([where, false]);
  });

  it('the connection projection rebuilt from the events equals the live one', async () => {
    const streams = [sitebuilderStream(alice.userId), sitebuilderStream(bob.userId)];
    for (const [streamId, version] of await api.store.streamVersions(streams))
      expect(
        await waitForProjection(
          schema.db,
          'sitebuilder-connections',
          { streamId, streamPosition: version },
          { timeoutMs: 20000 },
        ),
      ).toBe(true);
    const live = await hashProjection(schema.db, sitebuilderConnectionsProjection);
    await replay(schema.db, api.store, sitebuilderConnectionsProjection, { swap: false });
    expect(
      await hashProjection(schema.db, sitebuilderConnectionsProjection, replayTables(sitebuilderConnectionsProjection)),
    ).toEqual(live);
    expect(live.sitebuilder_connections).toMatch(/^2:/);
  });
});
