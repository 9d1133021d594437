/**
 * Durable AI tasks: 10 medium generations in flight against a (scripted,
 * loopback) vendor, the worker process killed with SIGKILL twice and
 * restarted. All 10 complete, and usage holds exactly one charge per logical
 * vendor call: a retried call is never charged twice.
 */
import { randomUUID } from 'node:crypto';
import { createEventStore } from '../../../infra/eventstore';
import { isolatedSchema, IsolatedSchema } from '../../support/schema';
import { startProcess, Proc } from '../../support/processes';
import { testTemporal, uniq } from '../../support/env';
import { startFakeVendor, completion, FakeVendor } from '../../support/fake-vendor';
import { BUNDLE_PATH } from '../../support/global-setup';
import { replay } from '../../../projections/replay';
import { usageByPeriods, usageProjection } from '../../../projections/usage';
import { blogMediumWorkflow } from '../../../workflows';
import { waitFor } from '../../support/wait';

jest.setTimeout(420000);

describe('blog medium generation survives worker crashes', () => {
  let s: IsolatedSchema;
  let vendor: FakeVendor;
  let worker: Proc | undefined;

  afterAll(async () => {
    await worker?.stop('SIGTERM');
    await vendor?.close();
    await s?.drop();
  });

  it('10 generations, 2 SIGKILLs of the worker: all complete, one charge per call', async () => {
    s = await isolatedSchema();
    // Every answer takes 700 ms, so calls are in flight when the worker dies.
    vendor = await startFakeVendor([
      {
        delayMs: 700,
        body: completion('A grounded paragraph about planning content, citing [1].', {
          usage: { prompt_tokens: 120, completion_tokens: 60 },
        }),
      },
    ]);
    const taskQueue = uniq('crash');
    const env = {
      DATABASE_URL: s.url,
      KAFKA_TOPIC_PREFIX: s.topicPrefix,
      TEMPORAL_TASK_QUEUE: taskQueue,
      WORKFLOW_BUNDLE_PATH: BUNDLE_PATH,
      WORKER_HEALTH_PORT: '0',
      VENDOR_A_BASE_URL: vendor.baseUrl,
      VENDOR_A_API_KEY: 'test-key',
      VENDOR_A_MODEL: 'gpt-4o-mini',
      AI_MAX_RETRIES: '1',
      AI_TIMEOUT_MS: '10000',
    };
    const start = () => startProcess('temporal-worker', env, false);
    worker = await start();
    const { client, connection } = await testTemporal();
    try {
      const user = `crash-${randomUUID().slice(0, 6)}`;
      const sections = [1, 2, 3].map((i) => ({
        id: `s${i}`,
        heading: `Part ${i}`,
        keyPoints: ['a point'],
        targetWords: 60,
        references: [{ title: 'Source', url: 'https://example.org/a', excerpt: 'text' }],
      }));
      const handles = await Promise.all(
        Array.from({ length: 10 }, async () => {
          const taskId = `blog-medium-${randomUUID()}`;
          return client.workflow.start(blogMediumWorkflow, {
            taskQueue,
            workflowId: taskId,
            args: [{ taskId, userId: user, request: { title: 'Crash test', sections } }],
          });
        }),
      );
      const results = Promise.all(handles.map((h) => h.result()));
      // Kill while calls are in flight: once the vendor has seen 4 requests, and again once it has seen 14.
      for (const seen of [4, 14]) {
        await waitFor(`the vendor to see ${seen} requests`, () => vendor.requests.length >= seen, 120_000, 20);
        expect(await worker.stop('SIGKILL')).toBe('SIGKILL');
        worker = await start();
      }
      const done = (await results) as { sections: { id: string; content: string }[] }[];
      expect(done).toHaveLength(10);
      for (const d of done) expect(d.sections.map((x) => x.id)).toEqual(['s1', 's2', 's3']);

      // Exactly one UsageRecorded per logical call (workflow id + activity id), 30 calls in all.
      const store = createEventStore(s.db);
      const charges = (await s.db('es_events').where({ type: 'UsageRecorded' })).map((r) => r.data);
      expect(charges).toHaveLength(30);
      expect(new Set(charges.map((c) => c.idempotency_key)).size).toBe(30);
      for (const h of handles)
        expect(charges.filter((c) => c.idempotency_key.startsWith(`${h.workflowId}/`))).toHaveLength(3);
      // The vendor may have been asked more than 30 times (a call cut off by the kill is asked again), never charged again.
      expect(vendor.requests.length).toBeGreaterThan(30); // at least one call was cut off and asked again
      // The usage projection, built from those events, shows 30 calls and the tokens the vendor reported. Summed over
      // the billing periods the charges name: usage is kept per UTC month, and a run at a month's end has two.
      await replay(s.db, store, usageProjection);
      const periods = [...new Set(charges.map((c) => c.billing_period as string))];
      const rows = [...(await usageByPeriods(s.db, user, periods)).values()].flat();
      const sum = (k: 'calls' | 'tokens_in' | 'tokens_out' | 'tokens' | 'cost') => rows.reduce((a, r) => a + r[k], 0);
      expect(rows.map((r) => r.provider)).toEqual(periods.map(() => 'vendor_a'));
      expect({
        calls: sum('calls'),
        tokens_in: sum('tokens_in'),
        tokens_out: sum('tokens_out'),
        tokens: sum('tokens'),
        cost: sum('cost'),
      }).toEqual({
        calls: 30,
        tokens_in: 30 * 120,
        tokens_out: 30 * 60,
        tokens: 30 * 180,
        cost: expect.any(Number),
      });
      const [quota] = await s
        .db('quota_usage')
        .where({ user_id: user, limit_key: 'vendor_a_calls' })
        .select(s.db.raw('sum(used) AS used, sum(reserved) AS reserved'));
      expect(Number(quota.used)).toBe(30);
      expect(Number(quota.reserved)).toBe(0);
      process.stdout.write(`vendor requests: ${vendor.requests.length} for 30 charged calls\n`);
    } finally {
      await connection.close();
    }
  });
});
