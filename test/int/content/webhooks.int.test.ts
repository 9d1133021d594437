/**
 * The webhooks the content routes produce, over the whole path: HTTP route →
 * task/integration event → relay → Kafka → dispatcher → delivery workflow →
 * a receiver on loopback that verifies the Standard Webhooks signature as a
 * client would (HMAC-SHA256 of "id.timestamp.body" with the registration's
 * secret). content.generated from a generating route, strategy.updated from
 * the content strategy, user_action from an integration route.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { taskStatusProjection } from '../../../projections/task-status';
import { webhookDeliveriesProjection } from '../../../projections/webhook-deliveries';
import { parseAllowList } from '../../../infra/webhooks/ssrf';
import { SecretBox, WebhookSecretStore } from '../../../infra/webhooks/secrets';
import { WebhookDispatcher } from '../../../workers/dispatch/webhooks';
import { bearer, startTestApi, TestApi } from '../../support/api';
import { startContentWorker } from '../../support/content-worker';
import { testKafka, testLogger, testTemporal } from '../../support/env';
import { call } from '../../support/http';
import { webhookSchemas } from '../../support/conformance';
import { isolatedSchema, IsolatedSchema } from '../../support/schema';
import { Receiver, startReceiver } from '../webhooks/receiver';
import { waitFor } from '../../support/wait';

jest.setTimeout(300000);

const RATES = {
  rate: { overrides: { '*': { general: { minute: 10000, day: 100000 }, integration: { minute: 1000, hour: 1000 } } } },
};
const SECRET = 'a-client-chosen-secret-of-32-chars!!';

/** What a receiver does (docs/webhooks.md): recompute the signature over the raw body and compare. */
function verified(headers: IncomingHttpHeaders, body: string): boolean {
  const id = String(headers['webhook-id']);
  const ts = String(headers['webhook-timestamp']);
  const expected = `v1,${createHmac('sha256', Buffer.from(SECRET, 'utf8')).update(`${id}.${ts}.${body}`).digest('base64')}`;
  const sent = String(headers['webhook-signature']).split(' ');
  return sent.includes(expected) && headers['x-service-signature'] === headers['webhook-signature'];
}

describe('content webhooks, delivered and verified', () => {
  let schema: IsolatedSchema;
  let temporal: Awaited<ReturnType<typeof testTemporal>>;
  let worker: Awaited<ReturnType<typeof startContentWorker>>;
  let api: TestApi;
  let dispatcher: WebhookDispatcher;
  let rx: Receiver;
  let user: { userId: string; key: string };

  beforeAll(async () => {
    schema = await isolatedSchema();
    temporal = await testTemporal();
    const settings = {
      secretKey: randomBytes(32),
      allow: parseAllowList('127.0.0.1'),
      schedule: [0, 1, 1, 1],
      // The receiver answers at once: a long attempt time-out keeps a loaded machine from turning one slow answer
      // into a second delivery of the same message (the test counts deliveries).
      attemptTimeoutMs: 30000,
    };
    const secrets = new WebhookSecretStore(schema.db, new SecretBox(settings.secretKey));
    worker = await startContentWorker(schema.db, {
      webhooks: {
        secrets,
        allow: settings.allow,
        schedule: settings.schedule,
        attemptTimeoutMs: settings.attemptTimeoutMs,
      },
    });
    api = await startTestApi({
      schema,
      projections: [taskStatusProjection, webhookDeliveriesProjection],
      deps: { workflows: { client: async () => temporal.client, taskQueue: worker.taskQueue }, aiProvider: 'local' },
      webhookSettings: settings,
      // The generating routes answer 200 however loaded the machine (the answer-or-task rule's longest wait).
      settings: { ...RATES, taskWaitMs: 120_000 },
    });
    dispatcher = new WebhookDispatcher(schema.db, api.store, testKafka(), async () => temporal.client, testLogger(), {
      topicPrefix: schema.topicPrefix,
      taskQueue: worker.taskQueue,
    });
    await dispatcher.start();
    rx = await startReceiver((_n, r) => (verified(r.headers, r.body) ? 200 : 401));
    user = await api.user('pro');
    const reg = await call(`${api.url}/api/webhooks`, {
      method: 'POST',
      headers: bearer(user.key),
      json: { url: rx.url, events: ['content.generated', 'strategy.updated', 'user_action'], secret: SECRET },
    });
    expect(reg.status).toBe(201);
  });

  afterAll(async () => {
    await rx.close();
    await dispatcher.stop();
    await worker.stop();
    await api.stop();
    await temporal.connection.close();
    await schema.drop();
  });

  const bodies = () =>
    rx.accepted().map((r) => JSON.parse(r.body) as { event_type: string; data: Record<string, unknown> });

  it('a generating route sends content.generated; the strategy sends strategy.updated too; an integration route user_action', async () => {
    const post = await call(`${api.url}/api/profnet-writer`, {
      method: 'POST',
      headers: bearer(user.key),
      json: { topic: 'Hiring writers' },
    });
    expect(post.status).toBe(200);
    const strategy = await call(`${api.url}/api/content-strategy/generate`, {
      method: 'POST',
      headers: bearer(user.key),
      json: { business_type: 'Agency', goals: ['brand_awareness'], content_types: ['blog'] },
    });
    expect(strategy.status).toBe(200);
    const seo = await call(`${api.url}/api/seo-analyzer`, {
      method: 'POST',
      headers: bearer(user.key),
      json: { content: '# Title\n\nSome text about SEO.', target_keywords: ['seo'] },
    });
    expect(seo.status).toBe(200);
    await waitFor('four deliveries', () => rx.accepted().length >= 4, 180000, 200);
    await new Promise((r) => setTimeout(r, 1000));
    const got = bodies();
    expect(got.map((b) => b.event_type).sort()).toEqual([
      'content.generated',
      'content.generated',
      'strategy.updated',
      'user_action',
    ]);
    const byTask = (id: string) =>
      got
        .filter((b) => b.data.task_id === id)
        .map((b) => b.event_type)
        .sort();
    expect(byTask(post.body.data.task_id)).toEqual(['content.generated']);
    expect(byTask(strategy.body.data.task_id)).toEqual(['content.generated', 'strategy.updated']);
    const generated = got.find((b) => b.data.task_id === post.body.data.task_id)!;
    expect(generated.data).toMatchObject({ task_type: 'profnet_writer', result: { content: post.body.data.content } });
    const action = got.find((b) => b.event_type === 'user_action')!;
    expect(action.data).toMatchObject({
      integration: 'seo_analyzer',
      action: 'analyzed',
      route: 'POST /api/seo-analyzer',
      details: { analysis_id: seo.body.data.analysis_id },
    });
    // Every request the receiver got carried a valid signature (it answers 401 otherwise).
    expect(rx.requests.every((r) => r.status === 200)).toBe(true);
    // And each body is the one the document's `webhooks` section gives for its event.
    const conforms = webhookSchemas((await call(`${api.url}/openapi.json`)).body);
    for (const b of got) conforms(b);
  });
});
