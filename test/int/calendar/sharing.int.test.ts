/**
 * Sharing, permissions, approvals, campaigns and calendar webhooks over HTTP:
 * the permission matrix (each role × each calendar route), revocation taking
 * effect at once, flag overrides, the approval workflow, campaign routes and
 * performance, and calendar webhook registration with the dispatcher's
 * deliveries for calendar events.
 */
import type { TestApi } from '../../support/api';
import { testKafka, testLogger, testTemporal, uniq } from '../../support/env';
import { startCalendarWorker } from '../../support/calendar-worker';
import { WebhookDispatcher } from '../../../workers/dispatch/webhooks';
import { calendarEventStream } from '../../../domain/events/calendar';
import { client, Client, inHours, startCalendarApi } from './support';
import { calendarsProjection } from '../../../projections/calendars';
import { dropReplayTables, hashProjection, replay, replayTables } from '../../../projections/replay';
import { webhookSchemas } from '../../support/conformance';
import { call } from '../../support/http';

jest.setTimeout(240000);

type Role = 'owner' | 'editor' | 'contributor' | 'viewer';
const ROLES: Role[] = ['owner', 'editor', 'contributor', 'viewer'];

/**
 * The documented role table (docs/calendar.md "Roles and permissions"), written out here rather than read from the
 * code under test: a change of the code's defaults must fail this test.
 */
const DEFAULT_FLAGS = {
  editor: { create_events: true, edit_events: true, delete_events: true, publish_content: true, view_analytics: true },
  contributor: {
    create_events: true,
    edit_events: true,
    delete_events: false,
    publish_content: false,
    view_analytics: true,
  },
  viewer: {
    create_events: false,
    edit_events: false,
    delete_events: false,
    publish_content: false,
    view_analytics: false,
  },
};
/** Who may call a route, by what it needs. */
const EVERYONE: Role[] = ['owner', 'editor', 'contributor', 'viewer'];
const MAY = {
  view: EVERYONE,
  create_events: ['owner', 'editor', 'contributor'],
  edit_events: ['owner', 'editor', 'contributor'],
  delete_events: ['owner', 'editor'],
  publish_content: ['owner', 'editor'],
  view_analytics: ['owner', 'editor', 'contributor'],
  manage: ['owner'],
  /** Routes of the caller's own resources (calendars list/create, webhooks): any authenticated user. */
  own: EVERYONE,
} satisfies Record<string, Role[]>;
type Need = keyof typeof MAY;

