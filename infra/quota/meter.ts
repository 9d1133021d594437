/**
 * The PostgreSQL usage meter: reserve before a vendor call, settle after it,
 * release on failure.
 *
 * reserve: for every limit key the plan sets, one conditional upsert that only
 * succeeds while used + reserved + amount <= limit. Concurrent reservations
 * queue on the row lock, so with a limit of 100 calls exactly 100 of any number
 * of concurrent callers get through, and usage + reservations never exceed it.
 * settle: marks the reservation settled, moves it from reserved to used, and
 * appends UsageRecorded, all in ONE transaction keyed by the idempotency key:
 * a retried activity settles (and charges) once.
 */
import type { Knex } from 'knex';
import { uuidFromKey } from '../eventstore/ids';
import type { EventStore, NewEvent, StoreTx } from '../eventstore/port';
import { sqlTransaction } from '../eventstore/postgres';
import { usageStream } from '../../domain/events/usage';
import { alertStream } from '../../domain/events/alerts';
import { crossedThresholds } from '../../domain/alerts/thresholds';

/** Limits of a plan by key (vendor_a_calls, vendor_b_calls, tokens, monthly_cost); a missing key is unlimited. */
export type Limits = Partial<Record<string, number>>;

export interface ReserveRequest {
  userId: string;
  provider: string;
  /** Upper bound of the call's tokens (prompt + max completion), so a settled call never exceeds the reservation. */
  estimatedTokens: number;
  /** Upper bound of the call's cost. */
  estimatedCost: number;
  /** workflow id + activity id (+ call index): the same key reserves and settles once. */
  idempotencyKey: string;
  /** Units counted against `<provider>_calls` (default 1): a render counts its started minutes of video. */
  calls?: number;
}

export interface Reservation {
  reservationId: string;
  userId: string;
  billingPeriod: string;
  provider: string;
  amounts: Record<string, number>;
  /** The plan's limits when the call was reserved (threshold alerts are measured against them). */
  limits: Record<string, number>;
  /** True when this key was settled before (a retry after success): the caller must not charge again. */
  alreadySettled: boolean;
}

export interface ActualUsage {
  provider: string;
  model: string;
  tokens_in: number;
  tokens_out: number;
  cost: number;
}

export class UsageLimitExceeded extends Error {
  readonly code = 'USAGE_LIMIT_EXCEEDED';
  constructor(readonly details: { provider: string; limit_type: string; current_usage: number; limit_value: number }) {
    super(`Usage limit ${details.limit_type} reached (${details.current_usage} of ${details.limit_value})`);
    this.name = 'UsageLimitExceeded';
  }
}

/** YYYY-MM of a date in UTC. */
export const billingPeriod = (d: Date = new Date()) => d.toISOString().slice(0, 7);

export { uuidFromKey } from '../eventstore/ids';

/** What a call counts against each limit key. Token-free providers (local) count nothing but calls of their own key. */
export function amountsFor(provider: string, tokens: number, cost: number, calls = 1): Record<string, number> {
  return { [`${provider}_calls`]: calls, tokens, monthly_cost: cost };
}

