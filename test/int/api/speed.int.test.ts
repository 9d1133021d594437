/**
 * The API without a PostgreSQL write per request (docs/api.md): credentials
 * cached per API process and dropped on identity changes in every process,
 * rate limits leased from the shared counters (never more than the limit
 * across processes), task records cached per process and dropped in every
 * process when the projection changes them, and conditional task status
 * answers (ETag → 304).
 *
 * "Processes" here are both: two apps in this process with their own cache
 * and limiter (what a process owns), and a real cluster of two API processes
 * (workers/api.ts with API_PROCESSES=2) reached over fresh connections, which
 * the cluster's primary hands out to its processes in turn.
 */
import http from 'node:http';
import pino from 'pino';
import { createApiKey, createUser, revokeApiKey } from '../../../api/identity/commands';
import { taskStream } from '../../../domain/events/tasks';
import { taskStatusProjection } from '../../../projections/task-status';
import { identityProjection } from '../../../projections/identity';
import { applyEvents } from '../../../projections/runner';
import type { RecordedEvent } from '../../../infra/eventstore';
import { createEventStore } from '../../../infra/eventstore';
import { call } from '../../support/http';
import { bearer, startTestApi, TestApi } from '../../support/api';
import { isolatedSchema, IsolatedSchema } from '../../support/schema';
import { Proc, startProcess } from '../../support/processes';
import { inOneWindow } from '../../support/clock';
import { waitFor } from '../../support/wait';

/**
 * How soon every API process sees an identity or task change (docs/api.md, "Credentials" and "Task status"): when
 * the notification arrives, milliseconds after the commit. The tests allow 5 s, room for a loaded 2-core machine, and
 * give the caches a TTL of CACHE_TTL_MS, so a change seen within the bound can only have come by notification.
 */
const NOTIFY_BOUND_MS = 5000;
const CACHE_TTL_MS = 60000;
/** Rate limiter overshoot across processes (docs/api.md, "Rate limits"): none. */
const OVERSHOOT = 0;

/** Polls until `check` holds; the ms it took, or undefined past `bound`. */
async function within(bound: number, check: () => Promise<boolean>): Promise<number | undefined> {
  const t0 = Date.now();
  return waitFor('the check', check, bound, 5).then(
    () => Date.now() - t0,
    () => undefined,
  );
}

const LIMIT = 100;
const silent = pino({ level: 'silent' });

