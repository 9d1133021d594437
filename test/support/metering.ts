/**
 * Metering checks of the generating routes (docs/content.md, "Metering and
 * limits, per route"): read the usage projection before and after a route —
 * "before" once the projection has every usage record the event store holds
 * for the user (an earlier call's record may still be on its way) —, wait
 * until it shows the expected records, then wait a little more and check that
 * no further record arrived (a second charge would arrive late).
 */
import type { Knex } from 'knex';
import { usageStream } from '../../domain/events/usage';
import { billingPeriod } from '../../infra/quota/meter';
import { usageByProvider } from '../../projections/usage';
import type { JsonResponse } from './http';

/** How long after the expected records arrived no more may arrive. */
const SETTLE_MS = 300;
const POLL_MS = 50;
const POLLS = 200;

type Calls = Record<string, number>;

/** Calls per provider of `userId` in this billing period, as the usage projection has them now. */
export async function usageByProviderNow(db: Knex, userId: string): Promise<Calls> {
  const rows = await usageByProvider(db, userId, billingPeriod());
  return Object.fromEntries(rows.filter((r) => r.calls > 0).map((r) => [r.provider, r.calls]));
}

/** Calls per provider of `userId` in this billing period, as the event store's UsageRecorded events have them. */
async function recordedCalls(db: Knex, userId: string): Promise<Calls> {
  const rows: { provider: string; calls: string }[] = await db('es_events')
    .where({ stream_id: usageStream(userId), type: 'UsageRecorded' })
    .whereRaw(`data->>'billing_period' = ?`, [billingPeriod()])
    .select(db.raw(`data->>'provider' AS provider`), db.raw(`SUM((data->>'calls')::int) AS calls`))
    .groupByRaw(`data->>'provider'`);
  return Object.fromEntries(rows.filter((r) => Number(r.calls) > 0).map((r) => [r.provider, Number(r.calls)]));
}

const same = (a: Calls, b: Calls) =>
  JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());

/** The projection's calls per provider once it has caught up with the event store (fails after ~10 s). */
export async function settledUsage(db: Knex, userId: string): Promise<Calls> {
  let seen: Calls = {};
  for (let i = 0; i < POLLS; i++) {
    const recorded = await recordedCalls(db, userId);
    seen = await usageByProviderNow(db, userId);
    if (same(seen, recorded)) return seen;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  throw new Error(`usage projection never caught up with the event store for ${userId}: ${JSON.stringify(seen)}`);
}

/** Calls of `provider` for `userId`, once the usage projection shows at least `atLeast` (fails after ~10 s). */
export async function usageCalls(db: Knex, userId: string, provider = 'local', atLeast = 0): Promise<number> {
  for (let i = 0; i < POLLS; i++) {
    const n = (await usageByProviderNow(db, userId))[provider] ?? 0;
    if (n >= atLeast) return n;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  throw new Error(`usage projection never reached ${atLeast} ${provider} calls for ${userId}`);
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