export class PostgresUsageMeter {
  constructor(
    private readonly db: Knex,
    private readonly store: EventStore,
    private readonly limitsFor: (userId: string) => Promise<Limits>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async reserve(req: ReserveRequest): Promise<Reservation> {
    const period = billingPeriod(this.now());
    const amounts = amountsFor(req.provider, req.estimatedTokens, req.estimatedCost, req.calls);
    const limits = await this.limitsFor(req.userId);
    return this.db.transaction(async (trx) => {
      const existing = await trx('quota_reservations')
        .where({ reservation_id: req.idempotencyKey })
        .forUpdate()
        .first();
      if (existing) {
        return {
          reservationId: existing.reservation_id,
          userId: existing.user_id,
          billingPeriod: existing.billing_period,
          provider: existing.provider,
          amounts: existing.amounts,
          limits: existing.limits,
          alreadySettled: existing.status === 'settled',
        } as Reservation;
      }
      for (const [key, amount] of Object.entries(amounts).sort(([a], [b]) => a.localeCompare(b))) {
        const limit = limits[key];
        if (limit === undefined || limit === null) continue;
        // One statement: create the row or add the reservation, only while it fits under the limit.
        const r = await trx.raw(
          `INSERT INTO quota_usage AS q (user_id, billing_period, limit_key, used, reserved)
             SELECT ?, ?, ?, 0, ? WHERE ?::numeric <= ?::numeric
           ON CONFLICT (user_id, billing_period, limit_key)
             DO UPDATE SET reserved = q.reserved + excluded.reserved
             WHERE q.used + q.reserved + excluded.reserved <= ?::numeric
           RETURNING used`,
          [req.userId, period, key, amount, amount, limit, limit],
        );
        if (r.rows.length === 0) {
          const cur = await trx('quota_usage')
            .where({ user_id: req.userId, billing_period: period, limit_key: key })
            .first();
          throw new UsageLimitExceeded({
            provider: req.provider,
            limit_type: key,
            current_usage: Number(cur?.used ?? 0) + Number(cur?.reserved ?? 0),
            limit_value: limit,
          });
        }
      }
      const applied = Object.fromEntries(
        Object.entries(limits).filter(([k, v]) => k in amounts && typeof v === 'number'),
      ) as Record<string, number>;
      await trx('quota_reservations').insert({
        reservation_id: req.idempotencyKey,
        user_id: req.userId,
        billing_period: period,
        provider: req.provider,
        amounts: JSON.stringify(amounts),
        limits: JSON.stringify(applied),
        status: 'reserved',
      });
      return {
        reservationId: req.idempotencyKey,
        userId: req.userId,
        billingPeriod: period,
        provider: req.provider,
        amounts,
        limits: applied,
        alreadySettled: false,
      };
    });
  }

  /** Settles once: usage moves from reserved to used and one UsageRecorded event is appended, atomically. */
  async settle(res: Reservation, actual: ActualUsage): Promise<void> {
    const calls = res.amounts[`${res.provider}_calls`] ?? 1;
    const used = amountsFor(res.provider, actual.tokens_in + actual.tokens_out, actual.cost, calls);
    await this.store.transaction(async (tx) => {
      const trx = sqlTransaction(tx);
      const flipped = await trx('quota_reservations')
        .where({ reservation_id: res.reservationId, status: 'reserved' })
        .update({ status: 'settled', finished_at: trx.fn.now() });
      if (flipped === 0) return; // settled before (activity retry), or released: never charge twice
      const after = await this.moveReserved(trx, res, used);
      await this.raiseAlerts(tx, res, used, after);
      await tx.append(
        usageStream(res.userId),
        [
          {
            type: 'UsageRecorded',
            eventId: uuidFromKey(res.reservationId),
            data: {
              user_id: res.userId,
              provider: actual.provider,
              model: actual.model,
              calls,
              tokens_in: actual.tokens_in,
              tokens_out: actual.tokens_out,
              cost: actual.cost,
              billing_period: res.billingPeriod,
              idempotency_key: res.reservationId,
            },
          },
        ],
        'any',
        { user_id: res.userId },
      );
    });
  }

  /** Gives a failed call's reservation back. Idempotent. */
  async release(res: Reservation): Promise<void> {
    await this.db.transaction(async (trx) => {
      const flipped = await trx('quota_reservations')
        .where({ reservation_id: res.reservationId, status: 'reserved' })
        .update({ status: 'released', finished_at: trx.fn.now() });
      if (flipped) await this.moveReserved(trx, res, {});
    });
  }

  /** Moves a reservation to used (or back); returns the new used figure per metered key. */
  private async moveReserved(
    trx: Knex.Transaction,
    res: Reservation,
    used: Record<string, number>,
  ): Promise<Record<string, number>> {
    const after: Record<string, number> = {};
    // Same key order as reserve(): concurrent settles and reservations lock rows in one order, so never deadlock.
    for (const [key, amount] of Object.entries(res.amounts).sort(([a], [b]) => a.localeCompare(b))) {
      const r = await trx.raw(
        `UPDATE quota_usage SET reserved = greatest(reserved - ?::numeric, 0), used = used + ?::numeric WHERE user_id = ? AND billing_period = ? AND limit_key = ? RETURNING used`,
        [amount, used[key] ?? 0, res.userId, res.billingPeriod, key],
      );
      if (r.rows[0]) after[key] = Number(r.rows[0].used);
    }
    return after;
  }

  /** Appends AlertRaised for every 80/95/100 % threshold this settle crossed, each once per user, key and period. */
  private async raiseAlerts(
    tx: StoreTx,
    res: Reservation,
    used: Record<string, number>,
    after: Record<string, number>,
  ): Promise<void> {
    const trx = sqlTransaction(tx);
    const events: NewEvent[] = [];
    for (const [key, now] of Object.entries(after)) {
      const limit = res.limits?.[key];
      if (limit === undefined) continue;
      for (const a of crossedThresholds(res.userId, res.billingPeriod, key, now - (used[key] ?? 0), now, limit)) {
        const fresh = await trx.raw(
          'INSERT INTO quota_alerts (alert_key, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING RETURNING alert_key',
          [a.alert_key, res.userId],
        );
        if (fresh.rows.length === 0) continue;
        events.push({
          type: 'AlertRaised',
          data: {
            alert_key: a.alert_key,
            user_id: res.userId,
            title: a.title,
            message: a.message,
            severity: a.severity,
            alert_type: a.alert_type,
            billing_period: res.billingPeriod,
          },
        });
      }
    }
    if (events.length)
      await tx.append(alertStream(res.userId), events, 'any', { user_id: res.userId, causation_id: res.reservationId });
  }

  /** Current used + reserved per limit key (for limits checks and tests). */
  async current(
    userId: string,
    period = billingPeriod(this.now()),
  ): Promise<Record<string, { used: number; reserved: number }>> {
    const rows = await this.db('quota_usage').where({ user_id: userId, billing_period: period });
    return Object.fromEntries(rows.map((r) => [r.limit_key, { used: Number(r.used), reserved: Number(r.reserved) }]));
  }
}
