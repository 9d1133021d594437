/** Per-stream de-duplication: any arrival order, with repeats, applies every position exactly once. */
import { isApplied, markApplied } from '../../../projections/runner';

function rng(seed: number) {
  let x = seed >>> 0;
  return () => ((x = (x * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

describe('stream position tracking', () => {
  it('applies in-order events once and skips repeats', () => {
    const st = { position: -1, pending: new Set<number>() };
    const applied: number[] = [];
    for (const p of [0, 1, 2, 1, 0, 3, 3]) {
      if (isApplied(st, p)) continue;
      markApplied(st, p);
      applied.push(p);
    }
    expect(applied).toEqual([0, 1, 2, 3]);
    expect(st).toEqual({ position: 3, pending: new Set() });
  });

  it('an event whose position is lower than one already applied is still applied (commit order ≠ stream order)', () => {
    const st = { position: -1, pending: new Set<number>() };
    markApplied(st, 1);
    expect(isApplied(st, 0)).toBe(false);
    markApplied(st, 0);
    expect(st).toEqual({ position: 1, pending: new Set() });
    expect(isApplied(st, 0) && isApplied(st, 1)).toBe(true);
  });

  it('property: 500 random shuffles with duplicates apply each of 0..n-1 exactly once', () => {
    const r = rng(42);
    for (let trial = 0; trial < 500; trial++) {
      const n = 1 + Math.floor(r() * 30);
      const arrivals = Array.from({ length: n }, (_, i) => i);
      for (let i = 0; i < n; i++) if (r() < 0.4) arrivals.push(Math.floor(r() * n));
      // local disorder only, like racing transactions: swap neighbours
      for (let i = 0; i + 1 < arrivals.length; i++) if (r() < 0.3) [arrivals[i], arrivals[i + 1]] = [arrivals[i + 1], arrivals[i]];
      const st = { position: -1, pending: new Set<number>() };
      const count = new Map<number, number>();
      for (const p of arrivals) {
        if (isApplied(st, p)) continue;
        markApplied(st, p);
        count.set(p, (count.get(p) ?? 0) + 1);
      }
      expect([...count.values()].every((c) => c === 1)).toBe(true);
      expect(count.size).toBe(n);
      expect(st.position).toBe(n - 1);
      expect(st.pending.size).toBe(0);
    }
  });
});
