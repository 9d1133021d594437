/**
 * Webhook deliveries with a real Temporal worker (the prebuilt test bundle),
 * real PostgreSQL (isolated schema) and real receivers on 127.0.0.1: retries
 * until accepted once, a signature checked by an independent verifier, 410
 * disabling the endpoint (seen through the projection), SSRF refusals at
 * registration and at delivery time.
 */
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { createActivities } from '../../../activities';
import { registerWebhook, testWebhook, updateWebhook, WebhookCommandDeps } from '../../../api/webhooks/commands';
import { ValidationError } from '../../../domain/errors';
import { buildPayload } from '../../../domain/webhooks/catalogue';
import { deliveryStream, deliveryWorkflowId, webhookStream } from '../../../domain/webhooks/endpoint';
import { createEventStore, EventStore } from '../../../infra/eventstore';
import { SecretBox, WebhookSecretStore } from '../../../infra/webhooks/secrets';
import { parseAllowList } from '../../../infra/webhooks/ssrf';
import { startDelivery } from '../../../workers/dispatch/webhooks';
import { waitForProjection } from '../../../projections/consistency';
import { getEndpoint, listDeliveries, webhookDeliveriesProjection } from '../../../projections/webhook-deliveries';
import { startTestWorker, testLogger, testTemporal } from '../../support/env';
import { InProcessPipeline, startInProcessPipeline } from '../../support/pipeline';
import { isolatedSchema, IsolatedSchema } from '../../support/schema';
import { startReceiver } from './receiver';