describe('two API apps on one database (each with its own credential cache and rate-limit leases)', () => {
  let a: TestApi;
  let b: TestApi;
  beforeAll(async () => {
    const settings = {
      consistencyTimeoutMs: 0,
      rate: { developmentPercent: 50, overrides: { pro: { general: { minute: LIMIT, day: 100000 } } } },
    };
    const caches = { credentialCacheTtlMs: CACHE_TTL_MS, taskCacheTtlMs: CACHE_TTL_MS };
    a = await startTestApi({ pipeline: false, logger: silent, settings, ...caches });
    b = await startTestApi({ pipeline: false, logger: silent, settings, schema: a.schema, ...caches });
    await within(60000, async () => a.credentials.active && b.credentials.active && a.tasks.active && b.tasks.active);
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
  });

  async function projectedUser(api: TestApi) {
    const d = { store: api.store };
    const u = await createUser(d, { plan: 'pro' });
    const k = await createApiKey(d, u.value.user_id, { name: 'x', environment: 'production' });
    await api.schema.db.transaction((t) =>
      applyEvents(t, identityProjection, [...u.events, ...k.events] as RecordedEvent[]),
    );
    return { userId: u.value.user_id, key: k.value.key, keyId: k.value.key_id, d };
  }

  it('a revoked key is refused by every API process within the bound, with their caches hot and the projector down', async () => {
    expect(a.credentials.active && b.credentials.active).toBe(true);
    const u = await projectedUser(a);
    for (const api of [a, b])
      for (let i = 0; i < 3; i++) expect((await call(`${api.url}/v1/me`, { headers: bearer(u.key) })).status).toBe(200);
    const hits = [a.credentials.hits, b.credentials.hits];
    for (const api of [a, b]) expect((await call(`${api.url}/v1/me`, { headers: bearer(u.key) })).status).toBe(200);
    expect([a.credentials.hits, b.credentials.hits]).toEqual([hits[0] + 1, hits[1] + 1]); // answered from memory

    await revokeApiKey(u.d, u.userId, u.keyId); // the event store only: the projection still shows the key live
    const took = await Promise.all(
      [a, b].map((api) =>
        within(
          NOTIFY_BOUND_MS,
          async () => (await call(`${api.url}/v1/me`, { headers: bearer(u.key) })).status === 401,
        ),
      ),
    );
    expect(took.every((t) => t !== undefined)).toBe(true);
  });

  it('the process that appends an identity event forgets the credential before answering (no wait for NOTIFY)', async () => {
    const u = await projectedUser(a);
    for (let i = 0; i < 2; i++) expect((await call(`${a.url}/v1/me`, { headers: bearer(u.key) })).status).toBe(200);
    const cached = a.credentials.hits;
    expect((await call(`${a.url}/v1/me`, { headers: bearer(u.key) })).status).toBe(200);
    expect(a.credentials.hits).toBe(cached + 1);
    // NOTIFY silenced: only the commit hook of a's own store can drop the entry (the TTL is 60 s here).
    await a.schema.db.raw('ALTER TABLE es_events DISABLE TRIGGER es_events_notify_identity');
    try {
      await revokeApiKey({ store: a.store }, u.userId, u.keyId);
      expect((await call(`${a.url}/v1/me`, { headers: bearer(u.key) })).status).toBe(401);
    } finally {
      await a.schema.db.raw('ALTER TABLE es_events ENABLE TRIGGER es_events_notify_identity');
    }
    // Only identity streams matter; a task stream leaves the entry in place.
    const v = await projectedUser(a);
    await call(`${a.url}/v1/me`, { headers: bearer(v.key) });
    a.credentials.forget([`task-${v.userId}`]);
    const h = a.credentials.hits;
    expect((await call(`${a.url}/v1/me`, { headers: bearer(v.key) })).status).toBe(200);
    expect(a.credentials.hits).toBe(h + 1);
    a.credentials.forget([`apikey-${v.keyId}`]);
    expect((await call(`${a.url}/v1/me`, { headers: bearer(v.key) })).status).toBe(200);
    expect(a.credentials.hits).toBe(h + 1); // looked up again
  });

  it(`two processes together never allow more than the limit (+${OVERSHOOT}); unused leases come back`, async () => {
    // All of it in one minute window (a run that crossed into the next is run again, with a new user).
    const { statuses, more } = await inOneWindow(60, async () => {
      const u = await projectedUser(a);
      const send = (api: TestApi) => call(`${api.url}/api/settings/api-keys`, { headers: bearer(u.key) });
      const statuses: number[] = [];
      for (let round = 0; round < 15; round++) {
        const rs = await Promise.all(Array.from({ length: 20 }, (_, i) => send(i % 2 ? a : b)));
        statuses.push(...rs.map((r) => r.status));
      }
      // Given back, the held units serve the next requests.
      await Promise.all([a.limiter.returnUnused(), b.limiter.returnUnused()]);
      let more = 0;
      for (let i = 0; i < 10; i++) if ((await send(i % 2 ? a : b)).status === 200) more++;
      return { statuses, more };
    });
    const allowed = statuses.filter((s) => s === 200).length;
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    expect(allowed).toBeLessThanOrEqual(LIMIT + OVERSHOOT);
    // Early refusals are bounded by the units the other process holds: lease = min(100, limit / 20) = 5.
    expect(allowed).toBeGreaterThanOrEqual(LIMIT - 4);
    // Once the units are given back: exactly the limit in all.
    expect(allowed + more).toBe(LIMIT);
  });

  it('task status: ETag, 304 while unchanged, a new ETag after progress, Retry-After while running', async () => {
    const u = await projectedUser(a);
    const taskId = `blog-research-${crypto.randomUUID()}`;
    const stream = taskStream(taskId);
    const started = await a.store.append(
      stream,
      [
        {
          type: 'TaskStarted',
          data: { task_id: taskId, task_type: 'blog_research', user_id: u.userId, workflow_id: taskId },
        },
      ],
      'no_stream',
    );
    await a.schema.db.transaction((t) => applyEvents(t, taskStatusProjection, started.events));
    for (const path of [`/api/tasks/${taskId}`, `/v1/tasks/${taskId}`, `/api/blog/research/status/${taskId}`]) {
      const first = await call(`${a.url}${path}`, { headers: bearer(u.key) });
      expect(first.status).toBe(200);
      const tag = first.headers.get('etag');
      expect(tag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
      expect(first.headers.get('retry-after')).toBe('2');
      // the other process computes the same tag for the same data
      const again = await call(`${b.url}${path}`, { headers: { ...bearer(u.key), 'if-none-match': tag! } });
      expect(again.status).toBe(304);
      expect(again.body).toBeUndefined();
      expect(again.headers.get('etag')).toBe(tag);
      expect(again.headers.get('retry-after')).toBe('2');
      // another user polling with the tag still gets 404, not 304
      const other = await projectedUser(a);
      expect((await call(`${a.url}${path}`, { headers: { ...bearer(other.key), 'if-none-match': tag! } })).status).toBe(
        404,
      );
    }
    const first = await call(`${a.url}/api/tasks/${taskId}`, { headers: bearer(u.key) });
    // Both processes hold the record now: polls are answered from memory.
    for (const api of [a, b]) {
      const hits = api.tasks.hits;
      expect((await call(`${api.url}/api/tasks/${taskId}`, { headers: bearer(u.key) })).body.data.status).toBe(
        'started',
      );
      expect(api.tasks.hits).toBe(hits + 1);
    }
    const progressed = await a.store.append(
      stream,
      [
        { type: 'TaskProgressed', data: { task_id: taskId, message: 'reading', at: new Date().toISOString() } },
        { type: 'TaskCompleted', data: { task_id: taskId, result: { ok: true } } },
      ],
      0,
    );
    await a.schema.db.transaction((t) => applyEvents(t, taskStatusProjection, progressed.events));
    // The projection announces the change when it commits: every process answers the new record within the bound.
    for (const api of [a, b])
      expect(
        await within(NOTIFY_BOUND_MS, async () => {
          const r = await call(`${api.url}/api/tasks/${taskId}`, { headers: bearer(u.key) });
          return r.body.data.status === 'completed';
        }),
      ).toBeDefined();
    const changed = await call(`${a.url}/api/tasks/${taskId}`, {
      headers: { ...bearer(u.key), 'if-none-match': first.headers.get('etag')! },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ status: 'completed', result: { ok: true } });
    expect(changed.headers.get('etag')).not.toBe(first.headers.get('etag'));
    expect(changed.headers.get('retry-after')).toBeNull(); // final: no more polling
  });

  it("a poll is never behind the task's recorded events: with the projector down it answers what the store holds", async () => {
    const u = await projectedUser(a);
    const events = (taskId: string) => [
      {
        type: 'TaskStarted' as const,
        data: { task_id: taskId, task_type: 'blog_research', user_id: u.userId, workflow_id: taskId },
      },
      { type: 'TaskCompleted' as const, data: { task_id: taskId, result: { words: 3 } } },
    ];
    // Recorded, never projected: the projection has no row of it.
    const unseen = `blog-research-${crypto.randomUUID()}`;
    await a.store.append(taskStream(unseen), events(unseen), 'no_stream');
    const r1 = await call(`${a.url}/api/tasks/${unseen}`, { headers: bearer(u.key) });
    // The blog research result as every route shows it (its presenter adds the spec's `success`).
    expect([r1.status, r1.body.data.status, r1.body.data.result]).toEqual([
      200,
      'completed',
      { success: true, words: 3 },
    ]);
    expect(r1.headers.get('retry-after')).toBeNull();
    // Projected as started, completed since: the other process (the row not in its cache) answers completed too.
    const behind = `blog-research-${crypto.randomUUID()}`;
    const [startedEvent, completedEvent] = events(behind);
    const s = await a.store.append(taskStream(behind), [startedEvent], 'no_stream');
    await a.schema.db.transaction((t) => applyEvents(t, taskStatusProjection, s.events));
    await a.store.append(taskStream(behind), [completedEvent], 0);
    const r2 = await call(`${b.url}/v1/tasks/${behind}`, { headers: bearer(u.key) });
    expect([r2.status, r2.body.data.status]).toEqual([200, 'completed']);
    // Another user still gets 404 for it, caught up or not.
    const other = await projectedUser(a);
    expect((await call(`${a.url}/api/tasks/${unseen}`, { headers: bearer(other.key) })).status).toBe(404);
  });
});

/** A GET on a fresh connection: the cluster's primary hands each new connection to the next process. */
function fresh(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
  });
}

