/** Trends and projections against values computed by hand. */
import { buildTrends, elapsedFraction, lastPeriods, projectMonth, trendOf } from '../../../domain/subscription/trends';

describe('trends', () => {
  it('lists the last months oldest first across a year boundary', () => {
    expect(lastPeriods('2026-02', 4)).toEqual(['2025-11', '2025-12', '2026-01', '2026-02']);
    expect(lastPeriods('2026-11', 1)).toEqual(['2026-11']);
  });

  it('8 months of usage with an empty month in the middle', () => {
    const periods = lastPeriods('2026-08', 8); // 2026-01 .. 2026-08
    const usage = new Map([
      ['2026-01', [{ provider: 'vendor_a', calls: 10, cost: 1 }]],
      ['2026-02', [{ provider: 'vendor_a', calls: 12, cost: 1.2 }]],
      [
        '2026-03',
        [
          { provider: 'vendor_a', calls: 14, cost: 1.4 },
          { provider: 'vendor_b', calls: 2, cost: 0.6 },
        ],
      ],
      ['2026-04', [{ provider: 'vendor_a', calls: 16, cost: 1.6 }]],
      // 2026-05: nothing
      ['2026-06', [{ provider: 'vendor_a', calls: 20, cost: 2 }]],
      ['2026-07', [{ provider: 'vendor_a', calls: 22, cost: 2.2 }]],
      ['2026-08', [{ provider: 'vendor_a', calls: 24, cost: 2.4 }]],
    ]);
    const t = buildTrends(periods, usage);
    expect(t.periods.map((p) => p.period)).toEqual([
      '2026-01',
      '2026-02',
      '2026-03',
      '2026-04',
      '2026-05',
      '2026-06',
      '2026-07',
      '2026-08',
    ]);
    expect(t.periods[4]).toEqual({ period: '2026-05', total_calls: 0, total_cost: 0, provider_breakdown: {} });
    expect(t.periods[2]).toEqual({
      period: '2026-03',
      total_calls: 16,
      total_cost: 2,
      provider_breakdown: { vendor_a: { calls: 14, cost: 1.4 }, vendor_b: { calls: 2, cost: 0.6 } },
    });
    // calls y = 10,12,16,16,0,20,22,24: mean 15; Σ(x−3.5)(y−15) = 66, Σ(x−3.5)² = 42; slope 1.5714; /15 = 0.1048 > 0.05
    expect(t.trends.calls_trend).toBe('increasing');
    expect(t.trends.cost_trend).toBe('increasing');
  });

  it('stable and decreasing by the 5 % rule', () => {
    expect(trendOf([100, 101, 99, 100, 102, 100])).toBe('stable'); // slope 0.1429 / mean 100.33 = 0.0014
    expect(trendOf([10, 8, 6, 4])).toBe('decreasing'); // slope −2 / mean 7 = −0.286
    expect(trendOf([0, 0, 0])).toBe('stable');
    expect(trendOf([5])).toBe('stable');
    expect(trendOf([100, 104])).toBe('stable'); // slope 4 / mean 102 = 0.039
    expect(trendOf([100, 112])).toBe('increasing'); // 12 / 106 = 0.113
  });
});

describe('month-end projections', () => {
  it('extrapolates linearly from the elapsed part of the month', () => {
    // November has 30 days; at 12:00 on the 10th, 9.5 days = 0.316667 of the month have elapsed.
    const now = new Date('2026-11-10T12:00:00Z');
    expect(elapsedFraction(now)).toBeCloseTo(9.5 / 30, 10);
    // cost 9.50 so far → 9.50 / (9.5/30) = 30.00; calls 38 of 100 → 120 projected = 120 %; tokens 19,000 of 100,000 → 60 %
    const p = projectMonth(now, 9.5, { vendor_a_calls: 38, tokens: 19000 }, { vendor_a_calls: 100, tokens: 100000 });
    expect(p).toEqual({ projected_monthly_cost: 30, projected_usage_percentage: 120 });
  });

  it('counts at least one hour at the start of a month', () => {
    const now = new Date('2026-12-01T00:00:05Z');
    expect(elapsedFraction(now)).toBeCloseTo(1 / (31 * 24), 10);
    expect(projectMonth(now, 0, {}, { tokens: 1000 })).toEqual({
      projected_monthly_cost: 0,
      projected_usage_percentage: 0,
    });
  });
});