describe('calendar sharing and permissions', () => {
  let api: TestApi;
  const users = {} as Record<Role | 'outsider', { c: Client; id: string }>;
  let anon: Client;

  let temporal: Awaited<ReturnType<typeof testTemporal>>;
  let worker: Awaited<ReturnType<typeof startCalendarWorker>>;
  const taskQueue = uniq('calendar-share');

  beforeAll(async () => {
    // A Temporal worker, so the generation routes really generate for the roles allowed to (as generation.int).
    temporal = await testTemporal();
    api = await startCalendarApi({ deps: { workflows: { client: async () => temporal.client, taskQueue } } });
    worker = await startCalendarWorker(api.schema.db, { taskQueue, limits: { tokens: 10_000_000 } });
    for (const r of [...ROLES, 'outsider'] as const) {
      const u = await api.user('pro');
      users[r] = { c: client(api, u.key), id: u.userId };
    }
    anon = client(api, null);
  });
  afterAll(async () => {
    await worker?.stop();
    await api?.stop();
    await temporal?.connection.close();
  });

  const owner = () => users.owner.c;

  /** A calendar shared with editor, contributor and viewer (default flags), with a few events. */
  async function fixture(settings: Record<string, unknown> = {}) {
    const id = (
      await owner().post('/calendars', {
        name: 'Shared',
        timezone: 'Europe/Madrid',
        settings: { auto_publish: false, ...settings },
      })
    ).body.id as string;
    for (const r of ['editor', 'contributor', 'viewer'] as const) {
      const s = await owner().post(`/calendars/${id}/share`, { user_id: users[r].id, role: r });
      expect(s.status).toBe(200);
      expect(s.body.permissions).toEqual(DEFAULT_FLAGS[r]);
    }
    const ev = async (body: Record<string, unknown> = {}) =>
      (
        await owner().post(`/calendars/${id}/events`, {
          title: 'E',
          content_type: 'story',
          platform: 'photonet',
          scheduled_at: inHours(48),
          ...body,
        })
      ).body.id as string;
    const published = await ev();
    await owner().patch(`/calendars/${id}/events/${published}`, { status: 'published' });
    const campaign = (await owner().post(`/calendars/${id}/campaigns`, { name: 'C' })).body.id as string;
    return { id, ev, published, campaign };
  }

  it('permission matrix: each role × each calendar route', async () => {
    const f = await fixture();
    type Call = (c: Client) => Promise<{ status: number }>;
    const hook = { url: 'http://127.0.0.1:9/hook', events: ['event.created'] };
    const routes: [string, Need, Call][] = [
      ['POST calendars', 'own', (c) => c.post('/calendars', { name: 'Own' })],
      ['GET calendars', 'own', (c) => c.get('/calendars')],
      ['GET calendar', 'view', (c) => c.get(`/calendars/${f.id}`)],
      ['PATCH calendar', 'manage', (c) => c.patch(`/calendars/${f.id}`, { description: 'x' })],
      [
        'POST events',
        'create_events',
        (c) => c.post(`/calendars/${f.id}/events`, { title: 't', content_type: 'story', platform: 'photonet' }),
      ],
      ['GET events', 'view', (c) => c.get(`/calendars/${f.id}/events`)],
      ['GET event', 'view', (c) => c.get(`/calendars/${f.id}/events/${f.published}`)],
      [
        'PATCH event',
        'edit_events',
        async (c) => c.patch(`/calendars/${f.id}/events/${await f.ev()}`, { title: 'new' }),
      ],
      [
        'PATCH event publish',
        'publish_content',
        async (c) => c.patch(`/calendars/${f.id}/events/${await f.ev()}`, { status: 'published' }),
      ],
      [
        'PATCH bulk',
        'edit_events',
        async (c) =>
          c.patch(`/calendars/${f.id}/events/bulk`, { event_ids: [await f.ev()], updates: { status: 'cancelled' } }),
      ],
      ['DELETE event', 'delete_events', async (c) => c.del(`/calendars/${f.id}/events/${await f.ev()}`)],
      ['POST generate', 'create_events', (c) => c.post(`/calendars/${f.id}/events/generate`, { topic: 't' })],
      [
        'POST series',
        'create_events',
        (c) =>
          c.post(`/calendars/${f.id}/series/generate`, {
            series_title: 's',
            content_types: ['story'],
            platforms: ['photonet'],
            schedule: { frequency: 'weekly', start_date: '2031-01-06', count: 1 },
          }),
      ],
      ['GET timing', 'view_analytics', (c) => c.get(`/calendars/${f.id}/timing/analyze`)],
      [
        'POST smart-schedule',
        'create_events',
        (c) =>
          c.post(`/calendars/${f.id}/events/smart-schedule`, {
            events: [{ title: 'x', content_type: 'story', platform: 'photonet' }],
          }),
      ],
      ['GET performance', 'view_analytics', (c) => c.get(`/calendars/${f.id}/events/${f.published}/performance`)],
      [
        'POST performance',
        'publish_content',
        (c) => c.post(`/calendars/${f.id}/events/${f.published}/performance`, { impressions: 10, engagements: 1 }),
      ],
      ['GET analytics', 'view_analytics', (c) => c.get(`/calendars/${f.id}/analytics`)],
      ['POST campaigns', 'create_events', (c) => c.post(`/calendars/${f.id}/campaigns`, { name: 'n' })],
      ['GET campaigns', 'view', (c) => c.get(`/calendars/${f.id}/campaigns`)],
      ['GET campaign', 'view', (c) => c.get(`/calendars/${f.id}/campaigns/${f.campaign}`)],
      [
        'PATCH campaign',
        'edit_events',
        (c) => c.patch(`/calendars/${f.id}/campaigns/${f.campaign}`, { description: 'd' }),
      ],
      [
        'GET campaign performance',
        'view_analytics',
        (c) => c.get(`/calendars/${f.id}/campaigns/${f.campaign}/performance`),
      ],
      ['GET shares', 'view', (c) => c.get(`/calendars/${f.id}/shares`)],
      [
        'POST share',
        'manage',
        (c) => c.post(`/calendars/${f.id}/share`, { user_id: users.outsider.id, role: 'viewer' }),
      ],
      [
        'POST approve',
        'publish_content',
        async (c) => c.post(`/calendars/${f.id}/events/${await f.ev()}/approve`, { approved: true }),
      ],
      [
        'DELETE share',
        'manage',
        async (c) => {
          await owner().post(`/calendars/${f.id}/share`, { user_id: users.outsider.id, role: 'viewer' });
          return c.del(`/calendars/${f.id}/share/${users.outsider.id}`);
        },
      ],
      [
        'POST webhooks',
        'own',
        async (c) => {
          const r = await c.post('/webhooks', hook);
          if (r.status === 201) await c.del(`/webhooks/${r.body.id}`);
          return r;
        },
      ],
      ['GET webhooks', 'own', (c) => c.get('/webhooks')],
      [
        'DELETE webhook',
        'own',
        async (c) => {
          const r = await c.post('/webhooks', hook);
          expect(r.status).toBe(201);
          return c.del(`/webhooks/${r.body.id}`);
        },
      ],
    ];
    // Allowed: a 2xx (generation included: the worker writes the events); refused: 403 AUTHORIZATION_ERROR.
    const table: string[] = [];
    for (const [name, need, call] of routes)
      for (const role of ROLES) {
        const r = (await call(users[role].c)) as { status: number; body?: { error?: { code?: string } } };
        const ok = (MAY[need] as Role[]).includes(role);
        const good = ok
          ? r.status >= 200 && r.status < 300
          : r.status === 403 && r.body?.error?.code === 'AUTHORIZATION_ERROR';
        if (!good) table.push(`${name} as ${role}: ${r.status} (expected ${ok ? 'allowed' : 403})`);
      }
    expect(table).toEqual([]);
    // Generation really ran for the allowed roles: generated events by owner, editor and contributor, none by the viewer.
    const generated = (await owner().get(`/calendars/${f.id}/events?status=generated&limit=200`)).body.events as {
      created_by: string;
    }[];
    const by = (role: Role) => generated.filter((e) => e.created_by === users[role].id).length;
    expect([by('owner'), by('editor'), by('contributor'), by('viewer')]).toEqual([2, 2, 2, 0]);
    // The owner alone deletes the calendar; outsiders get 404 everywhere.
    for (const role of ['editor', 'contributor', 'viewer'] as const)
      expect((await users[role].c.del(`/calendars/${f.id}`)).status).toBe(403);
    await owner().del(`/calendars/${f.id}/share/${users.outsider.id}`);
    for (const [, , call] of routes.slice(2, 7)) expect((await call(users.outsider.c)).status).toBe(404);
    expect((await owner().del(`/calendars/${f.id}`)).status).toBe(200);
  });

  it('a share revoked applies at once; flags override the role defaults; the shared calendar is listed with the role', async () => {
    const f = await fixture();
    const list = await users.viewer.c.get('/calendars');
    expect(list.body.calendars.find((c: { id: string }) => c.id === f.id)).toMatchObject({
      role: 'viewer',
      permissions: DEFAULT_FLAGS.viewer,
    });
    expect((await users.viewer.c.get(`/calendars/${f.id}/analytics`)).status).toBe(403);
    await owner().post(`/calendars/${f.id}/share`, {
      user_id: users.viewer.id,
      role: 'viewer',
      permissions: { view_analytics: true },
    });
    expect((await users.viewer.c.get(`/calendars/${f.id}/analytics`)).status).toBe(200);
    const denied = await users.viewer.c.post(`/calendars/${f.id}/events`, {
      title: 'x',
      content_type: 'story',
      platform: 'photonet',
    });
    expect([denied.status, denied.body.error.code]).toEqual([403, 'AUTHORIZATION_ERROR']);
    expect((await owner().del(`/calendars/${f.id}/share/${users.viewer.id}`)).body.revoked).toBe(true);
    expect((await users.viewer.c.get(`/calendars/${f.id}`)).status).toBe(404);
    expect((await owner().post(`/calendars/${f.id}/share`, { user_id: 'no-such-user', role: 'editor' })).status).toBe(
      400,
    );
    expect((await owner().post(`/calendars/${f.id}/share`, { user_id: users.owner.id, role: 'editor' })).status).toBe(
      400,
    );
    expect((await owner().post(`/calendars/${f.id}/share`, { user_id: users.viewer.id, role: 'owner' })).status).toBe(
      400,
    );
  });

  it('approval workflow: publish refused until approved; rejection back to draft with comments', async () => {
    const f = await fixture({ approval_workflow: true });
    const e = await f.ev();
    const refused = await users.editor.c.patch(`/calendars/${f.id}/events/${e}`, { status: 'published' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toMatchObject({ from: 'scheduled', to: 'published', approval_required: true });
    expect((await users.contributor.c.post(`/calendars/${f.id}/events/${e}/approve`, { approved: true })).status).toBe(
      403,
    );
    const ok = await users.editor.c.post(`/calendars/${f.id}/events/${e}/approve`, {
      approved: true,
      comments: 'fine',
      approved_by: 'Ed',
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      approved: true,
      status: 'approved',
      previous_status: 'scheduled',
      approver_id: users.editor.id,
      approved_by: 'Ed',
      comments: 'fine',
    });
    expect(ok.body.event.approval).toMatchObject({ approved: true, comments: 'fine' });
    expect((await users.editor.c.patch(`/calendars/${f.id}/events/${e}`, { status: 'published' })).body.status).toBe(
      'published',
    );
    const e2 = await f.ev();
    const no = await owner().post(`/calendars/${f.id}/events/${e2}/approve`, {
      approved: false,
      comments: 'needs a better hook',
    });
    expect(no.body).toMatchObject({ approved: false, status: 'draft', comments: 'needs a better hook' });
    const again = await owner().post(`/calendars/${f.id}/events/${e2}/approve`, { approved: false });
    expect(again.status).toBe(400);
    expect(again.body.error.message).toContain('from draft to draft');
    const events = await api.store.readStream(calendarEventStream(e2));
    expect(events.map((x) => x.type)).toContain('CalendarEventApprovalRecorded');
  });

  it('campaigns: create, list, get, update, performance against budget and timeline', async () => {
    const f = await fixture();
    const today = new Date().toISOString().slice(0, 10);
    const end = new Date(Date.now() + 20 * 86400_000).toISOString().slice(0, 10);
    const c = await owner().post(`/calendars/${f.id}/campaigns`, {
      name: 'Spring',
      objectives: ['awareness'],
      budget: { amount: 500, currency: 'EUR', platforms: ['photonet', 'profnet'] },
      timeline: { start_date: today, end_date: end, milestones: [{ date: end, name: 'wrap-up' }] },
      content_strategy: { pillars: ['tips'], content_mix: { story: 50, video: 50 } },
    });
    expect(c.status).toBe(201);
    expect(c.body).toMatchObject({ name: 'Spring', status: 'planned', budget: { amount: 500 } });
    const cid = c.body.id;
    const linked = await owner().post(`/calendars/${f.id}/events`, {
      title: 'L',
      content_type: 'story',
      platform: 'photonet',
      scheduled_at: inHours(3),
      metadata: { campaign_id: cid },
    });
    await owner().patch(`/calendars/${f.id}/events/${linked.body.id}`, { status: 'published' });
    await owner().post(`/calendars/${f.id}/events/${linked.body.id}/performance`, {
      impressions: 1000,
      engagements: 50,
      clicks: 10,
    });
    const p = await owner().get(`/calendars/${f.id}/campaigns/${cid}/performance`);
    expect(p.status).toBe(200);
    expect(p.body).toMatchObject({
      campaign_id: cid,
      events: { total: 1, published: 1 },
      metrics: { impressions: 1000, engagements: 50, clicks: 10, engagement_rate: 0.05 },
      budget: { amount: 500, currency: 'EUR', per_engagement: 10, per_click: 50 },
      platforms: { unused: ['profnet'] },
      content_mix: { actual: { story: 100 }, deviation: { story: 50, video: -50 } },
    });
    expect(p.body.timeline.milestones[0]).toMatchObject({
      name: 'wrap-up',
      status: expect.stringMatching(/upcoming|today/),
    });
    const u = await owner().patch(`/calendars/${f.id}/campaigns/${cid}`, {
      status: 'active',
      timeline: { start_date: end, end_date: today },
    });
    expect(u.status).toBe(400);
    expect((await owner().patch(`/calendars/${f.id}/campaigns/${cid}`, { status: 'active' })).body.status).toBe(
      'active',
    );
    expect((await owner().get(`/calendars/${f.id}/campaigns?status=active`)).body.total).toBe(1);
    expect((await owner().get(`/calendars/${f.id}/campaigns/${cid}`)).body.name).toBe('Spring');
    const bad = await owner().post(`/calendars/${f.id}/campaigns`, {
      name: 'x',
      content_strategy: { content_mix: { a: 70, b: 40 } },
    });
    expect(bad.status).toBe(400);
    for (const path of [
      `/calendars/${f.id}/campaigns`,
      `/calendars/${f.id}/campaigns/${cid}`,
      `/calendars/${f.id}/campaigns/${cid}/performance`,
    ]) {
      expect((await anon.get(path)).status).toBe(401);
      expect((await users.outsider.c.get(path)).status).toBe(404);
    }
    expect((await users.outsider.c.get(`/calendars/${f.id}/campaigns/${cid}`)).status).toBe(404);
  });

  it('calendar webhooks: register (names checked), list, delete; calendar events address the owner endpoints', async () => {
    const anonReg = await anon.post('/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['event.created'] });
    expect(anonReg.status).toBe(401);
    const badName = await owner().post('/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['content.generated'] });
    expect(badName.status).toBe(400);
    const r = await owner().post('/webhooks', {
      url: 'http://127.0.0.1:9/hook',
      events: ['event.created', 'event.published'],
      secret: 'a-secret-of-16-chars',
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      events: ['event.created', 'event.published'],
      enabled: true,
      secret: 'a-secret-of-16-chars',
    });
    expect((await owner().get('/webhooks')).body.webhooks.map((w: { id: string }) => w.id)).toContain(r.body.id);
    const f = await fixture();
    const e = await f.ev();
    const [created] = await api.store.readStream(calendarEventStream(e));
    const dispatcher = new WebhookDispatcher(
      api.schema.db,
      api.store,
      testKafka(),
      async () => {
        throw new Error('not used');
      },
      testLogger(),
      { topicPrefix: api.schema.topicPrefix, taskQueue: 'unused' },
    );
    const deliveries = await dispatcher.deliveriesFor(created);
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ endpointId: r.body.id, userId: users.owner.id, eventType: 'event.created' });
    webhookSchemas((await call(`${api.url}/openapi.json`)).body)(deliveries[0].payload);
    expect(deliveries[0].payload).toMatchObject({
      event: 'event.created',
      data: { calendar_id: f.id, event_id: e, platform: 'photonet', published_at: null, performance_initial: null },
    });
    expect((await users.outsider.c.del(`/webhooks/${r.body.id}`)).status).toBe(404);
    expect((await owner().del(`/webhooks/${r.body.id}`)).body.deleted).toBe(true);
    expect((await owner().get('/webhooks')).body.webhooks).toEqual([]);
  });

  it('replaying the calendar events from zero rebuilds the calendars projection identically', async () => {
    const p = calendarsProjection;
    let live: Record<string, string> = {};
    let rebuilt: Record<string, string> = {};
    for (let i = 0; i < 20; i++) {
      live = await hashProjection(api.schema.db, p);
      await replay(api.schema.db, api.store, p, { swap: false });
      rebuilt = await hashProjection(api.schema.db, p, replayTables(p));
      if (JSON.stringify(live) === JSON.stringify(rebuilt)) break;
      await new Promise((r) => setTimeout(r, 500)); // the live consumer may still be applying the last events
    }
    await dropReplayTables(api.schema.db, p);
    expect(rebuilt).toEqual(live);
    expect(Number(live.calendar_events.split(':')[0])).toBeGreaterThan(10);
  });
});
