/**
 * Campaign performance (pure): the events linked by metadata.campaign_id
 * against the campaign's budget, timeline, platforms and content mix.
 *
 * - metrics: sums of the latest recorded figures, with rates;
 * - budget: the budget amount per recorded result (cost per engagement, per
 *   click, per 1,000 impressions). Spend is not tracked, so these are
 *   "budget per result", said in `basis`;
 * - timeline: elapsed share of the timeline (local dates of the calendar's
 *   zone) against the share of the campaign's events already published:
 *   pacing `ahead` / `on_track` (within 10 points) / `behind`;
 * - platforms and content mix: planned against actual.
 */
import { DateTime } from 'luxon';
import type { CampaignFields, PerformanceMetrics } from '../events/calendar';
import { rate } from './performance';

export interface CampaignEvent {
  status: string;
  platform: string;
  content_type: string;
  at: string | null;
  metrics: PerformanceMetrics | null;
}

export function campaignPerformance(
  c: Pick<CampaignFields, 'budget' | 'timeline' | 'content_strategy'>,
  events: CampaignEvent[],
  now: Date,
  zone: string,
) {
  const live = events.filter((e) => e.status !== 'cancelled');
  const byStatus: Record<string, number> = {};
  for (const e of events) byStatus[e.status] = (byStatus[e.status] ?? 0) + 1;
  const sum = (k: keyof PerformanceMetrics) => events.reduce((a, e) => a + (e.metrics?.[k] ?? 0), 0);
  const impressions = sum('impressions');
  const engagements = sum('engagements');
  const clicks = sum('clicks');
  const published = events.filter((e) => e.status === 'published').length;
  const per = (n: number, scale = 1) =>
    c.budget && n > 0 ? Math.round((c.budget.amount / n) * scale * 100) / 100 : null;

  let timeline = null;
  if (c.timeline) {
    const today = DateTime.fromJSDate(now).setZone(zone).toISODate()!;
    const start = DateTime.fromISO(c.timeline.start_date, { zone });
    const end = DateTime.fromISO(c.timeline.end_date, { zone }).plus({ days: 1 });
    const total = Math.max(1, Math.round(end.diff(start, 'days').days));
    const elapsed = Math.min(
      total,
      Math.max(0, Math.round(DateTime.fromJSDate(now).setZone(zone).diff(start, 'days').days * 10) / 10),
    );
    const elapsedFraction = Math.round((elapsed / total) * 1000) / 1000;
    const publishedFraction = live.length ? Math.round((published / live.length) * 1000) / 1000 : 0;
    const pacing =
      today < c.timeline.start_date
        ? 'not_started'
        : today > c.timeline.end_date
          ? 'ended'
          : publishedFraction >= elapsedFraction + 0.1
            ? 'ahead'
            : publishedFraction <= elapsedFraction - 0.1
              ? 'behind'
              : 'on_track';
    timeline = {
      start_date: c.timeline.start_date,
      end_date: c.timeline.end_date,
      days_total: total,
      days_elapsed: elapsed,
      elapsed_fraction: elapsedFraction,
      published_fraction: publishedFraction,
      pacing,
      milestones: (c.timeline.milestones ?? []).map((m) => ({
        ...m,
        status: m.date < today ? 'passed' : m.date === today ? 'today' : 'upcoming',
        events_due_before: live.filter((e) => e.at && DateTime.fromISO(e.at).setZone(zone).toISODate()! <= m.date)
          .length,
      })),
    };
  }
  const planned = c.budget?.platforms ?? [];
  const actualPlatforms: Record<string, number> = {};
  for (const e of live) actualPlatforms[e.platform] = (actualPlatforms[e.platform] ?? 0) + 1;
  const mix = c.content_strategy?.content_mix ?? {};
  const types: Record<string, number> = {};
  for (const e of live) types[e.content_type] = (types[e.content_type] ?? 0) + 1;
  const actualMix = Object.fromEntries(
    Object.entries(types).map(([k, n]) => [k, Math.round((n / live.length) * 1000) / 10]),
  );
  return {
    events: { total: events.length, published, by_status: byStatus },
    metrics: {
      impressions,
      reach: sum('reach'),
      engagements,
      clicks,
      engagement_rate: rate(engagements, impressions),
      click_through_rate: rate(clicks, impressions),
      measured_events: events.filter((e) => e.metrics).length,
    },
    budget: c.budget
      ? {
          amount: c.budget.amount,
          currency: c.budget.currency,
          per_engagement: per(engagements),
          per_click: per(clicks),
          per_thousand_impressions: per(impressions, 1000),
          basis: 'budget amount divided by the recorded results (spend is not tracked)',
        }
      : null,
    timeline,
    platforms: {
      planned,
      actual: actualPlatforms,
      unused: planned.filter((p) => !actualPlatforms[p]),
      unplanned: Object.keys(actualPlatforms).filter((p) => planned.length && !planned.includes(p)),
    },
    content_mix: {
      target: mix,
      actual: actualMix,
      deviation: Object.fromEntries(
        [...new Set([...Object.keys(mix), ...Object.keys(actualMix)])].map((k) => [
          k,
          Math.round(((actualMix[k] ?? 0) - (mix[k] ?? 0)) * 10) / 10,
        ]),
      ),
    },
  };
}
