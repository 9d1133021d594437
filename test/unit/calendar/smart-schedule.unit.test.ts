/**
 * Smart scheduling: a property test (random items, constraints, existing
 * events, zones; every hard constraint holds in every output), and examples:
 * best slots taken by priority, impossible constraints reported with reasons.
 */
import fc from 'fast-check';
import { fitTimingModel, TimingModel } from '../../../domain/calendar/timing';
import { FLEX_HOURS, ScheduleInput, smartSchedule } from '../../../domain/calendar/smart-schedule';
import { inWorkingHours, localDate } from '../../../domain/calendar/time';

const NOW = new Date('2030-03-25T09:17:00Z'); // a week with the EU DST change (30/31 March)
const models = new Map<string, TimingModel>();
const model = (zone: string) => (platform: string) => {
  const k = `${zone}/${platform}`;
  if (!models.has(k)) models.set(k, fitTimingModel([], { platform, timezone: zone }));
  return models.get(k)!;
};

const PLATFORMS = ['profnet', 'socialnet', 'photonet', 'microblog', 'videonet'];
const TYPES = ['social_post', 'video', 'story', 'thread'];
const ZONES = ['Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'UTC', 'Australia/Lord_Howe'];
const hhmm = fc
  .tuple(fc.integer({ min: 0, max: 23 }), fc.constantFrom(0, 30))
  .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);

const inputArb = fc.record({
  items: fc.array(
    fc.record({
      content_type: fc.constantFrom(...TYPES),
      platform: fc.constantFrom(...PLATFORMS),
      priority: fc.constantFrom('low', 'medium', 'high', 'urgent' as const),
      flexibility: fc.constantFrom('low', 'medium', 'high' as const),
    }),
    { minLength: 1, maxLength: 12 },
  ),
  min_spacing_hours: fc.integer({ min: 0, max: 30 }),
  max_per_day: fc.integer({ min: 1, max: 4 }),
  business_hours_only: fc.boolean(),
  avoid: fc.array(fc.integer({ min: 0, max: 13 }), { maxLength: 5 }),
  existing: fc.array(fc.integer({ min: 1, max: 14 * 24 }), { maxLength: 6 }),
  zone: fc.constantFrom(...ZONES),
  start: hhmm,
  end: hhmm,
  period_days: fc.integer({ min: 1, max: 14 }),
  capacity: fc.integer({ min: 0, max: 20 }),
  balance: fc.boolean(),
  reach: fc.boolean(),
});

