/**
 * The soak's RSS growth rule (scripts/bench/lib.ts rssGrowth): window medians
 * after the warm-up, so one sample's garbage-collection timing neither hides
 * nor invents growth; a steady climb to the end is still growth.
 */
import { rssGrowth } from '../../../scripts/bench/lib';

const series = (mib: (i: number) => number, n = 20) =>
  Array.from({ length: n }, (_, i) => ({ at_s: (i + 1) * 30, mib: mib(i) }));

describe('soak RSS growth', () => {
  it('a leak (steady climb) is growth, with a positive trend', () => {
    const g = rssGrowth(series((i) => 200 + i * 4));
    expect(g.percent).toBeGreaterThan(10);
    expect(g.trendPer10Min).toBeCloseTo(80, 0);
  });

  it('warm-up growth does not count; a flat process is 0 %', () => {
    const g = rssGrowth(series((i) => (i < 4 ? 100 + i * 50 : 300)));
    expect(g.percent).toBe(0);
    expect(g.baseline_s).toEqual([150, 240]);
    expect(g.end_s).toEqual([510, 600]);
  });

  it('one low sample right after the warm-up does not make a flat process grow', () => {
    const g = rssGrowth(series((i) => (i === 3 ? 150 : 174)));
    expect(g.singlePercent).toBeGreaterThan(10); // what a single-sample rule would report
    expect(g.percent).toBe(0);
    expect(g.trendPer10Min).toBe(0);
  });
});
