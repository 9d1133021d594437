/**
 * Retry schedule of webhook deliveries (ARCHITECTURE.md): attempt 1 at once,
 * then after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h; ten
 * attempts in all. Each wait gets a jitter of up to ±10 % so endpoints that
 * failed together are not retried together. The jitter is derived from a hash
 * of (delivery id, attempt), never from a random source, so the workflow that
 * computes it replays identically. Pure; used by the workflow.
 */

/** Seconds to wait before attempt i+1 (index 0 = the first attempt). */
export const DEFAULT_SCHEDULE_SECONDS: readonly number[] = [0, 5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400];

/** Fraction of a wait the jitter may add or remove. */
export const JITTER_FRACTION = 0.1;

/** Longest Retry-After honoured (a receiver cannot park a delivery for longer than the longest scheduled wait). */
export const MAX_RETRY_AFTER_SECONDS = 86400;

/** Parses "0,5,300" (seconds). Throws on anything but non-negative numbers; at least one entry. */
export function parseSchedule(text: string): number[] {
  const parts = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (parts.length === 0) throw new Error('retry schedule is empty');
  return parts.map((p) => {
    const n = Number(p);
    if (!Number.isFinite(n) || n < 0) throw new Error(`retry schedule entry "${p}" is not a number of seconds >= 0`);
    return n;
  });
}

/** FNV-1a, 32 bit: a small stable hash (no crypto module in workflow code). */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** Jitter factor in [1 - JITTER_FRACTION, 1 + JITTER_FRACTION), fixed by (deliveryId, attempt). */
export function jitterFactor(deliveryId: string, attempt: number): number {
  const u = fnv1a(`${deliveryId}:${attempt}`) / 0x100000000; // [0, 1)
  return 1 - JITTER_FRACTION + 2 * JITTER_FRACTION * u;
}

/**
 * Milliseconds to wait before `attempt` (1-based), or undefined when the
 * schedule has no such attempt. A zero wait stays zero.
 */
export function delayBeforeAttempt(
  schedule: readonly number[],
  deliveryId: string,
  attempt: number,
): number | undefined {
  if (attempt < 1 || attempt > schedule.length) return undefined;
  const base = schedule[attempt - 1] * 1000;
  return Math.round(base * jitterFactor(deliveryId, attempt));
}

/** The wait before the next attempt, raised to the receiver's Retry-After (capped) when it asked for longer. */
export function nextDelay(
  schedule: readonly number[],
  deliveryId: string,
  nextAttempt: number,
  retryAfterSeconds?: number | null,
): number | undefined {
  const d = delayBeforeAttempt(schedule, deliveryId, nextAttempt);
  if (d === undefined) return undefined;
  if (retryAfterSeconds === undefined || retryAfterSeconds === null) return d;
  return Math.max(d, Math.min(retryAfterSeconds, MAX_RETRY_AFTER_SECONDS) * 1000);
}

/**
 * Retry-After in seconds from the header value: delta-seconds or an HTTP
 * date (relative to `now`). Undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | undefined, now: Date): number | undefined {
  if (!value) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v);
  const t = Date.parse(v);
  if (Number.isNaN(t)) return undefined;
  return Math.max(0, Math.ceil((t - now.getTime()) / 1000));
}