describe('smart scheduling', () => {
  it('property: every hard constraint holds in every output', () => {
    fc.assert(
      fc.property(inputArb, (r) => {
        const avoid = r.avoid.map((d) => localDate(NOW.getTime() + d * 86400_000, r.zone));
        const existing = r.existing.map((h, i) => ({
          at: new Date(NOW.getTime() + h * 3600_000).toISOString(),
          content_type: TYPES[i % 4],
        }));
        const input: ScheduleInput = {
          items: r.items.map((it, i) => ({ ...it, id: `e${i}`, title: `t${i}` })),
          constraints: {
            min_spacing_hours: r.min_spacing_hours,
            max_per_day: r.max_per_day,
            business_hours_only: r.business_hours_only,
            avoid_dates: avoid,
          },
          goals: { maximize_reach: r.reach, balance_content_types: r.balance, respect_capacity: true },
          now: NOW,
          period_days: r.period_days,
          timezone: r.zone,
          working_hours: { start: r.start, end: r.end },
          existing,
          model: model(r.zone),
          capacity_remaining: r.capacity,
        };
        const out = smartSchedule(input);
        const placed = out.scheduled_events;
        // Every item is either placed or reported, once.
        const ids = [...placed.map((p) => p.original_id), ...out.unscheduled_events.map((u) => u.original_id)].sort();
        expect(ids).toEqual(input.items.map((i) => i.id).sort());
        expect(placed.length).toBeLessThanOrEqual(r.capacity);
        const all = [...placed.map((p) => Date.parse(p.scheduled_at)), ...existing.map((e) => Date.parse(e.at))];
        for (const p of placed) {
          const t = Date.parse(p.scheduled_at);
          const item = input.items.find((i) => i.id === p.original_id)!;
          expect(t).toBeGreaterThan(NOW.getTime());
          expect(t).toBeLessThan(NOW.getTime() + r.period_days * 86400_000);
          expect(t - NOW.getTime()).toBeLessThanOrEqual(FLEX_HOURS[item.flexibility] * 3600_000);
          if (r.business_hours_only) expect(inWorkingHours(t, r.zone, { start: r.start, end: r.end })).toBe(true);
          expect(avoid).not.toContain(localDate(t, r.zone));
          for (const o of all)
            if (o !== t || all.filter((x) => x === t).length > 1) {
              if (o === t && all.indexOf(o) === all.lastIndexOf(o)) continue;
              expect(Math.abs(o - t) >= r.min_spacing_hours * 3600_000 || r.min_spacing_hours === 0).toBe(true);
            }
        }
        const perDay = new Map<string, number>();
        for (const t of all) perDay.set(localDate(t, r.zone), (perDay.get(localDate(t, r.zone)) ?? 0) + 1);
        for (const p of placed) {
          const d = localDate(p.scheduled_at, r.zone);
          const existingThatDay = existing.filter((e) => localDate(e.at, r.zone) === d).length;
          const placedThatDay = placed.filter((q) => localDate(q.scheduled_at, r.zone) === d).length;
          expect(placedThatDay + existingThatDay).toBeLessThanOrEqual(Math.max(r.max_per_day, existingThatDay));
          if (existingThatDay < r.max_per_day)
            expect(placedThatDay + existingThatDay).toBeLessThanOrEqual(r.max_per_day);
        }
        for (const u of out.unscheduled_events) expect(u.reason.length).toBeGreaterThan(10);
        const s = out.optimization_summary;
        expect(s.content_balance_score).toBeGreaterThanOrEqual(0);
        expect(s.content_balance_score).toBeLessThanOrEqual(1);
        expect(s.capacity_utilization).toBeGreaterThanOrEqual(0);
        expect(s.capacity_utilization).toBeLessThanOrEqual(1);
      }),
      { numRuns: 100, seed: 20301 },
    );
  });

  const base = (over: Partial<ScheduleInput> = {}): ScheduleInput => ({
    items: [],
    constraints: { min_spacing_hours: 2, max_per_day: 2, business_hours_only: true, avoid_dates: [] },
    goals: { maximize_reach: true, balance_content_types: true, respect_capacity: true },
    now: NOW,
    period_days: 7,
    timezone: 'Europe/Berlin',
    working_hours: { start: '08:00', end: '18:00' },
    existing: [],
    model: model('Europe/Berlin'),
    capacity_remaining: 100,
    ...over,
  });

  it('puts the high-priority event in the best slot and reports reach', () => {
    const m = model('Europe/Berlin')('profnet');
    const out = smartSchedule(
      base({
        items: [
          { id: 'low', title: 'l', content_type: 'story', platform: 'profnet', priority: 'low', flexibility: 'high' },
          { id: 'high', title: 'h', content_type: 'video', platform: 'profnet', priority: 'high', flexibility: 'high' },
        ],
        constraints: { min_spacing_hours: 2, max_per_day: 1, business_hours_only: true, avoid_dates: [] },
      }),
    );
    const high = out.scheduled_events.find((p) => p.original_id === 'high')!;
    const low = out.scheduled_events.find((p) => p.original_id === 'low')!;
    expect(m.at(high.scheduled_at).expected_reach).toBeGreaterThanOrEqual(m.at(low.scheduled_at).expected_reach);
    expect(out.optimization_summary.total_reach_optimized).toBe(
      high.expected_performance.reach + low.expected_performance.reach,
    );
  });

  it('says which events could not be placed and why', () => {
    const out = smartSchedule(
      base({
        items: [1, 2, 3].map((i) => ({
          id: `x${i}`,
          title: `x${i}`,
          content_type: 'story',
          platform: 'photonet',
          priority: 'medium' as const,
          flexibility: 'low' as const,
        })),
        period_days: 3,
        constraints: {
          min_spacing_hours: 1,
          max_per_day: 1,
          business_hours_only: true,
          avoid_dates: ['2030-03-25', '2030-03-26'],
        },
      }),
    );
    expect(out.scheduled_events).toHaveLength(2);
    expect(out.unscheduled_events).toHaveLength(1);
    expect(out.unscheduled_events[0].blocked_by).toMatchObject({
      max_per_day: expect.any(Number),
      avoid_dates: expect.any(Number),
    });
    expect(out.unscheduled_events[0].reason).toMatch(/max_per_day/);
  });
});