/** Written from the Standard Webhooks scheme with Node crypto only; not the project's signing code. */
function independentVerify(
  secret: string,
  headers: Record<string, string | string[] | undefined>,
  body: string,
): boolean {
  const id = String(headers['webhook-id']);
  const ts = String(headers['webhook-timestamp']);
  if (Math.abs(Date.now() / 1000 - Number(ts)) > 300) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${ts}.${body}`).digest();
  const header = String(headers['webhook-signature']);
  if (String(headers['x-service-signature']) !== header) return false;
  return header.split(' ').some((part) => {
    const [v, sig] = part.split(',');
    const given = Buffer.from(sig ?? '', 'base64');
    return v === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

describe('webhook delivery workflow', () => {
  let s: IsolatedSchema;
  let store: EventStore;
  let cmd: WebhookCommandDeps;
  let worker: Awaited<ReturnType<typeof startTestWorker>>;
  let client: Client;
  let closeTemporal: () => Promise<void>;
  let pipeline: InProcessPipeline;
  const user = `u-${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    s = await isolatedSchema();
    store = createEventStore(s.db);
    const secrets = new WebhookSecretStore(s.db, new SecretBox(randomBytes(32)));
    cmd = { store, secrets, ssrf: { allow: parseAllowList('127.0.0.1') } };
    worker = await startTestWorker(
      createActivities({
        logger: testLogger(),
        // The worker allows only 127.0.0.1 by that name: `localhost` is re-checked and refused at delivery time.
        webhooks: {
          store,
          secrets,
          allow: parseAllowList('127.0.0.1'),
          schedule: [0, 0.3, 0.3, 0.3, 0.3],
          // The receivers answer at once: a long attempt time-out keeps a loaded machine from turning one slow answer
          // into an extra attempt (the tests count attempts).
          attemptTimeoutMs: 30000,
        },
      }),
    );
    const t = await testTemporal();
    client = t.client;
    closeTemporal = () => t.connection.close();
    pipeline = await startInProcessPipeline(s, store, [webhookDeliveriesProjection]);
  });

  afterAll(async () => {
    await pipeline.stop();
    await worker.stop();
    await closeTemporal();
    await s.drop();
  });

  async function deliver(endpointId: string, eventType = 'content_generated') {
    const deliveryId = randomUUID();
    const payload = buildPayload(
      { name: eventType, data: { task_id: 't-1' }, content: 'Hello' },
      deliveryId,
      new Date().toISOString(),
    );
    expect(
      await startDelivery(client, worker.taskQueue, { deliveryId, endpointId, userId: user, eventType, payload }),
    ).toBe('started');
    return { deliveryId, payload, result: () => client.workflow.getHandle(deliveryWorkflowId(deliveryId)).result() };
  }

  it('retries a receiver answering 500 three times, then it accepts the message exactly once with a valid signature', async () => {
    const rx = await startReceiver((n) => (n <= 3 ? 500 : 200));
    try {
      const reg = await registerWebhook(cmd, user, { url: rx.url, events: ['content_generated'] });
      const d = await deliver(reg.value.endpoint_id);
      expect(await d.result()).toBe('succeeded');
      expect(rx.requests).toHaveLength(4);
      expect(rx.accepted()).toHaveLength(1);
      const ok = rx.accepted()[0];
      expect(independentVerify(reg.value.secret, ok.headers, ok.body)).toBe(true);
      expect(independentVerify(`whsec_${randomBytes(32).toString('base64')}`, ok.headers, ok.body)).toBe(false);
      expect(JSON.parse(ok.body)).toEqual(d.payload);
      expect(new Set(rx.requests.map((r) => r.headers['webhook-id']))).toEqual(new Set([d.deliveryId]));

      const events = await store.readStream(deliveryStream(d.deliveryId));
      expect(events.map((e) => e.type)).toEqual([
        'WebhookDeliveryScheduled',
        'WebhookDeliveryAttempted',
        'WebhookDeliveryAttempted',
        'WebhookDeliveryAttempted',
        'WebhookDeliveryAttempted',
        'WebhookDeliveryFinished',
      ]);
      const attempts = events.flatMap((e) => (e.type === 'WebhookDeliveryAttempted' ? [e.data] : []));
      expect(attempts.map((a) => [a.attempt, a.status_code, a.outcome])).toEqual([
        [1, 500, 'failed'],
        [2, 500, 'failed'],
        [3, 500, 'failed'],
        [4, 200, 'succeeded'],
      ]);
      expect(attempts.slice(0, 3).every((a) => a.next_attempt_at !== null)).toBe(true);
      expect(attempts[3].next_attempt_at).toBeNull();

      // Starting the same delivery again changes nothing: the message is never delivered by two workflows.
      expect(
        await startDelivery(client, worker.taskQueue, {
          deliveryId: d.deliveryId,
          endpointId: reg.value.endpoint_id,
          userId: user,
          eventType: 'content_generated',
          payload: d.payload,
        }),
      ).toBe('already_started');
      await new Promise((r) => setTimeout(r, 500));
      expect(rx.accepted()).toHaveLength(1);

      const last = events[events.length - 1];
      expect(await waitForProjection(s.db, 'webhook-deliveries', last, { timeoutMs: 60000 })).toBe(true);
      const [row] = await listDeliveries(s.db, user, reg.value.endpoint_id);
      expect(row).toMatchObject({
        delivery_id: d.deliveryId,
        status: 'succeeded',
        attempts: 4,
        last_status_code: 200,
        next_attempt_at: null,
      });
    } finally {
      await rx.close();
    }
  });

  it('disables the endpoint on 410 Gone, and the projection shows it', async () => {
    const rx = await startReceiver(() => 410);
    try {
      const reg = await registerWebhook(cmd, user, { url: rx.url, events: ['quota.warning'] });
      const d = await deliver(reg.value.endpoint_id, 'quota.warning');
      expect(await d.result()).toBe('endpoint_disabled');
      expect(rx.requests).toHaveLength(1);
      const ep = await store.readStream(webhookStream(reg.value.endpoint_id));
      expect(ep.map((e) => e.type)).toEqual(['WebhookRegistered', 'WebhookDisabled']);
      expect(await waitForProjection(s.db, 'webhook-deliveries', ep[1], { timeoutMs: 60000 })).toBe(true);
      expect(await getEndpoint(s.db, user, reg.value.endpoint_id)).toMatchObject({
        enabled: false,
        disabled_reason: expect.stringMatching(/410/),
      });
      const dEvents = await store.readStream(deliveryStream(d.deliveryId));
      expect(
        await waitForProjection(s.db, 'webhook-deliveries', dEvents[dEvents.length - 1], { timeoutMs: 60000 }),
      ).toBe(true);
      expect((await listDeliveries(s.db, user, reg.value.endpoint_id))[0]).toMatchObject({
        status: 'endpoint_disabled',
        attempts: 1,
        last_status_code: 410,
      });

      // A later message to the disabled endpoint stops before any attempt; a test ping is refused.
      const d2 = await deliver(reg.value.endpoint_id, 'quota.warning');
      expect(await d2.result()).toBe('endpoint_disabled');
      expect(rx.requests).toHaveLength(1);
      await expect(testWebhook(cmd, user, reg.value.endpoint_id)).rejects.toMatchObject({ kind: 'conflict' });
    } finally {
      await rx.close();
    }
  });

  it('honours Retry-After as a lower bound of the next wait', async () => {
    const rx = await startReceiver((n) => (n === 1 ? { status: 503, headers: { 'retry-after': '2' } } : 200));
    try {
      const reg = await registerWebhook(cmd, user, { url: rx.url, events: ['content_generated'] });
      const t0 = Date.now();
      const d = await deliver(reg.value.endpoint_id);
      expect(await d.result()).toBe('succeeded');
      expect(Date.now() - t0).toBeGreaterThanOrEqual(2000);
      expect(rx.requests.map((r) => r.status)).toEqual([503, 200]);
    } finally {
      await rx.close();
    }
  });

  it('refuses a loopback URL at registration unless the allow-list names it', async () => {
    const rx = await startReceiver(() => 200);
    try {
      const strict = { ...cmd, ssrf: { allow: [] } };
      await expect(registerWebhook(strict, user, { url: rx.url, events: ['quota.warning'] })).rejects.toBeInstanceOf(
        ValidationError,
      );
      await expect(registerWebhook(strict, user, { url: rx.url, events: ['quota.warning'] })).rejects.toMatchObject({
        issues: [{ path: 'url', message: expect.stringMatching(/loopback/) }],
      });
      await expect(
        registerWebhook(strict, user, { url: 'http://169.254.169.254/latest/meta-data', events: ['quota.warning'] }),
      ).rejects.toThrow(/metadata/);
      await expect(
        registerWebhook(strict, user, { url: 'http://[::ffff:10.0.0.1]/', events: ['quota.warning'] }),
      ).rejects.toThrow(/private/);
      await expect(registerWebhook(cmd, user, { url: rx.url, events: ['quota.warning'] })).resolves.toMatchObject({
        value: { url: rx.url },
      });
      // Updating to a forbidden URL is refused too.
      const reg = await registerWebhook(cmd, user, { url: rx.url, events: ['quota.warning'] });
      await expect(updateWebhook(strict, user, reg.value.endpoint_id, { url: 'http://10.1.2.3/' })).rejects.toThrow(
        /private/,
      );
    } finally {
      await rx.close();
    }
  });

  it('re-checks the address at delivery time: a host the worker does not allow is never contacted', async () => {
    const rx = await startReceiver(() => 200);
    try {
      // Registration allowed `localhost`; the worker's allow-list names only 127.0.0.1.
      const reg = await registerWebhook({ ...cmd, ssrf: { allow: parseAllowList('localhost') } }, user, {
        url: `http://localhost:${rx.port}/hook`,
        events: ['quota.warning'],
      });
      const d = await deliver(reg.value.endpoint_id, 'quota.warning');
      expect(await d.result()).toBe('failed');
      expect(rx.requests).toHaveLength(0);
      const events = await store.readStream(deliveryStream(d.deliveryId));
      const attempted = events.flatMap((e) => (e.type === 'WebhookDeliveryAttempted' ? [e.data] : []));
      expect(attempted).toHaveLength(1);
      expect(attempted[0]).toMatchObject({ status_code: null, error: expect.stringMatching(/loopback/) });
    } finally {
      await rx.close();
    }
  });
});
