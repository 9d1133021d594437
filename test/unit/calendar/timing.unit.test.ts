/** The timing model: recovers a planted best hour from synthetic history; prior dominates thin history; DST-correct hours. */
import { DateTime } from 'luxon';
import { audienceZoneDistribution, fitTimingModel, Observation } from '../../../domain/calendar/timing';

/** Deterministic pseudo-random numbers (mulberry32). */
function rng(seed: number) {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** History of `n` posts at random local hours 6..22 over 120 days; posts at `bestHour` engage `lift` times more. */
function history(n: number, zone: string, bestHour: number, lift: number, seed = 7): Observation[] {
  const r = rng(seed);
  const start = DateTime.fromISO('2024-01-01T00:00', { zone });
  return Array.from({ length: n }, () => {
    const day = Math.floor(r() * 120);
    const hour = 6 + Math.floor(r() * 17);
    const at = start.plus({ days: day }).set({ hour, minute: Math.floor(r() * 60) });
    const impressions = Math.round(1000 * (0.6 + 0.8 * r()));
    const rate = 0.02 * (hour === bestHour ? lift : 1) * (0.7 + 0.6 * r());
    return { at: at.toUTC().toISO()!, impressions, engagements: Math.round(impressions * rate) };
  });
}

describe('timing model', () => {
  it('recovers a planted best hour from synthetic history (against the prior)', () => {
    // profnet's prior favours the morning; the planted hour is mid-afternoon.
    const m = fitTimingModel(history(400, 'America/Chicago', 15, 2.2), {
      platform: 'profnet',
      timezone: 'America/Chicago',
    });
    const best = m.ranked()[0];
    expect(best.hour).toBe(15);
    expect(best.performance_score).toBe(100);
    expect(best.confidence).toBeGreaterThan(0.7);
    expect(m.hour_effects[15]).toBeGreaterThan(1.5 * Math.max(...m.hour_effects.filter((_, h) => h !== 15)) * 0.75);
    expect(m.prior_weight).toBeLessThan(0.02);
  });

  it('with thin history the prior decides and confidence is low', () => {
    const empty = fitTimingModel([], { platform: 'profnet', timezone: 'UTC' });
    expect(empty.ranked()[0].hour).toBe(8);
    expect(empty.ranked()[0].confidence).toBe(0);
    expect(empty.prior_weight).toBe(1);
    const three = fitTimingModel(history(3, 'UTC', 15, 2.2), { platform: 'profnet', timezone: 'UTC' });
    expect(three.ranked()[0].confidence).toBeLessThan(0.4);
    // The blend's weight grows with the observations.
    const more = fitTimingModel(history(60, 'UTC', 15, 2.2), { platform: 'profnet', timezone: 'UTC' });
    expect(more.prior_weight).toBeLessThan(three.prior_weight);
    expect(more.slot(3, 15).confidence).toBeGreaterThan(three.slot(3, 15).confidence);
  });

  it('counts local hours across a DST change (Europe/Berlin, March 2024)', () => {
    // 15:00 local is 14:00 UTC until 30 March and 13:00 UTC from 31 March (the switch is at 01:00 UTC that day).
    const obs: Observation[] = [];
    for (let d = 19; d <= 30; d++) obs.push({ at: `2024-03-${d}T14:00:00Z`, impressions: 1000, engagements: 80 });
    for (let d = 1; d <= 12; d++)
      obs.push({ at: `2024-04-${String(d).padStart(2, '0')}T13:00:00Z`, impressions: 1000, engagements: 80 });
    for (let d = 1; d <= 24; d++)
      obs.push({ at: `2024-05-${String(d).padStart(2, '0')}T07:00:00Z`, impressions: 1000, engagements: 10 });
    const m = fitTimingModel(obs, { platform: 'socialnet', timezone: 'Europe/Berlin' });
    expect(m.hour_counts[15]).toBe(24);
    expect(m.hour_counts[14]).toBe(0);
    const observed = m.ranked().filter((x) => m.hour_counts[x.hour] > 0);
    expect(observed[0].hour).toBe(15);
    // On the day of the change itself, 14:00 UTC is already 16:00 local.
    expect(m.at('2024-03-31T14:00:00Z').hour).toBe(16);
    expect(m.at('2024-03-31T00:30:00Z').hour).toBe(1);
    expect(m.at('2024-03-31T01:30:00Z').hour).toBe(3);
  });

  it('expected figures are consistent: engagement_rate = engagements / reach', () => {
    const m = fitTimingModel(history(100, 'UTC', 10, 1.5), { platform: 'photonet', timezone: 'UTC' });
    const s = m.slot(2, 10);
    expect(s.engagement_rate).toBeCloseTo(s.expected_engagements / s.expected_reach, 3);
  });

  describe('audience time zone', () => {
    const JAN = Date.parse('2030-01-15T12:00:00Z'); // New York on EST (UTC-5), Kolkata UTC+5:30
    const JUL = Date.parse('2030-07-15T12:00:00Z'); // New York on EDT (UTC-4)
    const bestHour = (audienceZones?: Record<string, number>, referenceTime = JAN) =>
      fitTimingModel([], { platform: 'profnet', timezone: 'UTC', audienceZones, referenceTime }).hour_effects.reduce(
        (best, x, h, all) => (x > all[best] ? h : best),
        0,
      );

    it("moves the prior's peak onto the calendar's clock by the audience's offset (DST of the reference time)", () => {
      const own = bestHour();
      expect(own).toBe(8); // profnet peaks 08:30 local
      expect(bestHour({ 'America/New_York': 1 })).toBe(own + 5);
      expect(bestHour({ 'America/New_York': 1 }, JUL)).toBe(own + 4);
      expect(bestHour({ 'Asia/Tokyo': 1 })).toBe((own - 9 + 24) % 24);
      // The model says which zones it followed; without recorded zones it is the calendar's.
      expect(
        fitTimingModel([], {
          platform: 'profnet',
          timezone: 'UTC',
          audienceZones: { 'America/New_York': 1 },
          referenceTime: JAN,
        }).audience_timezones,
      ).toEqual({ 'America/New_York': 1 });
      expect(fitTimingModel([], { platform: 'profnet', timezone: 'UTC' }).audience_timezones).toBeNull();
    });

    it('mixes zones by share: a mostly-New-York audience peaks on its morning, the curve keeps mean 1', () => {
      const m = fitTimingModel([], {
        platform: 'profnet',
        timezone: 'Europe/Paris',
        audienceZones: { 'America/New_York': 0.8, 'Europe/Paris': 0.2 },
        referenceTime: JAN,
      });
      const best = m.hour_effects.indexOf(Math.max(...m.hour_effects));
      expect(best).toBe(8 + 6); // 08:xx in New York is 14:xx in Paris
      const mean = m.hour_effects.reduce((a, b) => a + b, 0) / 24;
      expect(mean).toBeCloseTo(1, 2);
      // Slots stay on the calendar's clock: the best slot of a weekday is the shifted hour.
      expect(m.ranked()[0].hour).toBe(14);
    });

    it('the distribution is impression-weighted, normalised per post, and ignores unknown zones', () => {
      expect(
        audienceZoneDistribution([
          { impressions: 300, timezones: { 'America/New_York': 1 } },
          { impressions: 100, timezones: { 'Europe/Paris': 0.5, 'Asia/Tokyo': 0.5, 'Not/AZone': 5 } },
          { impressions: 0, timezones: { 'Europe/Paris': 1 } },
          { impressions: 50, timezones: null },
        ]),
      ).toEqual({ 'America/New_York': 0.75, 'Europe/Paris': 0.125, 'Asia/Tokyo': 0.125 });
      expect(audienceZoneDistribution([{ impressions: 10 }])).toEqual({});
    });
  });
});
