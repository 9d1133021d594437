/**
 * Performance figures of events and calendars (pure): rates, a relative
 * performance score against the calendar's averages, rule-based suggestions,
 * and the analytics aggregation (per local period, platform, content type).
 *
 * Rates: engagement_rate = engagements / impressions; click_through_rate =
 * clicks / impressions (0 without impressions). performance_score: 50 is the
 * calendar's average post; 0.6 of it from the engagement-rate ratio and 0.4
 * from the impressions ratio, each capped at 2x (100 = twice the average on
 * both). With no other measured event the platform prior is the comparison.
 */
import type { PerformanceMetrics } from '../events/calendar';
import { priorOf } from './priors';
import type { TimingModel } from './timing';
import { GroupBy, periodKey, weekdayName } from './time';

export const rate = (num: number, den: number) => (den > 0 ? Math.round((num / den) * 1e5) / 1e5 : 0);

export function metricsWithRates(m: PerformanceMetrics) {
  return {
    ...m,
    engagement_rate: rate(m.engagements, m.impressions),
    click_through_rate: rate(m.clicks, m.impressions),
  };
}

export interface Baseline {
  engagement_rate: number;
  impressions: number;
  click_through_rate: number;
  events: number;
  source: 'calendar_average' | 'platform_prior';
}

/** The calendar's averages over measured events (others than the one judged), else the platform prior. */
export function baselineOf(others: PerformanceMetrics[], platform: string): Baseline {
  if (!others.length) {
    const p = priorOf(platform);
    return {
      engagement_rate: p.engagement_rate,
      impressions: p.impressions,
      click_through_rate: 0,
      events: 0,
      source: 'platform_prior',
    };
  }
  const sum = (f: (m: PerformanceMetrics) => number) => others.reduce((a, m) => a + f(m), 0);
  return {
    engagement_rate: rate(
      sum((m) => m.engagements),
      sum((m) => m.impressions),
    ),
    impressions: Math.round(sum((m) => m.impressions) / others.length),
    click_through_rate: rate(
      sum((m) => m.clicks),
      sum((m) => m.impressions),
    ),
    events: others.length,
    source: 'calendar_average',
  };
}

export function performanceScore(m: PerformanceMetrics, b: Baseline): number {
  const er = b.engagement_rate > 0 ? Math.min(2, rate(m.engagements, m.impressions) / b.engagement_rate) : 1;
  const imp = b.impressions > 0 ? Math.min(2, m.impressions / b.impressions) : 1;
  return Math.round(((0.6 * er + 0.4 * imp) / 2) * 1000) / 10;
}

/** Suggestions derived by rules from the comparison with the baseline and the timing model. */
export function suggestions(
  m: PerformanceMetrics,
  b: Baseline,
  ctx: { published_at: string | null; hashtags: number; model: TimingModel },
): string[] {
  const out: string[] = [];
  const er = rate(m.engagements, m.impressions);
  const ctr = rate(m.clicks, m.impressions);
  const against = b.source === 'calendar_average' ? 'the calendar average' : "the platform prior's typical post";
  const pct = (x: number) => `${Math.round(Math.abs(x) * 100)}%`;
  if (b.engagement_rate > 0 && er < 0.8 * b.engagement_rate)
    out.push(
      `Engagement rate ${pct(er)} is ${pct(1 - er / b.engagement_rate)} below ${against} (${pct(b.engagement_rate)}): open with a stronger hook or a question.`,
    );
  if (b.engagement_rate > 0 && er > 1.2 * b.engagement_rate)
    out.push(`Engagement rate is ${pct(er / b.engagement_rate - 1)} above ${against}: reuse this format and topic.`);
  if (b.impressions > 0 && m.impressions < 0.7 * b.impressions)
    out.push(
      `Impressions are ${pct(1 - m.impressions / b.impressions)} below ${against}: post in a better slot or boost distribution.`,
    );
  if (b.click_through_rate > 0 && ctr < 0.7 * b.click_through_rate)
    out.push(`Click-through rate is below ${against}: add a clear call to action and a link.`);
  if (ctx.hashtags === 0) out.push('The post has no hashtags: add a few relevant ones to widen discovery.');
  if (ctx.published_at) {
    const at = ctx.model.at(ctx.published_at);
    const best = ctx.model.ranked()[0];
    if (at.performance_score < 70 && (best.weekday !== at.weekday || best.hour !== at.hour))
      out.push(
        `Published ${weekdayName(at.weekday)} ${at.hour}:00 (${ctx.model.timezone}); the timing model rates ${weekdayName(best.weekday)} ${best.hour}:00 higher (score ${best.performance_score} vs ${at.performance_score}).`,
      );
  }
  if (!out.length) out.push(`Performance is in line with ${against}.`);
  return out;
}

export interface AnalyticsEvent {
  platform: string;
  content_type: string;
  status: string;
  at: string | null;
  metrics: PerformanceMetrics | null;
}

interface Bucket {
  events: number;
  published: number;
  measured: number;
  impressions: number;
  engagements: number;
  clicks: number;
}
const empty = (): Bucket => ({ events: 0, published: 0, measured: 0, impressions: 0, engagements: 0, clicks: 0 });
function add(b: Bucket, e: AnalyticsEvent) {
  b.events++;
  if (e.status === 'published') b.published++;
  if (e.metrics) {
    b.measured++;
    b.impressions += e.metrics.impressions;
    b.engagements += e.metrics.engagements;
    b.clicks += e.metrics.clicks;
  }
}
const withRate = (b: Bucket) => ({ ...b, engagement_rate: rate(b.engagements, b.impressions) });

export function aggregate(events: AnalyticsEvent[], zone: string, groupBy: GroupBy) {
  const total = empty();
  const periods = new Map<string, Bucket>();
  const platforms = new Map<string, Bucket>();
  const types = new Map<string, Bucket>();
  for (const e of events) {
    add(total, e);
    if (e.at) {
      const k = periodKey(e.at, zone, groupBy);
      if (!periods.has(k)) periods.set(k, empty());
      add(periods.get(k)!, e);
    }
    if (!platforms.has(e.platform)) platforms.set(e.platform, empty());
    add(platforms.get(e.platform)!, e);
    if (!types.has(e.content_type)) types.set(e.content_type, empty());
    add(types.get(e.content_type)!, e);
  }
  const measuredTypes = [...types.entries()].filter(([, b]) => b.measured > 0 && b.impressions > 0);
  measuredTypes.sort(
    (a, b) =>
      rate(b[1].engagements, b[1].impressions) - rate(a[1].engagements, a[1].impressions) || a[0].localeCompare(b[0]),
  );
  return {
    summary: {
      total_events: total.events,
      published_events: total.published,
      measured_events: total.measured,
      total_impressions: total.impressions,
      total_engagements: total.engagements,
      total_clicks: total.clicks,
      average_engagement_rate: rate(total.engagements, total.impressions),
    },
    performance_trends: [...periods.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([period, b]) => ({ period, ...withRate(b) })),
    platform_breakdown: Object.fromEntries([...platforms.entries()].map(([k, b]) => [k, withRate(b)])),
    by_content_type: Object.fromEntries([...types.entries()].map(([k, b]) => [k, withRate(b)])),
    best_performing_type: measuredTypes[0]?.[0] ?? null,
    worst_performing_type: measuredTypes.length > 1 ? measuredTypes[measuredTypes.length - 1][0] : null,
  };
}
