/** Retry schedule: the ARCHITECTURE.md waits, deterministic bounded jitter, Retry-After as a lower bound. */
import {
  DEFAULT_SCHEDULE_SECONDS,
  delayBeforeAttempt,
  jitterFactor,
  MAX_RETRY_AFTER_SECONDS,
  nextDelay,
  parseRetryAfter,
  parseSchedule,
} from '../../../domain/webhooks/schedule';

describe('webhook retry schedule', () => {
  it('is immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h', () => {
    expect(DEFAULT_SCHEDULE_SECONDS).toEqual([
      0,
      5,
      5 * 60,
      30 * 60,
      2 * 3600,
      5 * 3600,
      10 * 3600,
      14 * 3600,
      20 * 3600,
      24 * 3600,
    ]);
  });

  it('jitters each wait by at most ±10 %, the same way every time for the same delivery and attempt', () => {
    const ids = Array.from({ length: 200 }, (_, i) => `delivery-${i}`);
    for (const id of ids) {
      for (let a = 1; a <= DEFAULT_SCHEDULE_SECONDS.length; a++) {
        const d = delayBeforeAttempt(DEFAULT_SCHEDULE_SECONDS, id, a)!;
        const base = DEFAULT_SCHEDULE_SECONDS[a - 1] * 1000;
        expect(d).toBeGreaterThanOrEqual(Math.floor(base * 0.9));
        expect(d).toBeLessThanOrEqual(Math.ceil(base * 1.1));
        expect(delayBeforeAttempt(DEFAULT_SCHEDULE_SECONDS, id, a)).toBe(d);
      }
    }
    expect(delayBeforeAttempt(DEFAULT_SCHEDULE_SECONDS, 'x', 1)).toBe(0);
    expect(delayBeforeAttempt(DEFAULT_SCHEDULE_SECONDS, 'x', 11)).toBeUndefined();
    // Spread: different deliveries do not all retry at the same instant.
    const waits = new Set(ids.map((id) => delayBeforeAttempt(DEFAULT_SCHEDULE_SECONDS, id, 3)));
    expect(waits.size).toBeGreaterThan(150);
    const factors = ids.map((id) => jitterFactor(id, 2));
    expect(Math.min(...factors)).toBeLessThan(0.92);
    expect(Math.max(...factors)).toBeGreaterThan(1.08);
  });

  it('raises the next wait to Retry-After (capped at 24 h), never lowers it', () => {
    const s = [0, 10, 20];
    const d = delayBeforeAttempt(s, 'id', 2)!;
    expect(nextDelay(s, 'id', 2)).toBe(d);
    expect(nextDelay(s, 'id', 2, 1)).toBe(d);
    expect(nextDelay(s, 'id', 2, 60)).toBe(60000);
    expect(nextDelay(s, 'id', 2, 10 ** 9)).toBe(MAX_RETRY_AFTER_SECONDS * 1000);
    expect(nextDelay(s, 'id', 4, 60)).toBeUndefined();
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = new Date('2026-11-22T10:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120);
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:02:30 GMT', now)).toBe(150);
    expect(parseRetryAfter('Sun, 22 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  it('parses WEBHOOK_RETRY_SCHEDULE', () => {
    expect(parseSchedule('0, 1,2.5')).toEqual([0, 1, 2.5]);
    expect(() => parseSchedule('')).toThrow(/empty/);
    expect(() => parseSchedule('1,-2')).toThrow(/-2/);
  });
});
