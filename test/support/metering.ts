/**
 * Metering checks of the generating routes (docs/content.md, "Metering and
 * limits, per route"): read the usage projection before and after a route —
 * "before" once the projection has every usage record the event store holds
 * for the user (an earlier call's record may still be on its way) —, wait
 * until it shows the expected records, then wait a little more and check that
 * no further record arrived (a second charge would arrive late).
 *
 * Counts are the user's in every billing period: usage is kept per UTC month,
 * and a route called at a month's end can be charged in the next one (the
 * users here are made for their test, so their totals are what the test did).
 */
import type { Knex } from 'knex';
import { usageStream } from '../../domain/events/usage';
import { usageByPeriods } from '../../projections/usage';
import type { JsonResponse } from './http';
import { waitFor } from './wait';

/** How long after the expected records arrived no more may arrive. */
const SETTLE_MS = 300;
const POLL_MS = 50;
/** How long the usage projection may take to show a record on a loaded machine (it is usually a few ms). */
const WAIT_MS = 60_000;

type Calls = Record<string, number>;

/** The billing periods in which the event store holds usage of `userId`. */
async function periodsOf(db: Knex, userId: string): Promise<string[]> {
  const rows: { period: string }[] = await db('es_events')
    .where({ stream_id: usageStream(userId), type: 'UsageRecorded' })
    .distinct(db.raw(`data->>'billing_period' AS period`));
  return rows.map((r) => r.period);
}

/** Calls per provider of `userId` in all billing periods, as the usage projection has them now. */
export async function usageByProviderNow(db: Knex, userId: string): Promise<Calls> {
  const out: Calls = {};
  for (const rows of (await usageByPeriods(db, userId, await periodsOf(db, userId))).values())
    for (const r of rows) if (r.calls > 0) out[r.provider] = (out[r.provider] ?? 0) + r.calls;
  return out;
}

/** Calls per provider of `userId` in all billing periods, as the event store's UsageRecorded events have them. */
async function recordedCalls(db: Knex, userId: string): Promise<Calls> {
  const rows: { provider: string; calls: string }[] = await db('es_events')
    .where({ stream_id: usageStream(userId), type: 'UsageRecorded' })
    .select(db.raw(`data->>'provider' AS provider`), db.raw(`SUM((data->>'calls')::int) AS calls`))
    .groupByRaw(`data->>'provider'`);
  return Object.fromEntries(rows.filter((r) => Number(r.calls) > 0).map((r) => [r.provider, Number(r.calls)]));
}

const same = (a: Calls, b: Calls) =>
  JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());

/** The projection's calls per provider once it has caught up with the event store (fails after WAIT_MS). */
export async function settledUsage(db: Knex, userId: string): Promise<Calls> {
  let seen: Calls = {};
  return waitFor(
    `the usage projection to catch up with the event store for ${userId}`,
    async () => {
      const recorded = await recordedCalls(db, userId);
      seen = await usageByProviderNow(db, userId);
      return same(seen, recorded) && seen;
    },
    WAIT_MS,
    POLL_MS,
    () => JSON.stringify(seen),
  );
}

/** Calls of `provider` for `userId`, once the usage projection shows at least `atLeast` (fails after WAIT_MS). */
export async function usageCalls(db: Knex, userId: string, provider = 'local', atLeast = 0): Promise<number> {
  // Boxed: a count of 0 is an answer, not "not yet".
  const got = await waitFor(
    `the usage projection to show ${atLeast} ${provider} calls for ${userId}`,
    async () => {
      const n = (await usageByProviderNow(db, userId))[provider] ?? 0;
      return n >= atLeast && { n };
    },
    WAIT_MS,
    POLL_MS,
  );
  return got.n;
}

/**
 * Runs a route and checks that exactly `calls` usage records per provider were added — a number means that many
 * of `local` — and nothing else: providers not named stay as they were, also a moment after the answer, in the
 * projection and in the event store.
 */
export async function metered(
  db: Knex,
  userId: string,
  calls: number | Calls,
  run: () => Promise<JsonResponse>,
): Promise<JsonResponse> {
  const added = typeof calls === 'number' ? { local: calls } : calls;
  const before = await settledUsage(db, userId);
  const r = await run();
  const want = { ...before };
  for (const [p, n] of Object.entries(added)) {
    if (!n) continue;
    want[p] = (before[p] ?? 0) + n;
    await usageCalls(db, userId, p, want[p]);
  }
  expect(await usageByProviderNow(db, userId)).toEqual(want);
  await new Promise((res) => setTimeout(res, SETTLE_MS));
  expect(await settledUsage(db, userId)).toEqual(want);
  return r;
}
