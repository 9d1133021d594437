/**
 * The timing model: expected reach and engagements of a post by local weekday
 * and hour, learnt from the calendar's own recorded performance and blended
 * with a platform prior (priors.ts) while history is thin.
 *
 * Model (docs/calendar.md "Timing model"). Every published event with
 * recorded figures is an observation (published_at → weekday and hour in the
 * calendar's zone, DST-correct; impressions; engagements). For each quantity y
 * (engagements, impressions):
 *
 *   base     = (Σ y_i + K·y_prior) / (n + K)                 shrunk calendar mean per post
 *   y(d, h)  = base · H[h] · D[d]                            multiplicative hour and weekday effects
 *   H[h]     = (Σ_{i at h} q_i / D[d_i] + k·Hprior[h]) / (n_h + k),   q_i = y_i / base
 *   D[d]     = (Σ_{i on d} q_i / H[h_i] + k·Dprior[d]) / (n_d + k)
 *
 * (backfitting, a few rounds). Each effect is the posterior mean of a
 * normal model whose prior is the platform curve worth k observations, so
 * the data's weight n/(n + k) grows with the number of observations; the
 * factorisation lets 24 + 7 effects be learnt from far fewer posts than the
 * 168 slots. `confidence` of a slot is the mean data weight of its hour and
 * weekday: 0 with no history, towards 1 as observations accumulate.
 *
 * Audience time zone. The platform priors describe when people are active on
 * their own clock. When the calendar's figures record where the audience is
 * (`audience.timezones`, weighted by impressions), the hour prior is that
 * audience's: each zone's curve is moved onto the calendar's clock by the
 * zone's offset from the calendar's zone (at the reference time) and the
 * curves are mixed by share. So an audience six hours west of the calendar
 * peaks six hours later on the calendar's clock. Observations and the slots
 * the model answers stay on the calendar's clock (the clock scheduling and
 * working hours use); the data's own hour effects absorb any constant shift.
 */
import { DateTime } from 'luxon';
import { hourCurve, priorOf, weekdayCurve } from './priors';
import { isIanaZone, weekdayHour } from './time';

export interface Observation {
  /** When the post went out (published_at). */
  at: string;
  impressions: number;
  engagements: number;
}

export interface SlotEstimate {
  /** ISO weekday 1 (Monday) .. 7 (Sunday). */
  weekday: number;
  hour: number;
  expected_reach: number;
  expected_engagements: number;
  engagement_rate: number;
  /** Expected engagements relative to the calendar's best slot, 0..100. */
  performance_score: number;
  /** Weight of the calendar's own data in this slot's estimate, 0..1. */
  confidence: number;
}

export interface TimingModel {
  platform: string;
  /** The calendar's zone: the clock of every slot. */
  timezone: string;
  /** Audience zones the hour prior follows (recorded shares), or null: the calendar's own zone. */
  audience_timezones: Record<string, number> | null;
  observations: number;
  /** Weight of the prior in the calendar baseline, K / (n + K). */
  prior_weight: number;
  /** Relative hour and weekday effects on engagements (1 = an average slot). */
  hour_effects: number[];
  weekday_effects: number[];
  /** Observations per local hour and weekday. */
  hour_counts: number[];
  weekday_counts: number[];
  slot(weekday: number, hour: number): SlotEstimate;
  /** The estimate for the local slot an instant falls in. */
  at(iso: string | number): SlotEstimate;
  /** All 168 slots, best first. */
  ranked(): SlotEstimate[];
}

export interface TimingOptions {
  platform?: string;
  timezone: string;
  /** Prior strength of each hour and weekday effect, in observations (default 4). */
  k?: number;
  /** Prior strength of the calendar baseline, in observations (default 5). */
  K?: number;
  /** Recorded audience zones and their shares (audienceZoneDistribution); absent or empty: the calendar's zone. */
  audienceZones?: Record<string, number>;
  /** Instant (ms) at which zone offsets are taken (DST); required with audienceZones. */
  referenceTime?: number;
}

/** Impression-weighted shares of the audience zones recorded with performance figures (valid IANA zones only). */
export function audienceZoneDistribution(
  figures: { impressions: number; timezones?: Record<string, number> | null }[],
): Record<string, number> {
  const zones: Record<string, number> = {};
  let weight = 0;
  for (const f of figures) {
    const entries = Object.entries(f.timezones ?? {}).filter(
      ([z, v]) => isIanaZone(z) && typeof v === 'number' && Number.isFinite(v) && v > 0,
    );
    const total = entries.reduce((a, [, v]) => a + v, 0);
    if (!f.impressions || f.impressions <= 0 || total <= 0) continue;
    weight += f.impressions;
    for (const [z, v] of entries) zones[z] = (zones[z] ?? 0) + (v / total) * f.impressions;
  }
  if (weight <= 0) return {};
  return Object.fromEntries(Object.entries(zones).map(([z, v]) => [z, Math.round((v / weight) * 1000) / 1000]));
}

/** Offset of `zone` from `calendarZone` in hours at `at` (positive: the zone's clock is ahead). */
const offsetHours = (zone: string, calendarZone: string, at: number) =>
  (DateTime.fromMillis(at, { zone }).offset - DateTime.fromMillis(at, { zone: calendarZone }).offset) / 60;

/**
 * The hour prior on the calendar's clock for an audience spread over `zones`: calendar hour h is audience hour
 * h + offset in each zone (linear interpolation for half-hour zones), mixed by share.
 */
