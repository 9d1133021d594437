/**
 * Identity through the HTTP API: key lifecycle (create, use, list, revoke,
 * rotate with grace), two users' isolation, session tokens, the user_id path
 * rule, a fresh key working before the projection applied it, a revocation or
 * plan change taking effect while the projection is behind, and keys never
 * reaching the logs.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { REDACT_PATHS } from '../../../infra/logger';
import { changePlan, createApiKey, createUser, revokeApiKey } from '../../../api/identity/commands';
import type { RecordedEvent } from '../../../infra/eventstore/port';
import { identityProjection } from '../../../projections/identity';
import { applyEvents } from '../../../projections/runner';
import { resolveCredential } from '../../../api/identity/lookup';
import { defineRoute } from '../../../api/kernel/registry';
import { call } from '../../support/http';
import { bearer, startTestApi, TestApi } from '../../support/api';
import { waitFor } from '../../support/wait';

const logLines: string[] = [];
const sink = new Writable({
  write(chunk, _enc, cb) {
    logLines.push(String(chunk));
    cb();
  },
});

const usageRoute = defineRoute<unknown, unknown, { user_id: string }>({
  method: 'get',
  path: '/api/subscription/probe/owner/{user_id}',
  auth: 'user',
  ownerParam: 'user_id',
  summary: 'test: owner rule',
  request: { params: { type: 'object', properties: { user_id: { type: 'string' } }, required: ['user_id'] } },
  responses: { 200: { description: 'ok', data: { type: 'object' } } },
  handler: (ctx) => ({ data: { user_id: ctx.params.user_id } }),
});

const outreachRoute = defineRoute({
  method: 'get',
  path: '/api/v1/backlink-outreach/probe/whoami',
  auth: 'user',
  summary: 'test: who is calling (session)',
  responses: { 200: { description: 'ok', data: { type: 'object' } } },
  handler: (ctx) => ({ data: { user_id: ctx.caller!.userId } }),
});

/**
 * The rotation grace period of these tests: the old key's checks "within grace" (four requests) must be answered
 * before it ends, on a loaded machine too, and the test then waits it out.
 */
const GRACE_SECONDS = 6;

