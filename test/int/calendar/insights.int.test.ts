/**
 * Performance, analytics, timing analysis and smart scheduling over HTTP:
 * figures recorded as events, rates and insights computed, analytics grouped
 * in the calendar's zone, the timing model's observations and audience zones,
 * smart placement (proposal and apply) with unplaceable events explained.
 */
import type { TestApi } from '../../support/api';
import { inWorkingHours, localDate } from '../../../domain/calendar/time';
import { client, Client, inHours, startCalendarApi } from './support';

jest.setTimeout(180000);

describe('calendar insights', () => {
  let api: TestApi;
  let alice: Client;
  let bob: Client;
  let anon: Client;
  let id: string;
  const ids: string[] = [];
  /** When each was published (the analytics group by its day in Tokyo, which need not be today's by the time they run). */
  const publishedAt: string[] = [];

  beforeAll(async () => {
    api = await startCalendarApi();
    alice = client(api, (await api.user('pro')).key);
    bob = client(api, (await api.user('pro')).key);
    anon = client(api, null);
    id = (
      await alice.post('/calendars', { name: 'Insights', timezone: 'Asia/Tokyo', settings: { auto_publish: false } })
    ).body.id;
    const specs = [
      ['video', 'videonet', 2000, 160, 30],
      ['story', 'photonet', 1000, 20, 5],
      ['video', 'videonet', 3000, 210, 60],
    ] as const;
    for (const [type, plat, imp, eng, clicks] of specs) {
      const e = (
        await alice.post(`/calendars/${id}/events`, {
          title: type,
          content_type: type,
          platform: plat,
          scheduled_at: inHours(1),
        })
      ).body.id;
      const published = await alice.patch(`/calendars/${id}/events/${e}`, { status: 'published' });
      expect(published.body.status).toBe('published');
      publishedAt.push(published.body.published_at);
      const p = await alice.post(`/calendars/${id}/events/${e}/performance`, {
        impressions: imp,
        engagements: eng,
        likes: eng - 5,
        comments: 5,
        clicks,
        audience: {
          timezones: { 'Asia/Tokyo': 0.75, 'Asia/Seoul': 0.25 },
          top_cities: [{ city: 'Tokyo', share: 0.6 }],
          demographics: { '25-34': 0.5 },
        },
      });
      expect(p.status).toBe(201);
      ids.push(e);
    }
  });
  afterAll(async () => api?.stop());

  it('POST/GET performance: metrics with rates, audience, insights against the calendar average', async () => {
    const r = await alice.get(`/calendars/${id}/events/${ids[1]}/performance`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ event_id: ids[1], platform: 'photonet', recorded: true });
    expect(r.body.metrics).toMatchObject({
      impressions: 1000,
      engagements: 20,
      clicks: 5,
      reach: 1000,
      engagement_rate: 0.02,
      click_through_rate: 0.005,
    });
    expect(r.body.audience_insights.top_cities).toEqual([{ city: 'Tokyo', share: 0.6 }]);
    expect(r.body.ai_insights.compared_to).toMatchObject({ source: 'calendar_average', events: 2 });
    expect(r.body.ai_insights.performance_score).toBeLessThan(50);
    expect(r.body.ai_insights.optimization_suggestions.join(' ')).toMatch(/below the calendar average/);
    const notPublished = (
      await alice.post(`/calendars/${id}/events`, { title: 'd', content_type: 'story', platform: 'photonet' })
    ).body.id;
    const refused = await alice.post(`/calendars/${id}/events/${notPublished}/performance`, { impressions: 5 });
    expect([refused.status, refused.body.error.code]).toEqual([400, 'VALIDATION_ERROR']);
    const empty = await alice.get(`/calendars/${id}/events/${notPublished}/performance`);
    expect(empty.body).toMatchObject({ recorded: false, metrics: { impressions: 0 } });
  });

  it('GET analytics: summary, trends in the calendar zone, platform breakdown, best and worst type', async () => {
    const r = await alice.get(`/calendars/${id}/analytics?group_by=day&end_date=${encodeURIComponent(inHours(2))}`);
    expect(r.status).toBe(200);
    expect(r.body.summary).toMatchObject({
      published_events: 3,
      total_impressions: 6000,
      total_engagements: 390,
      average_engagement_rate: 0.065,
    });
    // The first period is the Tokyo day of the first publication (Tokyo's midnight, 15:00 UTC, may have passed since).
    expect(r.body.performance_trends[0].period).toBe(localDate(publishedAt[0], 'Asia/Tokyo'));
    expect(r.body.platform_breakdown.videonet).toMatchObject({ events: 2, impressions: 5000 });
    expect(r.body.content_performance).toMatchObject({ best_performing_type: 'video', worst_performing_type: 'story' });
    expect(r.body.content_performance.optimal_posting_times).toHaveLength(3);
    expect((await alice.get(`/calendars/${id}/analytics?group_by=year`)).status).toBe(400);
  });

  it('GET timing/analyze: observations, optimal times with confidence, recorded audience zones', async () => {
    const r = await alice.get(`/calendars/${id}/timing/analyze?platform=videonet`);
    expect(r.status).toBe(200);
    expect(r.body.model).toMatchObject({ observations: 2, name: 'timing-model-v1' });
    expect(r.body.optimal_times).toHaveLength(5);
    for (const t of r.body.optimal_times) {
      expect(t.timezone).toBe('Asia/Tokyo');
      expect(t.confidence).toBeGreaterThanOrEqual(0);
      expect(t.confidence).toBeLessThanOrEqual(1);
    }
    expect(r.body.audience_insights).toMatchObject({
      timezone_distribution: { 'Asia/Tokyo': 0.75, 'Asia/Seoul': 0.25 },
      timezone_distribution_source: 'recorded_audience',
    });
    expect((await alice.get(`/calendars/${id}/timing/analyze?date_range=bogus`)).status).toBe(400);
    const old = await alice.get(`/calendars/${id}/timing/analyze?date_range=2020-01-01/2020-02-01`);
    expect(old.body.model.observations).toBe(0);
  });

  it('POST events/smart-schedule: placement under constraints, unplaceable events explained, apply creates events', async () => {
    const body = {
      events: [
        { id: 'a', title: 'A', content_type: 'video', platform: 'videonet', priority: 'high', flexibility: 'high' },
        { id: 'b', title: 'B', content_type: 'story', platform: 'photonet', priority: 'low', flexibility: 'medium' },
        { id: 'c', title: 'C', content_type: 'story', platform: 'photonet', priority: 'medium', flexibility: 'low' },
      ],
      constraints: { min_spacing_hours: 6, max_per_day: 1, business_hours_only: true, avoid_dates: [] },
      period_days: 7,
    };
    const r = await alice.post(`/calendars/${id}/events/smart-schedule`, body);
    expect(r.status).toBe(200);
    expect(r.body.applied).toBe(false);
    expect(r.body.scheduled_events).toHaveLength(3);
    const days = r.body.scheduled_events.map((e: { scheduled_at: string }) => localDate(e.scheduled_at, 'Asia/Tokyo'));
    expect(new Set(days).size).toBe(3);
    for (const e of r.body.scheduled_events)
      expect(inWorkingHours(e.scheduled_at, 'Asia/Tokyo', { start: '09:00', end: '17:00' })).toBe(true);
    expect(r.body.optimization_summary.total_reach_optimized).toBeGreaterThan(0);
    // Every day of the 7-day period the route places in, and one more: Tokyo's date may turn before the route runs.
    const allDays = Array.from({ length: 9 }, (_, i) => localDate(Date.now() + i * 86400_000, 'Asia/Tokyo'));
    const blocked = await alice.post(`/calendars/${id}/events/smart-schedule`, {
      ...body,
      constraints: { ...body.constraints, avoid_dates: allDays },
    });
    expect(blocked.body.scheduled_events).toHaveLength(0);
    expect(blocked.body.unscheduled_events[0].reason).toMatch(/avoid_dates/);
    const applied = await alice.post(`/calendars/${id}/events/smart-schedule`, { ...body, apply: true });
    expect(applied.status).toBe(201);
    const created = applied.body.scheduled_events.map((e: { event_id: string }) => e.event_id);
    expect(created).toHaveLength(3);
    const ev = await alice.get(`/calendars/${id}/events/${created[0]}`);
    expect(ev.body.status).toBe('scheduled');
  });

  it('401 without a credential, 404 for another user', async () => {
    const paths: [keyof Client, string, unknown?][] = [
      ['get', `/calendars/${id}/events/${ids[0]}/performance`],
      ['post', `/calendars/${id}/events/${ids[0]}/performance`, { impressions: 1 }],
      ['get', `/calendars/${id}/analytics`],
      ['get', `/calendars/${id}/timing/analyze`],
      [
        'post',
        `/calendars/${id}/events/smart-schedule`,
        { events: [{ title: 'x', content_type: 'story', platform: 'photonet' }] },
      ],
    ];
    for (const [m, p, b] of paths) {
      expect([p, (await (anon[m] as (p: string, b?: unknown) => ReturnType<Client['get']>)(p, b)).status]).toEqual([
        p,
        401,
      ]);
      expect([p, (await (bob[m] as (p: string, b?: unknown) => ReturnType<Client['get']>)(p, b)).status]).toEqual([
        p,
        404,
      ]);
    }
  });
});
