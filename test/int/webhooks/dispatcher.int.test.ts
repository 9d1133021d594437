/**
 * The whole path: domain events -> relay -> Kafka -> dispatcher -> delivery
 * workflows -> receiver, with the deliveries projection alongside. A receiver
 * that is down while 100 events are emitted gets all 100 once it is back;
 * a Kafka message handled twice starts no second delivery; test pings and
 * redeliveries go through the same outbox.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { createActivities } from '../../../activities';
import { redeliverWebhook, registerWebhook, testWebhook, WebhookCommandDeps } from '../../../api/webhooks/commands';
import { taskStream } from '../../../domain/events/tasks';
import { deliveryStream } from '../../../domain/webhooks/endpoint';
import { createEventStore, EventStore } from '../../../infra/eventstore';
import type { RecordedEvent } from '../../../infra/eventstore/port';
import { SecretBox, WebhookSecretStore } from '../../../infra/webhooks/secrets';
import { parseAllowList } from '../../../infra/webhooks/ssrf';
import { waitForProjection } from '../../../projections/consistency';
import { listDeliveries, webhookDeliveriesProjection } from '../../../projections/webhook-deliveries';
import { WebhookDispatcher } from '../../../workers/dispatch/webhooks';
import { startTestWorker, testLogger, testTemporal } from '../../support/env';
import { InProcessPipeline, startInProcessPipeline } from '../../support/pipeline';
import { isolatedSchema, IsolatedSchema } from '../../support/schema';
import { freePort, Receiver, startReceiver } from './receiver';
import { waitFor } from '../../support/wait';

describe('webhook dispatcher', () => {
  let s: IsolatedSchema;
  let store: EventStore;
  let cmd: WebhookCommandDeps;
  let worker: Awaited<ReturnType<typeof startTestWorker>>;
  let client: Client;
  let closeTemporal: () => Promise<void>;
  let pipeline: InProcessPipeline;
  let dispatcher: WebhookDispatcher;
  const user = `u-${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    s = await isolatedSchema();
    store = createEventStore(s.db);
    const secrets = new WebhookSecretStore(s.db, new SecretBox(randomBytes(32)));
    const allow = parseAllowList('127.0.0.1');
    cmd = { store, secrets, ssrf: { allow } };
    // 5 s apart, 40 attempts: a receiver down for a while is retried until it is back, and a slow (shared) Temporal
    // dev server starting the 100th workflow late does not see the first ones run out of attempts meanwhile. A refused
    // connection fails at once; a long attempt time-out keeps 100 deliveries arriving together on a loaded machine
    // from turning a slow answer into a second delivery of the same message (the tests count deliveries).
    worker = await startTestWorker(
      createActivities({
        logger: testLogger(),
        webhooks: { store, secrets, allow, schedule: [0, ...Array(40).fill(5)], attemptTimeoutMs: 30000 },
      }),
    );
    const t = await testTemporal();
    client = t.client;
    closeTemporal = () => t.connection.close();
    pipeline = await startInProcessPipeline(s, store, [webhookDeliveriesProjection]);
    dispatcher = new WebhookDispatcher(s.db, store, pipeline.kafka, async () => client, testLogger(), {
      topicPrefix: s.topicPrefix,
      taskQueue: worker.taskQueue,
    });
    await dispatcher.start();
  });

  afterAll(async () => {
    await dispatcher.stop();
    await pipeline.stop();
    await worker.stop();
    await closeTemporal();
    await s.drop();
  });

  async function register(url: string, events: string[]) {
    const reg = await registerWebhook(cmd, user, { url, events });
    expect(await waitForProjection(s.db, 'webhook-deliveries', reg.events[0], { timeoutMs: 60000 })).toBe(true);
    return reg.value;
  }

  async function completeBlogTask(taskType = 'blog_medium', content = 'Generated text'): Promise<RecordedEvent> {
    const id = randomUUID();
    await store.append(
      taskStream(id),
      [{ type: 'TaskStarted', data: { task_id: id, task_type: taskType, user_id: user, workflow_id: `blog-${id}` } }],
      'no_stream',
      { user_id: user },
    );
    const r = await store.append(
      taskStream(id),
      [{ type: 'TaskCompleted', data: { task_id: id, result: { content } } }],
      0,
      { user_id: user },
    );
    return r.events[0];
  }

  it('delivers all 100 events to a receiver that was down while they were emitted', async () => {
    const port = await freePort();
    const ep = await register(`http://127.0.0.1:${port}/hook`, ['content_generated']);
    for (let i = 0; i < 100; i++) await completeBlogTask('blog_medium', `Post ${i}`);
    // Down: wait until every delivery has failed at least once.
    await waitFor(
      '100 failed first attempts',
      async () => {
        const rows = await listDeliveries(s.db, user, ep.endpoint_id, { limit: 500 });
        return rows.length === 100 && rows.every((r) => r.attempts >= 1);
      },
      240000,
      500,
    );
    expect((await listDeliveries(s.db, user, ep.endpoint_id, { limit: 500, status: 'retrying' })).length).toBe(100);
    let rx: Receiver | undefined;
    try {
      rx = await startReceiver(() => 200, port);
      await waitFor('100 accepted deliveries', () => rx!.accepted().length >= 100, 240000, 200);
      await new Promise((r) => setTimeout(r, 1500));
      const ids = rx.accepted().map((r) => String(r.headers['webhook-id']));
      expect(ids).toHaveLength(100);
      expect(new Set(ids).size).toBe(100);
      const contents = rx.accepted().map(
        (r) =>
          JSON.parse(r.body) as {
            event_type: string;
            content: string;
            id: string;
            timestamp: string;
            data: { task_type: string };
          },
      );
      expect(new Set(contents.map((c) => c.content))).toEqual(
        new Set(Array.from({ length: 100 }, (_, i) => `Post ${i}`)),
      );
      expect(
        contents.every(
          (c) =>
            c.event_type === 'content_generated' &&
            c.data.task_type === 'blog_medium' &&
            ids.includes(c.id) &&
            !Number.isNaN(Date.parse(c.timestamp)),
        ),
      ).toBe(true);
      await waitFor(
        '100 succeeded rows',
        async () =>
          (await listDeliveries(s.db, user, ep.endpoint_id, { limit: 500, status: 'succeeded' })).length === 100,
        120000,
        500,
      );
    } finally {
      await rx?.close();
    }
  }, 600000);

  it('starts no second delivery when the same Kafka message is handled again, and respects subscriptions', async () => {
    const rx = await startReceiver(() => 200);
    try {
      const ep = await register(rx.url, ['research_complete']);
      const other = await register(rx.url.replace('/hook', '/other'), ['quota.warning']);
      const ev = await completeBlogTask('blog_research');
      await waitFor('one research delivery', () => rx.accepted().length === 1, 120000);
      await dispatcher.handle(ev); // the same message again (a re-delivery by Kafka)
      await dispatcher.handle(ev);
      await new Promise((r) => setTimeout(r, 1500));
      expect(rx.accepted()).toHaveLength(1);
      expect(JSON.parse(rx.accepted()[0].body)).toMatchObject({ event_type: 'research_complete' });
      expect(rx.requests.every((r) => !String(r.headers['host']).includes('other'))).toBe(true);
      expect(await listDeliveries(s.db, user, other.endpoint_id)).toHaveLength(0);
      expect(await dispatcher.deliveriesFor(ev)).toEqual([
        expect.objectContaining({ endpointId: ep.endpoint_id, eventType: 'research_complete' }),
      ]);
    } finally {
      await rx.close();
    }
  });

  it('an SEO analysis produces seo.analysis.completed and seo_analysis_complete', async () => {
    const rx = await startReceiver(() => 200);
    try {
      await register(rx.url, ['seo.analysis.completed', 'seo_analysis_complete']);
      const id = randomUUID();
      await store.append(
        `seo-analysis-${id}`,
        [
          {
            type: 'SeoAnalysisCompleted',
            data: {
              analysis_id: id,
              user_id: user,
              route: '/api/seo-analyzer',
              seo_score: 71,
              keywords: ['seo'],
              word_count: 420,
              recommendations: 3,
            },
          },
        ],
        'no_stream',
        { user_id: user },
      );
      await waitFor('two SEO deliveries', () => rx.accepted().length === 2, 120000);
      const bodies = rx
        .accepted()
        .map((r) => JSON.parse(r.body) as { event_type: string; data: { analysis_id: string; seo_score: number } });
      expect(bodies.map((b) => b.event_type).sort()).toEqual(['seo.analysis.completed', 'seo_analysis_complete']);
      expect(bodies.every((b) => b.data.analysis_id === id && b.data.seo_score === 71)).toBe(true);
    } finally {
      await rx.close();
    }
  });

  it('sends a test ping and a redelivery (new delivery id, same body) through the dispatcher', async () => {
    const rx = await startReceiver(() => 200);
    try {
      const ep = await register(rx.url, ['quota.warning']);
      const ping = await testWebhook(cmd, user, ep.endpoint_id);
      await waitFor('the ping', () => rx.accepted().length === 1, 120000);
      const body = JSON.parse(rx.accepted()[0].body);
      expect(body).toMatchObject({
        event_type: 'webhook.test',
        id: ping.value.delivery_id,
        data: { endpoint_id: ep.endpoint_id },
      });
      await waitFor(
        'the ping finished',
        async () =>
          (await store.readStream(deliveryStream(ping.value.delivery_id))).some(
            (e) => e.type === 'WebhookDeliveryFinished',
          ),
        120000,
      );
      const again = await redeliverWebhook(cmd, user, ep.endpoint_id, ping.value.delivery_id);
      await waitFor('the redelivery', () => rx.accepted().length === 2, 120000);
      expect(again.value.delivery_id).not.toBe(ping.value.delivery_id);
      expect(rx.accepted()[1].headers['webhook-id']).toBe(again.value.delivery_id);
      expect(JSON.parse(rx.accepted()[1].body)).toEqual({ ...body, id: again.value.delivery_id });
      await expect(redeliverWebhook(cmd, 'someone-else', ep.endpoint_id, ping.value.delivery_id)).rejects.toMatchObject(
        { kind: 'not_found' },
      );
      await expect(redeliverWebhook(cmd, user, ep.endpoint_id, randomUUID())).rejects.toMatchObject({
        kind: 'not_found',
      });
    } finally {
      await rx.close();
    }
  });
});
