/**
 * Calendars and events over HTTP (Document 3): create/get/list/update/delete,
 * counts in the calendar's zone, filters and bounds, past scheduling, state
 * moves, bulk updates, the event limit (402), auth (401) and owner (404) on
 * every route, rate-limit headers.
 */
import type { TestApi } from '../../support/api';
import { client, Client, inHours, startCalendarApi } from './support';

jest.setTimeout(180000);

describe('calendar core routes', () => {
  let api: TestApi;
  let alice: Client;
  let bob: Client;
  let anon: Client;

  beforeAll(async () => {
    api = await startCalendarApi();
    alice = client(api, (await api.user('pro')).key);
    bob = client(api, (await api.user('pro')).key);
    anon = client(api, null);
  });
  afterAll(async () => api?.stop());

  const newCalendar = async (c: Client = alice, body: Record<string, unknown> = {}) => {
    const r = await c.post('/calendars', { name: 'Launch', timezone: 'Europe/Berlin', ...body });
    expect(r.status).toBe(201);
    return r.body.id as string;
  };

  it('creates, reads, lists, updates and deletes a calendar', async () => {
    const r = await alice.post('/calendars', {
      name: 'Q3 content',
      description: 'all channels',
      timezone: 'America/New_York',
      settings: { working_hours: { start: '08:30', end: '18:00' }, approval_workflow: true },
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      name: 'Q3 content',
      status: 'active',
      timezone: 'America/New_York',
      events_count: 0,
      upcoming_events: 0,
      role: 'owner',
      settings: {
        default_platform: 'multi',
        working_hours: { start: '08:30', end: '18:00' },
        auto_publish: true,
        approval_workflow: true,
      },
    });
    expect(r.headers.get('x-ratelimit-limit')).toBeTruthy();
    expect(r.headers.get('x-ratelimit-remaining')).toBeTruthy();
    expect(r.headers.get('x-ratelimit-reset')).toBeTruthy();
    const id = r.body.id;
    const g = await alice.get(`/calendars/${id}`);
    expect(g.status).toBe(200);
    expect(g.body.calendar).toMatchObject({ id, events_count: 0, upcoming_events: 0 });
    expect(g.body.events).toEqual([]);
    const p = await alice.patch(`/calendars/${id}`, { name: 'Q3', settings: { auto_publish: false } });
    expect(p.status).toBe(200);
    expect(p.body).toMatchObject({ name: 'Q3', settings: { auto_publish: false, approval_workflow: true } });
    const arch = await alice.patch(`/calendars/${id}`, { status: 'archived' });
    expect(arch.body.status).toBe('archived');
    const list = await alice.get('/calendars?status=archived');
    expect(list.body.calendars.map((c: { id: string }) => c.id)).toContain(id);
    expect((await alice.get('/calendars?status=active')).body.calendars.map((c: { id: string }) => c.id)).not.toContain(
      id,
    );
    const refused = await alice.post(`/calendars/${id}/events`, {
      title: 'x',
      content_type: 'story',
      platform: 'photonet',
    });
    expect([refused.status, refused.body.error.code]).toEqual([400, 'VALIDATION_ERROR']);
    const d = await alice.del(`/calendars/${id}`);
    expect(d.body).toMatchObject({ id, deleted: true });
    expect((await alice.get(`/calendars/${id}`)).status).toBe(404);
  });

  it('refuses an unknown time zone and bad working hours', async () => {
    const z = await alice.post('/calendars', { name: 'x', timezone: 'Mars/Olympus' });
    expect([z.status, z.body.error.code, z.body.error.details.field]).toEqual([400, 'VALIDATION_ERROR', 'timezone']);
    const w = await alice.post('/calendars', { name: 'x', settings: { working_hours: { start: '9:00' } } });
    expect(w.status).toBe(400);
  });

  it('list bounds: limit default 20, max 100; team_id filter', async () => {
    await newCalendar(alice, { team_id: 'team-a' });
    const l = await alice.get('/calendars?team_id=team-a');
    expect(l.body).toMatchObject({ limit: 20, offset: 0, total: 1 });
    expect((await alice.get('/calendars?limit=101')).status).toBe(400);
    expect((await alice.get('/calendars?limit=0')).status).toBe(400);
  });

  it('events: create, get, list filters, update, status moves, delete; counts in the calendar zone', async () => {
    const id = await newCalendar();
    const soon = inHours(2);
    const e1 = await alice.post(`/calendars/${id}/events`, {
      title: 'Teaser',
      content_type: 'social_post',
      platform: 'profnet',
      scheduled_at: soon,
      content: { caption: 'Coming soon', hashtags: ['launch'], media_urls: ['https://example.com/a.png'] },
      metadata: { priority: 'high', campaign_id: 'camp-1', assigned_to: 'u-1' },
    });
    expect(e1.status).toBe(201);
    expect(e1.body).toMatchObject({
      title: 'Teaser',
      status: 'scheduled',
      scheduled_at: new Date(soon).toISOString(),
      duration: 0,
    });
    const e2 = await alice.post(`/calendars/${id}/events`, {
      title: 'Later',
      content_type: 'video',
      platform: 'videonet',
      scheduled_at: inHours(24 * 20),
    });
    const draft = await alice.post(`/calendars/${id}/events`, {
      title: 'Idea',
      content_type: 'thread',
      platform: 'microblog',
    });
    expect(draft.body.status).toBe('draft');
    const cal = await alice.get(`/calendars/${id}`);
    expect(cal.body.calendar).toMatchObject({ events_count: 3, upcoming_events: 1 });
    expect(cal.body.events.map((e: { id: string }) => e.id)).toEqual([e1.body.id, e2.body.id]);

    const byPlatform = await alice.get(`/calendars/${id}/events?platform=videonet`);
    expect(byPlatform.body.events.map((e: { id: string }) => e.id)).toEqual([e2.body.id]);
    expect((await alice.get(`/calendars/${id}/events?campaign_id=camp-1`)).body.total).toBe(1);
    expect((await alice.get(`/calendars/${id}/events?assigned_to=u-1`)).body.total).toBe(1);
    expect((await alice.get(`/calendars/${id}/events?status=draft`)).body.total).toBe(1);
    const range = await alice.get(
      `/calendars/${id}/events?start_date=${encodeURIComponent(inHours(1))}&end_date=${encodeURIComponent(inHours(48))}`,
    );
    expect(range.body.events.map((e: { id: string }) => e.id)).toEqual([e1.body.id]);
    // Offsets RFC 3339 allows and PostgreSQL does not (beyond ±15:59) are read as UTC; year 0 is refused.
    const far = await alice.get(
      `/calendars/${id}/events?start_date=${encodeURIComponent('0037-04-26T10:34:27.1334-21:36')}&end_date=${encodeURIComponent('9999-01-01T00:00:00+20:00')}`,
    );
    expect(far.status).toBe(200);
    expect(far.body.total).toBe(2);
    const year0 = await alice.get(`/calendars/${id}/events?start_date=${encodeURIComponent('0000-06-01T00:00:00Z')}`);
    expect(year0.status).toBe(400);
    expect(year0.body.error.code).toBe('VALIDATION_ERROR');
    const all = await alice.get(`/calendars/${id}/events`);
    expect(all.body).toMatchObject({ total: 3, limit: 50 });
    expect((await alice.get(`/calendars/${id}/events?limit=201`)).status).toBe(400);

    const got = await alice.get(`/calendars/${id}/events/${e1.body.id}`);
    expect(got.body.content.hashtags).toEqual(['launch']);
    const moved = await alice.patch(`/calendars/${id}/events/${e1.body.id}`, {
      scheduled_at: inHours(5),
      content: { caption: 'New' },
    });
    expect(moved.status).toBe(200);
    expect(moved.body.content).toEqual({ caption: 'New' });
    const illegal = await alice.patch(`/calendars/${id}/events/${draft.body.id}`, { status: 'published' });
    expect(illegal.status).toBe(400);
    expect(illegal.body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { field: 'status', from: 'draft', to: 'published' },
    });
    expect(illegal.body.error.message).toContain('from draft to published');
    const published = await alice.patch(`/calendars/${id}/events/${e1.body.id}`, { status: 'published' });
    expect(published.body).toMatchObject({ status: 'published', publication: { mode: 'local' } });
    expect(published.body.published_at).toBeTruthy();
    const del = await alice.del(`/calendars/${id}/events/${draft.body.id}`);
    expect(del.body).toMatchObject({ id: draft.body.id, deleted: true, status_before: 'draft' });
    expect((await alice.get(`/calendars/${id}/events/${draft.body.id}`)).status).toBe(404);
    expect((await alice.get(`/calendars/${id}`)).body.calendar.events_count).toBe(2);
  });

  it('scheduling in the past: 400 VALIDATION_ERROR with field, provided_value, current_time', async () => {
    const id = await newCalendar();
    const past = new Date(Date.now() - 3600_000).toISOString();
    const r = await alice.post(`/calendars/${id}/events`, {
      title: 'x',
      content_type: 'story',
      platform: 'photonet',
      scheduled_at: past,
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { field: 'scheduled_at', provided_value: past },
    });
    expect(Date.parse(r.body.error.details.current_time)).toBeGreaterThan(Date.parse(past));
    expect(r.body.error.request_id).toBeTruthy();
    expect(r.body.error.timestamp).toBeTruthy();
  });

  it('bulk update: per-event result, refused events reported, accepted ones written', async () => {
    const id = await newCalendar();
    const mk = async (body: Record<string, unknown>) =>
      (await alice.post(`/calendars/${id}/events`, { content_type: 'social_post', platform: 'profnet', ...body })).body
        .id as string;
    const a = await mk({ title: 'a', scheduled_at: inHours(3) });
    const b = await mk({ title: 'b', scheduled_at: inHours(4) });
    const c = await mk({ title: 'c' });
    const other = await newCalendar(bob);
    const foreign = (
      await bob.post(`/calendars/${other}/events`, { title: 'f', content_type: 'story', platform: 'photonet' })
    ).body.id;
    const r = await alice.patch(`/calendars/${id}/events/bulk`, {
      event_ids: [a, b, c, foreign],
      updates: { status: 'published', metadata: { campaign_id: 'bulk-camp' } },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ updated: 2, failed: 2 });
    const byId = Object.fromEntries(r.body.results.map((x: { event_id: string }) => [x.event_id, x]));
    expect(byId[a]).toMatchObject({ success: true, status: 'published' });
    expect(byId[c]).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
    expect(byId[foreign]).toMatchObject({ success: false, error: { code: 'NOT_FOUND_ERROR' } });
    const list = await alice.get(`/calendars/${id}/events?campaign_id=bulk-camp`);
    expect(list.body.events.map((e: { status: string }) => e.status)).toEqual(['published', 'published']);
  });

  it('CALENDAR_FULL (402) at the plan event limit (Free: 100)', async () => {
    const free = client(api, (await api.user('free')).key);
    const id = await newCalendar(free);
    for (let i = 0; i < 10; i++)
      await Promise.all(
        Array.from({ length: 10 }, (_, j) =>
          free.post(`/calendars/${id}/events`, { title: `e${i}-${j}`, content_type: 'story', platform: 'photonet' }),
        ),
      );
    const full = await free.post(`/calendars/${id}/events`, {
      title: 'one more',
      content_type: 'story',
      platform: 'photonet',
    });
    expect(full.status).toBe(402);
    expect(full.body.error).toMatchObject({ code: 'CALENDAR_FULL', details: { limit: 100, current_events: 100 } });
    const first = (await free.get(`/calendars/${id}/events?limit=1`)).body.events[0].id;
    await free.del(`/calendars/${id}/events/${first}`);
    expect(
      (await free.post(`/calendars/${id}/events`, { title: 'fits', content_type: 'story', platform: 'photonet' }))
        .status,
    ).toBe(201);
  });

  it('every route: 401 without a credential, 404 for another user', async () => {
    const id = await newCalendar();
    const ev = (
      await alice.post(`/calendars/${id}/events`, { title: 'x', content_type: 'story', platform: 'photonet' })
    ).body.id;
    const routes: [keyof Client, string, unknown?][] = [
      ['get', `/calendars/${id}`],
      ['patch', `/calendars/${id}`, { name: 'n' }],
      ['del', `/calendars/${id}`],
      ['post', `/calendars/${id}/events`, { title: 'x', content_type: 'story', platform: 'photonet' }],
      ['get', `/calendars/${id}/events`],
      ['get', `/calendars/${id}/events/${ev}`],
      ['patch', `/calendars/${id}/events/${ev}`, { title: 'y' }],
      ['patch', `/calendars/${id}/events/bulk`, { event_ids: [ev], updates: { status: 'cancelled' } }],
      ['del', `/calendars/${id}/events/${ev}`],
    ];
    for (const [m, p, body] of routes) {
      const none = await (anon[m] as (p: string, b?: unknown) => ReturnType<Client['get']>)(p, body);
      expect([m, p, none.status, none.body.error.code]).toEqual([m, p, 401, 'AUTHENTICATION_ERROR']);
      const other = await (bob[m] as (p: string, b?: unknown) => ReturnType<Client['get']>)(p, body);
      expect([m, p, other.status, other.body.error.code]).toEqual([m, p, 404, 'NOT_FOUND_ERROR']);
    }
    expect((await anon.get('/calendars')).status).toBe(401);
    expect((await anon.post('/calendars', { name: 'x' })).status).toBe(401);
    expect((await bob.get('/calendars')).body.calendars.map((c: { id: string }) => c.id)).not.toContain(id);
  });
});