export function audienceHourCurve(
  curve: number[],
  zones: Record<string, number>,
  calendarZone: string,
  at: number,
): number[] {
  const valid = Object.entries(zones).filter(([z, w]) => isIanaZone(z) && w > 0);
  const total = valid.reduce((a, [, w]) => a + w, 0);
  if (total <= 0) return [...curve];
  const at24 = (x: number) => {
    const lo = Math.floor(x);
    const f = x - lo;
    const i = ((lo % 24) + 24) % 24;
    return curve[i] * (1 - f) + curve[(i + 1) % 24] * f;
  };
  return Array.from({ length: 24 }, (_, h) =>
    valid.reduce((a, [z, w]) => a + (w / total) * at24(h + offsetHours(z, calendarZone, at)), 0),
  );
}

interface Fitted {
  base: number;
  H: number[];
  D: number[];
}

function fit(
  points: { d: number; h: number; y: number }[],
  priorMean: number,
  Hp: number[],
  Dp: number[],
  k: number,
  K: number,
): Fitted {
  const n = points.length;
  const base = (points.reduce((a, p) => a + p.y, 0) + K * priorMean) / (n + K);
  const H = [...Hp];
  const D = [...Dp];
  if (n === 0 || base <= 0) return { base: Math.max(base, 0), H, D };
  for (let round = 0; round < 6; round++) {
    const hs = new Array(24).fill(0);
    const hn = new Array(24).fill(0);
    for (const p of points) {
      hs[p.h] += p.y / base / D[p.d];
      hn[p.h]++;
    }
    for (let h = 0; h < 24; h++) H[h] = (hs[h] + k * Hp[h]) / (hn[h] + k);
    const ds = new Array(7).fill(0);
    const dn = new Array(7).fill(0);
    for (const p of points) {
      ds[p.d] += p.y / base / H[p.h];
      dn[p.d]++;
    }
    for (let d = 0; d < 7; d++) D[d] = (ds[d] + k * Dp[d]) / (dn[d] + k);
  }
  return { base, H, D };
}

export function fitTimingModel(observations: Observation[], opts: TimingOptions): TimingModel {
  const k = opts.k ?? 4;
  const K = opts.K ?? 5;
  const prior = priorOf(opts.platform);
  const zones = opts.audienceZones && Object.keys(opts.audienceZones).length ? opts.audienceZones : undefined;
  if (zones && opts.referenceTime === undefined) throw new Error('fitTimingModel: audienceZones need a referenceTime');
  const Hp = zones ? audienceHourCurve(hourCurve(prior), zones, opts.timezone, opts.referenceTime!) : hourCurve(prior);
  const Dp = weekdayCurve(prior);
  const pts = observations
    .filter((o) => Number.isFinite(o.impressions) && o.impressions >= 0 && o.engagements >= 0)
    .map((o) => {
      const { weekday, hour } = weekdayHour(o.at, opts.timezone);
      return { d: weekday - 1, h: hour, imp: o.impressions, eng: o.engagements };
    });
  const eng = fit(
    pts.map((p) => ({ d: p.d, h: p.h, y: p.eng })),
    prior.impressions * prior.engagement_rate,
    Hp,
    Dp,
    k,
    K,
  );
  const reach = fit(
    pts.map((p) => ({ d: p.d, h: p.h, y: p.imp })),
    prior.impressions,
    Hp,
    Dp,
    k,
    K,
  );
  const hourCounts = new Array(24).fill(0);
  const dayCounts = new Array(7).fill(0);
  for (const p of pts) {
    hourCounts[p.h]++;
    dayCounts[p.d]++;
  }
  const raw = (d: number, h: number) => eng.base * eng.H[h] * eng.D[d];
  let best = 0;
  for (let d = 0; d < 7; d++) for (let h = 0; h < 24; h++) best = Math.max(best, raw(d, h));
  const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;
  const slot = (weekday: number, hour: number): SlotEstimate => {
    const d = weekday - 1;
    const e = raw(d, hour);
    const r = reach.base * reach.H[hour] * reach.D[d];
    const w = (n: number) => n / (n + k);
    return {
      weekday,
      hour,
      expected_reach: Math.round(r),
      expected_engagements: round(e, 2),
      engagement_rate: r > 0 ? round(e / r, 5) : 0,
      performance_score: best > 0 ? round((100 * e) / best, 1) : 0,
      confidence: round((w(hourCounts[hour]) + w(dayCounts[d])) / 2, 3),
    };
  };
  return {
    platform: opts.platform ?? 'multi',
    timezone: opts.timezone,
    audience_timezones: zones ?? null,
    observations: pts.length,
    prior_weight: round(K / (pts.length + K), 3),
    hour_effects: eng.H.map((x) => round(x, 3)),
    weekday_effects: eng.D.map((x) => round(x, 3)),
    hour_counts: hourCounts,
    weekday_counts: dayCounts,
    slot,
    at(iso) {
      const { weekday, hour } = weekdayHour(iso, opts.timezone);
      return slot(weekday, hour);
    },
    ranked() {
      const all: SlotEstimate[] = [];
      for (let w = 1; w <= 7; w++) for (let h = 0; h < 24; h++) all.push(slot(w, h));
      return all.sort(
        (a, b) => b.expected_engagements - a.expected_engagements || a.weekday - b.weekday || a.hour - b.hour,
      );
    },
  };
}

/** Coarse reach class of a slot against the platform prior's typical post: low / medium / high. */
export function reachPotential(expectedReach: number, platform: string | undefined): 'low' | 'medium' | 'high' {
  const typical = priorOf(platform).impressions;
  return expectedReach >= typical * 1.15 ? 'high' : expectedReach >= typical * 0.75 ? 'medium' : 'low';
}
