/**
 * Tests that count in calendar windows — the rate limiter's fixed windows (minutes, hours and UTC days, aligned to
 * the epoch as infra/ratelimit/postgres.ts aligns them), the outreach policy's UTC days, the billing periods (UTC
 * months, infra/quota/meter.ts) — must not straddle two of them: a window that ends in the middle of a test starts a
 * fresh count, and the test sees a limit that is not there (or misses one that is). These helpers keep a test inside
 * one window whatever the date, the time of day and the machine's pace.
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Which fixed window of `seconds` (aligned to the epoch) the instant `ms` falls in. */
export const windowIndex = (seconds: number, ms = Date.now()) => Math.floor(ms / 1000 / seconds);

/**
 * Waits when the current fixed window of `seconds` ends within `margin` s, so what follows starts with at least
 * `margin` s of its window left. For a sequence that cannot simply be run again (see inOneWindow).
 */
export async function awayFromBoundary(seconds: number, margin: number): Promise<void> {
  const into = (Date.now() / 1000) % seconds;
  if (into > seconds - margin) await sleep((seconds - into + 0.5) * 1000);
}

/**
 * Runs `attempt` until one run begins and ends in the same fixed window of `seconds`, and returns that run's result.
 * Whatever the run counts must be its own (a fresh user per run): a run that crossed a boundary is thrown away and
 * run again, and the repeat starts right after the boundary, with a whole window ahead of it. The assertions belong
 * after this returns, on the result of a run that stayed in one window.
 */
export async function inOneWindow<T>(seconds: number, attempt: () => Promise<T>, tries = 3): Promise<T> {
  for (let i = 1; ; i++) {
    const before = windowIndex(seconds);
    const value = await attempt();
    if (windowIndex(seconds) === before) return value;
    if (i >= tries) throw new Error(`${tries} runs in a row crossed a boundary of the ${seconds} s window`);
  }
}

/** Waits when the current UTC month — a billing period — ends within `margin` s. */
export async function clearOfMonthEnd(margin = 60): Promise<void> {
  const now = new Date();
  const left = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) - now.getTime();
  if (left < margin * 1000) await sleep(left + 500);
}
