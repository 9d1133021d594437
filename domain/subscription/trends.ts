/**
 * Usage trends and month-end projections (pure; documented in docs/subscription.md).
 *
 * Trend rule: fit a least-squares line through the monthly values (oldest
 * first, x = 0..n-1). The relative slope is slope / mean of the values.
 * Above +5 % per month → "increasing", below −5 % → "decreasing", otherwise
 * "stable". All-zero series and fewer than two months → "stable".
 *
 * Projection method: linear extrapolation of the current period. Elapsed
 * fraction = (now − start of month) / (length of month), at least one hour of
 * the month, so a brand-new period does not divide by ~0.
 * projected_monthly_cost = cost so far / elapsed fraction;
 * projected_usage_percentage = the largest, over limit keys, of
 * (usage so far / elapsed fraction) / limit × 100.
 */
export type TrendWord = 'increasing' | 'stable' | 'decreasing';

export const TREND_THRESHOLD = 0.05;

export function trendOf(values: number[]): TrendWord {
  const n = values.length;
  if (n < 2) return 'stable';
  const mean = values.reduce((a, b) => a + b, 0) / n;
  if (mean === 0) return 'stable';
  const xMean = (n - 1) / 2;
  let num = 0;
  let den = 0;
  values.forEach((y, x) => {
    num += (x - xMean) * (y - mean);
    den += (x - xMean) ** 2;
  });
  const relative = num / den / mean;
  return relative > TREND_THRESHOLD ? 'increasing' : relative < -TREND_THRESHOLD ? 'decreasing' : 'stable';
}

/** The `months` billing periods ending with `current` (YYYY-MM), oldest first. */
export function lastPeriods(current: string, months: number): string[] {
  const [y, m] = current.split('-').map(Number);
  const out: string[] = [];
  for (let i = months - 1; i >= 0; i--) {
    const d = new Date(Date.UTC(y, m - 1 - i, 1));
    out.push(d.toISOString().slice(0, 7));
  }
  return out;
}

export interface PeriodUsage {
  provider: string;
  calls: number;
  cost: number;
}

export interface TrendPeriod {
  period: string;
  total_calls: number;
  total_cost: number;
  provider_breakdown: Record<string, { calls: number; cost: number }>;
}

const money = (x: number) => Math.round(x * 1e6) / 1e6;

/** One entry per period (zeros where nothing was used) and the two trend words. */
export function buildTrends(
  periods: string[],
  usage: Map<string, PeriodUsage[]>,
): { periods: TrendPeriod[]; trends: { calls_trend: TrendWord; cost_trend: TrendWord } } {
  const rows = periods.map((period) => {
    const list = usage.get(period) ?? [];
    const provider_breakdown: TrendPeriod['provider_breakdown'] = {};
    for (const u of list) provider_breakdown[u.provider] = { calls: u.calls, cost: money(u.cost) };
    return {
      period,
      total_calls: list.reduce((a, u) => a + u.calls, 0),
      total_cost: money(list.reduce((a, u) => a + u.cost, 0)),
      provider_breakdown,
    };
  });
  return {
    periods: rows,
    trends: {
      calls_trend: trendOf(rows.map((r) => r.total_calls)),
      cost_trend: trendOf(rows.map((r) => r.total_cost)),
    },
  };
}

/** Fraction of the UTC month of `now` that has elapsed (at least one hour's worth). */
export function elapsedFraction(now: Date): number {
  const start = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
  const end = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  return Math.max(now.getTime() - start, 3600_000) / (end - start);
}

export function projectMonth(
  now: Date,
  costSoFar: number,
  usageSoFar: Record<string, number>,
  limits: Record<string, number | undefined>,
): { projected_monthly_cost: number; projected_usage_percentage: number } {
  const f = elapsedFraction(now);
  let pct = 0;
  for (const [key, limit] of Object.entries(limits)) {
    if (!limit) continue;
    pct = Math.max(pct, ((usageSoFar[key] ?? 0) / f / limit) * 100);
  }
  return {
    projected_monthly_cost: Math.round((costSoFar / f) * 100) / 100,
    projected_usage_percentage: Math.round(pct * 10) / 10,
  };
}
