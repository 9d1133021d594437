/**
 * The timing model of a calendar: its published events with recorded
 * performance as observations, blended with the platform prior
 * (domain/calendar/timing.ts). Shared by generation (estimated performance),
 * series expansion, timing analysis, smart scheduling and analytics.
 */
import type { Knex } from 'knex';
import {
  audienceZoneDistribution,
  fitTimingModel,
  reachPotential,
  SlotEstimate,
  TimingModel,
} from '../../domain/calendar/timing';
import { weekdayName } from '../../domain/calendar/time';
import { performanceRows } from '../../projections/calendar-queries';

export async function calendarModel(
  db: Knex,
  calendarId: string,
  timezone: string,
  f: { platform?: string; content_type?: string; audience_segment?: string; from?: string; to?: string } = {},
): Promise<TimingModel> {
  const rows = await performanceRows(db, calendarId, {
    ...f,
    platform: f.platform && f.platform !== 'multi' ? f.platform : undefined,
  });
  // The audience zones recorded with the figures: the hour prior follows the audience's clock (docs/calendar.md).
  const audienceZones = audienceZoneDistribution(
    rows.map((r) => ({
      impressions: Number(r.performance?.impressions ?? 0),
      timezones: (r.audience as { timezones?: Record<string, number> } | null)?.timezones,
    })),
  );
  return fitTimingModel(
    rows.map((r) => ({
      at: r.published_at!,
      impressions: Number(r.performance?.impressions ?? 0),
      engagements: Number(r.performance?.engagements ?? 0),
    })),
    { platform: f.platform, timezone, audienceZones, referenceTime: Date.now() },
  );
}

/** What an estimate rests on, said in every answer that shows one. */
export const basisOf = (m: TimingModel, s: SlotEstimate) => ({
  model: 'timing-model-v1',
  description:
    "expected values of the calendar's timing model: its own recorded performance blended with the platform prior (docs/calendar.md); an estimate, not a measurement",
  platform: m.platform,
  slot: { day_of_week: weekdayName(s.weekday), hour: s.hour, timezone: m.timezone },
  audience_timezones: m.audience_timezones,
  observations: m.observations,
  prior_weight: m.prior_weight,
  confidence: s.confidence,
});

/** estimated_performance of a post at `at` (or at the model's best slot when it has no time). */
export function estimatedPerformance(m: TimingModel, at: string | null | undefined) {
  const s = at ? m.at(at) : m.ranked()[0];
  return {
    engagement_rate: s.engagement_rate,
    reach_potential: reachPotential(s.expected_reach, m.platform),
    expected_reach: s.expected_reach,
    basis: basisOf(m, s),
  };
}
