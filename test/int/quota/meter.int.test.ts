/**
 * Atomic plan limits: reservations are conditional updates in PostgreSQL, so
 * concurrent callers can never take usage past a limit, and a settled call is
 * charged exactly once however often it is retried.
 */
import { createEventStore } from '../../../infra/eventstore';
import { billingPeriod, PostgresUsageMeter, UsageLimitExceeded, uuidFromKey } from '../../../infra/quota/meter';
import { isolatedSchema, IsolatedSchema } from '../../support/schema';
import { alertsProjection, listAlerts } from '../../../projections/alerts';
import { replay } from '../../../projections/replay';

/**
 * The meters' clock, fixed when the file starts: usage is counted per billing period (UTC month), and a test that
 * ran into the next month would count in two (the limits would start again). The period is still the real one.
 */
const AT = new Date();
const clock = () => AT;
const PERIOD = billingPeriod(AT);

describe('usage meter', () => {
  let s: IsolatedSchema;
  beforeAll(async () => {
    s = await isolatedSchema(40);
  });
  afterAll(() => s.drop());

  it('200 concurrent calls against a limit of 100: exactly 100 succeed, usage never exceeds the limit', async () => {
    const meter = new PostgresUsageMeter(s.db, createEventStore(s.db), async () => ({ vendor_a_calls: 100 }), clock);
    let stop = false;
    let maxSeen = 0;
    const sampler = (async () => {
      while (!stop) {
        const r = await s.db.raw(
          "SELECT coalesce(sum(used + reserved), 0) AS n FROM quota_usage WHERE user_id = 'limited' AND limit_key = 'vendor_a_calls'",
        );
        maxSeen = Math.max(maxSeen, Number(r.rows[0].n));
      }
    })();
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, async (_, i) => {
        const res = await meter.reserve({
          userId: 'limited',
          provider: 'vendor_a',
          estimatedTokens: 10,
          estimatedCost: 0.001,
          idempotencyKey: `wf-${i}/act-1`,
        });
        await meter.settle(res, { provider: 'vendor_a', model: 'm', tokens_in: 6, tokens_out: 4, cost: 0.001 });
      }),
    );
    stop = true;
    await sampler;
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason);
    expect(ok).toHaveLength(100);
    expect(refused).toHaveLength(100);
    for (const e of refused) {
      expect(e).toBeInstanceOf(UsageLimitExceeded);
      expect(e.details).toEqual({
        provider: 'vendor_a',
        limit_type: 'vendor_a_calls',
        current_usage: 100,
        limit_value: 100,
      });
    }
    expect(maxSeen).toBeLessThanOrEqual(100);
    expect(await meter.current('limited')).toEqual({ vendor_a_calls: { used: 100, reserved: 0 } }); // only limited keys are metered here
    const events = await s.db('es_events').where({ type: 'UsageRecorded' }).whereRaw("data->>'user_id' = 'limited'");
    expect(events).toHaveLength(100);
  });

  it('settles once: a retried settle or reserve with the same key never charges twice', async () => {
    const meter = new PostgresUsageMeter(
      s.db,
      createEventStore(s.db),
      async () => ({ vendor_b_calls: 10, tokens: 1000 }),
      clock,
    );
    const key = 'blog-research-1/activity-7';
    const r1 = await meter.reserve({
      userId: 'retry',
      provider: 'vendor_b',
      estimatedTokens: 300,
      estimatedCost: 0.01,
      idempotencyKey: key,
    });
    await meter.settle(r1, { provider: 'vendor_b', model: 'm', tokens_in: 120, tokens_out: 80, cost: 0.004 });
    await meter.settle(r1, { provider: 'vendor_b', model: 'm', tokens_in: 120, tokens_out: 80, cost: 0.004 });
    const r2 = await meter.reserve({
      userId: 'retry',
      provider: 'vendor_b',
      estimatedTokens: 300,
      estimatedCost: 0.01,
      idempotencyKey: key,
    });
    expect(r2.alreadySettled).toBe(true);
    await meter.settle(r2, { provider: 'vendor_b', model: 'm', tokens_in: 120, tokens_out: 80, cost: 0.004 });
    expect(await meter.current('retry')).toMatchObject({
      vendor_b_calls: { used: 1, reserved: 0 },
      tokens: { used: 200, reserved: 0 },
    });
    const events = await s.db('es_events').where({ type: 'UsageRecorded' }).whereRaw("data->>'user_id' = 'retry'");
    expect(events).toHaveLength(1);
    expect(events[0].event_id).toBe(uuidFromKey(key));
    expect(events[0].data).toMatchObject({
      idempotency_key: key,
      billing_period: PERIOD,
      tokens_in: 120,
      tokens_out: 80,
    });
  });

  it('release gives a failed call back; a reservation larger than what is left is refused', async () => {
    const meter = new PostgresUsageMeter(s.db, createEventStore(s.db), async () => ({ tokens: 1000 }), clock);
    const big = await meter.reserve({
      userId: 'rel',
      provider: 'vendor_a',
      estimatedTokens: 900,
      estimatedCost: 0,
      idempotencyKey: 'rel-1',
    });
    await expect(
      meter.reserve({
        userId: 'rel',
        provider: 'vendor_a',
        estimatedTokens: 200,
        estimatedCost: 0,
        idempotencyKey: 'rel-2',
      }),
    ).rejects.toMatchObject({
      details: { limit_type: 'tokens', current_usage: 900, limit_value: 1000 },
    });
    await meter.release(big);
    await meter.release(big);
    expect(await meter.current('rel')).toMatchObject({ tokens: { used: 0, reserved: 0 } });
    await expect(
      meter.reserve({
        userId: 'rel',
        provider: 'vendor_a',
        estimatedTokens: 1001,
        estimatedCost: 0,
        idempotencyKey: 'rel-3',
      }),
    ).rejects.toBeInstanceOf(UsageLimitExceeded);
    const ok = await meter.reserve({
      userId: 'rel',
      provider: 'vendor_a',
      estimatedTokens: 1000,
      estimatedCost: 0,
      idempotencyKey: 'rel-4',
    });
    expect(ok.alreadySettled).toBe(false);
  });

  it('crossing 80, 95 and 100 % raises three alerts, once each, even with concurrent calls, retries and a full replay', async () => {
    const store = createEventStore(s.db);
    const meter = new PostgresUsageMeter(s.db, store, async () => ({ vendor_a_calls: 20, monthly_cost: 1 }), clock);
    // 24 concurrent calls against 20: 20 settle (crossing 16, 19 and 20 calls), 4 are refused.
    const results = await Promise.allSettled(
      Array.from({ length: 24 }, async (_, i) => {
        const res = await meter.reserve({
          userId: 'alerted',
          provider: 'vendor_a',
          estimatedTokens: 5,
          estimatedCost: 0.01,
          idempotencyKey: `al-${i}`,
        });
        await meter.settle(res, { provider: 'vendor_a', model: 'm', tokens_in: 3, tokens_out: 2, cost: 0.01 });
        await meter.settle(res, { provider: 'vendor_a', model: 'm', tokens_in: 3, tokens_out: 2, cost: 0.01 }); // a retried settle
      }),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(20);
    const raised = (await store.readStream('alerts-alerted')).flatMap((e) =>
      e.type === 'AlertRaised' ? [e.data] : [],
    );
    const keys = raised.map((a) => a.alert_key).sort();
    expect(keys).toEqual([
      `alerted:${PERIOD}:usage_threshold:vendor_a_calls:100`,
      `alerted:${PERIOD}:usage_threshold:vendor_a_calls:80`,
      `alerted:${PERIOD}:usage_threshold:vendor_a_calls:95`,
    ]);
    expect(raised.map((a) => a.severity).sort()).toEqual(['critical', 'info', 'warning']);
    // Cost stayed at 0.20 of 1.00: no cost alert.
    expect(raised.every((a) => a.alert_type === 'usage_threshold')).toBe(true);
    // The read model rebuilt from zero, twice, has each alert once.
    await replay(s.db, store, alertsProjection);
    await replay(s.db, store, alertsProjection);
    const alerts = await listAlerts(s.db, 'alerted', false);
    expect(alerts).toHaveLength(3);
    expect(alerts.map((a) => a.severity).sort()).toEqual(['critical', 'info', 'warning']);
    expect(alerts.every((a) => a.read === false && Number.isInteger(a.id))).toBe(true);
  });
});