describe('identity and API keys', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi({
      settings: { rotationGraceSeconds: GRACE_SECONDS },
      extraRoutes: [usageRoute, outreachRoute],
      logger: pino({ level: 'info', redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, sink),
    });
  });
  afterAll(async () => {
    await api?.stop();
  });

  const get = (path: string, key?: string) => call(`${api.url}${path}`, { headers: key ? bearer(key) : {} });
  const send = (method: string, path: string, key: string, json?: unknown) =>
    call(`${api.url}${path}`, { method, headers: bearer(key), json: json ?? {} });

  it('key lifecycle: create (shown once), use, list with last use, revoke (then 401)', async () => {
    const alice = await api.user('free');
    const created = await send('POST', '/api/settings/api-keys', alice.key, {
      name: 'my app',
      environment: 'production',
    });
    expect(created.status).toBe(201);
    expect(created.body.success).toBe(true);
    const k = created.body.data;
    expect(k.key).toMatch(/^cp_live_[A-Za-z0-9]{12}_[A-Za-z0-9_-]{43}$/);
    expect(k.key).toContain(`_${k.prefix}_`);

    const me = await get('/v1/me', k.key);
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({
      user_id: alice.userId,
      credential: { kind: 'api_key', id: k.key_id, environment: 'production' },
    });

    const list = await get('/api/settings/api-keys', alice.key);
    expect(list.status).toBe(200);
    const listed = list.body.data.find((x: { key_id: string }) => x.key_id === k.key_id);
    expect(listed).toMatchObject({ prefix: k.prefix, name: 'my app', environment: 'production', status: 'active' });
    expect(Date.parse(listed.last_used_at)).toBeGreaterThan(Date.now() - 60000);
    expect(JSON.stringify(list.body)).not.toContain(k.key); // never shown again

    const tested = await send('POST', `/api/settings/api-keys/${k.key_id}/test`, alice.key);
    expect(tested.status).toBe(200);
    expect(tested.body.data.health.status).toBe('ok');

    const renamed = await send('PATCH', `/api/settings/api-keys/${k.key_id}`, alice.key, { name: 'renamed' });
    expect(renamed.body.data.name).toBe('renamed');

    const revoked = await send('DELETE', `/api/settings/api-keys/${k.key_id}`, alice.key);
    expect(revoked.status).toBe(200);
    const after = await get('/v1/me', k.key);
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('INVALID_API_KEY');
    expect((await get(`/api/settings/api-keys/${k.key_id}`, alice.key)).status).toBe(404);
  });

  it('rotation: the old key works during the grace period and is refused after it', async () => {
    const bob = await api.user('free');
    const rotated = await send('POST', `/api/settings/api-keys/${bob.keyId}/rotate`, bob.key);
    expect(rotated.status).toBe(201);
    const fresh = rotated.body.data;
    expect(fresh.rotated_from).toBe(bob.keyId);
    expect(Date.parse(fresh.grace_until) - Date.now()).toBeLessThanOrEqual(GRACE_SECONDS * 1000);
    expect((await get('/v1/me', bob.key)).status).toBe(200); // old key, within grace
    expect((await get('/v1/me', fresh.key)).status).toBe(200);
    const list = await get('/api/settings/api-keys', fresh.key);
    expect(list.body.data.find((x: { key_id: string }) => x.key_id === bob.keyId)).toMatchObject({
      status: 'grace',
      expires_at: fresh.grace_until,
    });
    expect((await send('POST', `/api/settings/api-keys/${bob.keyId}/rotate`, fresh.key)).status).toBe(409);
    await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(fresh.grace_until) - Date.now()) + 300));
    expect((await get('/v1/me', bob.key)).status).toBe(401);
    expect((await get('/v1/me', fresh.key)).status).toBe(200);
  });

  it('two users: a key of one is "not found" to the other for read, update, rotate and delete', async () => {
    const a = await api.user('pro');
    const b = await api.user('pro');
    const paths: [string, string, unknown?][] = [
      ['GET', `/api/settings/api-keys/${a.keyId}`],
      ['PATCH', `/api/settings/api-keys/${a.keyId}`, { name: 'stolen' }],
      ['POST', `/api/settings/api-keys/${a.keyId}/rotate`],
      ['POST', `/api/settings/api-keys/${a.keyId}/test`],
      ['DELETE', `/api/settings/api-keys/${a.keyId}`],
    ];
    for (const [method, path, json] of paths) {
      const r = method === 'GET' ? await get(path, b.key) : await send(method, path, b.key, json);
      expect([method, path, r.status, r.body.error?.code]).toEqual([method, path, 404, 'NOT_FOUND']);
    }
    const listB = await get('/api/settings/api-keys', b.key);
    expect(listB.body.data.map((k: { key_id: string }) => k.key_id)).toEqual([b.keyId]);
    expect((await get(`/api/settings/api-keys/${a.keyId}`, a.key)).body.data.name).toBe('test'); // untouched
  });

  it('a path user_id must be the caller (404 otherwise) unless the caller is an administrator', async () => {
    const a = await api.user('free');
    const b = await api.user('free');
    const admin = await api.user('free', { role: 'admin' });
    expect((await get(`/api/subscription/probe/owner/${a.userId}`, a.key)).status).toBe(200);
    const other = await get(`/api/subscription/probe/owner/${a.userId}`, b.key);
    expect(other.status).toBe(404);
    expect(other.body).toMatchObject({ success: false, error: 'NotFoundError', user_id: b.userId });
    expect((await get(`/api/subscription/probe/owner/${a.userId}`, admin.key)).status).toBe(200);
  });

  it('session tokens: made with an API key, accepted by the outreach and image studio families only, ended on request', async () => {
    const a = await api.user('free');
    const s = await send('POST', '/api/settings/sessions', a.key);
    expect(s.status).toBe(201);
    expect(s.body.data.token).toMatch(/^cps_/);
    const ok = await get('/api/v1/backlink-outreach/probe/whoami', s.body.data.token);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ user_id: a.userId });
    expect((await get('/api/v1/backlink-outreach/probe/whoami', a.key)).body).toEqual({ detail: 'Not authenticated' });
    expect((await get('/v1/me', s.body.data.token)).status).toBe(401);
    expect((await get('/api/settings/api-keys', s.body.data.token)).status).toBe(401);
    // The image studio's ACCESS_TOKEN (Document 2) may be a session token too.
    expect((await get('/api/image-studio/templates', s.body.data.token)).status).toBe(200);
    expect((await send('DELETE', `/api/settings/sessions/${s.body.data.session_id}`, a.key)).status).toBe(200);
    expect((await get('/api/v1/backlink-outreach/probe/whoami', s.body.data.token)).status).toBe(401);
  });

  it('a fresh key authenticates before the projection applied it (read from its stream)', async () => {
    const d = { db: api.schema.db, store: api.store };
    const u = await createUser(d, { plan: 'basic' });
    const k = await createApiKey(d, u.value.user_id, { name: 'x', environment: 'development' });
    const r = await get('/v1/me', k.value.key);
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      user_id: u.value.user_id,
      plan: { name: 'Basic' },
      credential: { environment: 'development' },
    });
  });

  it('refuses malformed, unknown and wrong-kind credentials with 401', async () => {
    const a = await api.user('free');
    const forged = a.key.slice(0, -4) + 'AAAA';
    for (const h of [
      `Bearer ${forged}`,
      'Bearer nonsense',
      `Basic ${a.key}`,
      `Bearer cp_live_AAAAAAAAAAAA_${'A'.repeat(43)}`,
    ]) {
      const r = await call(`${api.url}/v1/me`, { headers: { authorization: h } });
      expect([h.slice(0, 12), r.status]).toEqual([h.slice(0, 12), 401]);
      expect(r.headers.get('www-authenticate')).toBe('Bearer');
    }
    // the user comes from the credential only: user fields in body/query/headers are ignored
    const r = await call(`${api.url}/v1/me?user_id=someone`, { headers: { ...bearer(a.key), 'x-user-id': 'someone' } });
    expect(r.body.data.user_id).toBe(a.userId);
  });

  it('logs carry request id, user id and latency, and never a key or token', async () => {
    const a = await api.user('free');
    const created = await send('POST', '/api/settings/api-keys', a.key, { name: 'log test' });
    const s = await send('POST', '/api/settings/sessions', created.body.data.key);
    await get('/v1/me', created.body.data.key);
    await get('/v1/me', created.body.data.key.slice(0, -1) + 'x');
    const text = logLines.join('');
    for (const secret of [a.key, created.body.data.key, s.body.data.token]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(secret.slice(21)); // the secret part
    }
    const lines = logLines
      .map((l) => JSON.parse(l))
      .filter((l) => l.req?.url === '/v1/me' && l.res?.statusCode === 200);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines[lines.length - 1]).toMatchObject({
      user_id: a.userId,
      req: { id: expect.any(String), method: 'GET', url: '/v1/me' },
      res: { statusCode: 200 },
    });
    expect(lines[lines.length - 1].req.headers).toBeUndefined(); // headers (credentials) are never logged
    expect(typeof lines[lines.length - 1].responseTime).toBe('number');
  });
});

