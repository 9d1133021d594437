/**
 * Platform priors of the timing model (docs/calendar.md "Timing model").
 *
 * These are PRIOR ASSUMPTIONS, not measurements: the starting belief about
 * when each kind of network's audience is active, used while a calendar has
 * little or no recorded performance of its own and outweighed by the
 * calendar's data as observations accrue (the blend in timing.ts). They
 * encode the common shape of audience activity (professional networks on
 * weekday working hours, photo and video networks in the evenings and at
 * weekends) and a typical order of magnitude of reach and engagement rate per
 * post; every answer built on them says how much weight they carried.
 */
export interface PlatformPrior {
  /** Engagements per impression of an average post. */
  engagement_rate: number;
  /** Impressions of an average post. */
  impressions: number;
  /** Activity peaks: [hour (local, may be fractional), height, width in hours]. */
  peaks: [number, number, number][];
  /** Relative activity Monday..Sunday. */
  weekdays: number[];
}

export const PRIORS: Record<string, PlatformPrior> = {
  profnet: {
    engagement_rate: 0.02,
    impressions: 1000,
    peaks: [
      [8.5, 1, 1.5],
      [12.5, 0.8, 1],
      [17.5, 0.7, 1.5],
    ],
    weekdays: [1.0, 1.15, 1.2, 1.15, 0.9, 0.45, 0.4],
  },
  socialnet: {
    engagement_rate: 0.015,
    impressions: 800,
    peaks: [
      [12.5, 0.8, 1.5],
      [20, 1, 2],
    ],
    weekdays: [0.95, 1.0, 1.05, 1.05, 1.0, 0.95, 1.0],
  },
  photonet: {
    engagement_rate: 0.03,
    impressions: 1200,
    peaks: [
      [12, 0.7, 1.5],
      [20.5, 1, 2],
    ],
    weekdays: [0.9, 0.95, 1.0, 1.0, 1.05, 1.05, 1.05],
  },
  microblog: {
    engagement_rate: 0.01,
    impressions: 600,
    peaks: [
      [8.5, 0.9, 1.5],
      [12.5, 0.8, 1],
      [18, 1, 2],
    ],
    weekdays: [1.05, 1.1, 1.1, 1.05, 1.0, 0.85, 0.85],
  },
  videonet: {
    engagement_rate: 0.04,
    impressions: 1500,
    peaks: [
      [16, 0.7, 2],
      [20.5, 1, 2.5],
    ],
    weekdays: [0.9, 0.9, 0.95, 1.0, 1.1, 1.15, 1.1],
  },
  adnet_ads: {
    engagement_rate: 0.008,
    impressions: 3000,
    peaks: [[14, 1, 5]],
    weekdays: [1.0, 1.0, 1.0, 1.0, 1.0, 0.95, 0.95],
  },
};

const BASELINE = 0.15;

/** Relative activity of each local hour 0..23 (mean 1) from a prior's peaks. */
export function hourCurve(p: PlatformPrior): number[] {
  const raw = Array.from({ length: 24 }, (_, h) =>
    p.peaks.reduce((a, [c, height, w]) => a + height * Math.exp(-((h + 0.5 - c) ** 2) / (2 * w * w)), BASELINE),
  );
  const mean = raw.reduce((a, b) => a + b, 0) / 24;
  return raw.map((x) => x / mean);
}

/** Relative activity of each weekday (ISO 1..7 at index 0..6, mean 1). */
export function weekdayCurve(p: PlatformPrior): number[] {
  const mean = p.weekdays.reduce((a, b) => a + b, 0) / 7;
  return p.weekdays.map((x) => x / mean);
}

/** The prior of a platform; `multi` and unknown platforms average every network's prior. */
export function priorOf(platform: string | undefined): PlatformPrior {
  const p = platform ? PRIORS[platform] : undefined;
  if (p) return p;
  const all = Object.values(PRIORS);
  const avg = (f: (x: PlatformPrior) => number) => all.reduce((a, x) => a + f(x), 0) / all.length;
  return {
    engagement_rate: avg((x) => x.engagement_rate),
    impressions: avg((x) => x.impressions),
    peaks: all.flatMap((x) => x.peaks.map(([c, h, w]) => [c, h / all.length, w] as [number, number, number])),
    weekdays: [0, 1, 2, 3, 4, 5, 6].map((d) => avg((x) => x.weekdays[d])),
  };
}