describe('a cluster of two API processes (API_PROCESSES=2)', () => {
  let s: IsolatedSchema;
  let api: Proc;
  let base: string;
  beforeAll(async () => {
    s = await isolatedSchema();
    api = await startProcess('api', {
      DATABASE_URL: s.url,
      KAFKA_TOPIC_PREFIX: s.topicPrefix,
      MIGRATE_ON_START: 'false',
      PORT: '0',
      API_PROCESSES: '2',
      LOG_LEVEL: 'warn',
      CREDENTIAL_CACHE_TTL_MS: String(CACHE_TTL_MS),
      RATE_LIMIT_OVERRIDES: JSON.stringify({ pro: { general: { minute: LIMIT, day: 100000 } } }),
    });
    base = `http://127.0.0.1:${api.port}`;
  });
  afterAll(async () => {
    if (api) expect(await api.stop()).toBe(0);
    await s?.drop();
  });

  it('shares the limit (never more than it) and refuses a revoked key in every process within the bound', async () => {
    const store = createEventStore(s.db);
    const d = { store };
    // The 300 requests in one minute window (a run that crossed into the next is run again, with a new user).
    const { u, k, statuses } = await inOneWindow(60, async () => {
      const u = await createUser(d, { plan: 'pro' });
      const k = await createApiKey(d, u.value.user_id, { name: 'x', environment: 'production' });
      const statuses: number[] = [];
      for (let round = 0; round < 15; round++)
        statuses.push(
          ...(await Promise.all(
            Array.from({ length: 20 }, () => fresh(`${base}/api/settings/api-keys`, bearer(k.value.key))),
          )),
        );
      return { u, k, statuses };
    });
    const auth = bearer(k.value.key);
    const allowed = statuses.filter((x) => x === 200).length;
    expect(statuses.filter((x) => x !== 200 && x !== 429)).toEqual([]);
    expect(allowed).toBeLessThanOrEqual(LIMIT + OVERSHOOT);
    expect(allowed).toBeGreaterThanOrEqual(LIMIT - 4);

    // Warm both processes' caches (fresh connections alternate between them), then revoke in the event store.
    for (let i = 0; i < 6; i++) expect([200, 429]).toContain(await fresh(`${base}/v1/me`, auth));
    await revokeApiKey(d, u.value.user_id, k.value.key_id);
    const t0 = Date.now();
    // Refused by both processes: 10 fresh connections in a row all 401, reached within the bound.
    let streak = 0;
    let streakFrom = 0;
    while (streak < 10 && Date.now() - t0 < NOTIFY_BOUND_MS + 5000) {
      if (streak === 0) streakFrom = Date.now();
      streak = (await fresh(`${base}/v1/me`, auth)) === 401 ? streak + 1 : 0;
    }
    expect(streak).toBe(10);
    expect(streakFrom - t0).toBeLessThanOrEqual(NOTIFY_BOUND_MS);
  });
});