/** How soon every API process sees an identity change (docs/api.md, "Credentials"). */
const NOTIFY_BOUND_MS = 1000;

describe('identity while the projection is behind (projector down)', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi({ pipeline: false }); // no relay, no projector: the projection moves only when the test applies events
  });
  afterAll(async () => {
    await api?.stop();
  });
  const me = (key: string) => call(`${api.url}/v1/me`, { headers: bearer(key) });
  /**
   * The API's cached credential is dropped when PostgreSQL delivers the identity notification of the append
   * (docs/api.md, "Credentials": within NOTIFY_BOUND_MS, typically a few ms): poll until `ok` holds.
   */
  const within = (check: () => Promise<boolean>) =>
    waitFor('the notification', check, NOTIFY_BOUND_MS, 5).then(
      () => true,
      () => false,
    );
  const project = (events: RecordedEvent[]) =>
    api.schema.db.transaction((t) => applyEvents(t, identityProjection, events));

  it('a key revoked in the event store is refused at once, though the projection still shows it live', async () => {
    const d = { db: api.schema.db, store: api.store };
    const u = await createUser(d, { plan: 'pro' });
    const k = await createApiKey(d, u.value.user_id, { name: 'x', environment: 'production' });
    await project([...u.events, ...k.events]);
    expect((await me(k.value.key)).status).toBe(200);

    await revokeApiKey(d, u.value.user_id, k.value.key_id);
    expect(await api.schema.db('api_keys').where({ key_id: k.value.key_id }).first('revoked_at')).toEqual({
      revoked_at: null,
    });
    expect(await within(async () => (await me(k.value.key)).status === 401)).toBe(true);
  });

  it('a revocation the projector applies while a lookup runs is not missed (row and watermark read in one snapshot)', async () => {
    const d = { db: api.schema.db, store: api.store };
    const u = await createUser(d, { plan: 'pro' });
    const k = await createApiKey(d, u.value.user_id, { name: 'x', environment: 'production' });
    await project([...u.events, ...k.events]);
    const revoked = await revokeApiKey(d, u.value.user_id, k.value.key_id);
    // The lookup's snapshot has the live row; the projector then applies the revocation before the lookup reads
    // the stream versions: a watermark read apart from the row would now say "applied" and vouch for the stale row.
    let applied = false;
    const store: typeof api.store = Object.create(api.store);
    store.streamVersions = async (ids: string[]) => {
      if (!applied) {
        applied = true;
        await project(revoked.events);
      }
      return api.store.streamVersions(ids);
    };
    expect(await resolveCredential(api.schema.db, store, k.value.key, ['api_key'])).toBeUndefined();
    expect(applied).toBe(true);
    expect(await api.schema.db('api_keys').where({ key_id: k.value.key_id }).first('revoked_at')).not.toEqual({
      revoked_at: null,
    });
  });

  it('a plan change in the event store applies at once, though the projection still shows the old plan', async () => {
    const d = { db: api.schema.db, store: api.store };
    const u = await createUser(d, { plan: 'free' });
    const k = await createApiKey(d, u.value.user_id, { name: 'x', environment: 'production' });
    await project([...u.events, ...k.events]);
    expect((await me(k.value.key)).body.data.plan).toMatchObject({ name: 'Free' });
    await changePlan(d, u.value.user_id, 'pro', { kind: 'operator', id: 'test' });
    expect(await within(async () => (await me(k.value.key)).body.data.plan?.name === 'Pro')).toBe(true);
  });
});
