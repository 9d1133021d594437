/**
 * Durable timers over their real spans, in skipped time: Temporal's time-skipping test server
 * (scripts/lib.sh ensure_temporal_test_server; the Java SDK's, bound to loopback) runs the real workflows (the
 * prebuilt test bundle) and the real activities (private schema, a webhook receiver on 127.0.0.1), and moves its
 * clock past every durable timer and activity retry wait while nothing else is running. What real-time tests can
 * only shorten by configuration, these check as shipped:
 * - a webhook delivery to a receiver that keeps failing makes the ten attempts of the default schedule (5 s up to
 *   24 h, about 3.15 days in all, each wait within its ±10 % jitter) and ends `failed`; one that recovers during the
 *   schedule is delivered at the next attempt;
 * - a calendar event scheduled three days ahead is published when its timer fires, not before;
 * - a platform that stays unavailable is tried eight times over about two minutes, then the event is `failed`
 *   with PLATFORM_ERROR.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import type { temporal } from '@temporalio/proto';
import { createActivities } from '../../../activities';
import { registerWebhook, WebhookCommandDeps } from '../../../api/webhooks/commands';
import { calendarCtx, calendarDecider } from '../../../domain/calendar/calendar';
import { calendarEventDecider } from '../../../domain/calendar/event';
import { calendarEventStream, calendarStream } from '../../../domain/events/calendar';
import { buildPayload } from '../../../domain/webhooks/catalogue';
import { deliveryStream, deliveryWorkflowId } from '../../../domain/webhooks/endpoint';
import { DEFAULT_SCHEDULE_SECONDS, JITTER_FRACTION } from '../../../domain/webhooks/schedule';
import { createEventStore, EventStore } from '../../../infra/eventstore';
import { handleCommand } from '../../../infra/eventstore/command';
import type { PlatformPublishers } from '../../../infra/calendar/platforms';
import { SecretBox, WebhookSecretStore } from '../../../infra/webhooks/secrets';
import { parseAllowList } from '../../../infra/webhooks/ssrf';
import { publishWorkflowId } from '../../../workflows/calendar-publish';
import { BUNDLE_PATH } from '../../support/global-setup';
import { testLogger, uniq } from '../../support/env';
import { isolatedSchema, IsolatedSchema } from '../../support/schema';
import { Receiver, startReceiver } from '../webhooks/receiver';

const TEST_SERVER =
  process.env.TEMPORAL_TEST_SERVER ?? path.resolve(__dirname, '../../../.tools/temporal-test-server/bin/test-server');

jest.setTimeout(180_000);

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;
const seconds = (d: { seconds?: unknown; nanos?: number | null } | null | undefined) =>
  Number(d?.seconds ?? 0) + (d?.nanos ?? 0) / 1e9;
const timeOf = (e: HistoryEvent) => seconds(e.eventTime as { seconds?: unknown; nanos?: number | null });
/** Every durable timer the workflow started, in seconds, in order. */
const timersOf = (events: HistoryEvent[]) =>
  events
    .filter((e) => e.timerStartedEventAttributes)
    .map((e) => seconds(e.timerStartedEventAttributes!.startToFireTimeout));

describe('durable timers in skipped time (Temporal test server)', () => {
  let env: TestWorkflowEnvironment;
  let worker: Worker;
  let running: Promise<void>;
  let s: IsolatedSchema;
  let store: EventStore;
  let cmd: WebhookCommandDeps;
  const taskQueue = uniq('timers');
  const user = `u-${randomUUID().slice(0, 8)}`;
  /** The platform adapter of the calendar tests: videonet stays unavailable; every attempt is counted. */
  const attempts: string[] = [];
  const platforms: PlatformPublishers = {
    // auto_publish is on by default: the calendar's events go to their platform's adapter when it has one.
    videonet: {
      publish: async (req) => {
        attempts.push(req.idempotency_key);
        throw Object.assign(new Error('platform unavailable'), { code: 'VENDOR_UNAVAILABLE' });
      },
    },
  };

  beforeAll(async () => {
    if (!existsSync(TEST_SERVER))
      throw new Error(`${TEST_SERVER} is missing: scripts/test installs it (ensure_temporal_test_server)`);
    env = await TestWorkflowEnvironment.createTimeSkipping({
      server: { executable: { type: 'existing-path', path: TEST_SERVER } },
    });
    s = await isolatedSchema();
    store = createEventStore(s.db);
    const secrets = new WebhookSecretStore(s.db, new SecretBox(randomBytes(32)));
    const allow = parseAllowList('127.0.0.1');
    cmd = { store, secrets, ssrf: { allow } };
    worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: { codePath: BUNDLE_PATH },
      activities: createActivities({
        logger: testLogger(),
        // The schedule as shipped (WEBHOOK_RETRY_SCHEDULE unset).
        webhooks: { store, secrets, allow, schedule: [...DEFAULT_SCHEDULE_SECONDS], attemptTimeoutMs: 10_000 },
        calendar: { store, platforms },
      }),
    });
    running = worker.run();
  });

  afterAll(async () => {
    worker?.shutdown();
    await running;
    await env?.teardown();
    await s?.drop();
  });

  describe('webhook deliveries follow the shipped retry schedule', () => {
    let receiver: Receiver | undefined;
    afterEach(async () => receiver?.close());

    async function deliverTo(answer: (n: number) => number) {
      receiver = await startReceiver(answer);
      const endpoint = (await registerWebhook(cmd, user, { url: receiver.url, events: ['content_generated'] })).value;
      const deliveryId = randomUUID();
      const payload = buildPayload(
        { name: 'content_generated', data: { task_id: 't-1' }, content: 'Hello' },
        deliveryId,
        new Date().toISOString(),
      );
      const status = await env.client.workflow.execute('webhookDeliveryWorkflow', {
        taskQueue,
        workflowId: deliveryWorkflowId(deliveryId),
        args: [{ deliveryId, endpointId: endpoint.endpoint_id, userId: user, eventType: 'content_generated', payload }],
      });
      const history = await env.client.workflow.getHandle(deliveryWorkflowId(deliveryId)).fetchHistory();
      return { status, deliveryId, events: history.events ?? [] };
    }

    it('a receiver that keeps failing gets all ten attempts over ~3 days, each wait within its jitter, then failed', async () => {
      const started = Date.now();
      const { status, deliveryId, events } = await deliverTo(() => 500);
      expect(status).toBe('failed');
      expect(receiver!.requests).toHaveLength(DEFAULT_SCHEDULE_SECONDS.length);
      // One body for every attempt, so a receiver can deduplicate by webhook-id.
      expect(new Set(receiver!.requests.map((r) => r.body)).size).toBe(1);
      expect(new Set(receiver!.requests.map((r) => r.headers['webhook-id'])).size).toBe(1);
      const waits = timersOf(events);
      const scheduled = DEFAULT_SCHEDULE_SECONDS.slice(1);
      expect(waits).toHaveLength(scheduled.length);
      waits.forEach((w, i) => {
        expect(w).toBeGreaterThanOrEqual(scheduled[i] * (1 - JITTER_FRACTION) - 0.001);
        expect(w).toBeLessThanOrEqual(scheduled[i] * (1 + JITTER_FRACTION) + 0.001);
      });
      // In the workflow's time the delivery spanned the whole schedule; in ours, a small part of a minute.
      const span = timeOf(events[events.length - 1]) - timeOf(events[0]);
      const total = scheduled.reduce((a, b) => a + b, 0);
      expect(span).toBeGreaterThanOrEqual(total * (1 - JITTER_FRACTION));
      expect(Date.now() - started).toBeLessThan(total * 1000);
      const recorded = await store.readStream(deliveryStream(deliveryId));
      const attempted = recorded.filter((e) => e.type === 'WebhookDeliveryAttempted');
      expect(attempted).toHaveLength(DEFAULT_SCHEDULE_SECONDS.length);
      expect(attempted.every((e) => e.type === 'WebhookDeliveryAttempted' && e.data.outcome === 'failed')).toBe(true);
      const last = attempted[attempted.length - 1];
      expect(last.type === 'WebhookDeliveryAttempted' && last.data.next_attempt_at).toBeNull();
      expect(recorded.some((e) => e.type === 'WebhookDeliveryFinished' && e.data.status === 'failed')).toBe(true);
    });

    it('a receiver that recovers after four failures is delivered to at the fifth attempt, after the 2 h wait', async () => {
      const { status, events } = await deliverTo((n) => (n <= 4 ? 503 : 204));
      expect(status).toBe('succeeded');
      expect(receiver!.requests.map((r) => r.status)).toEqual([503, 503, 503, 503, 204]);
      const waits = timersOf(events);
      expect(waits).toHaveLength(4);
      expect(waits[3]).toBeGreaterThanOrEqual(7200 * (1 - JITTER_FRACTION) - 0.001);
      expect(waits[3]).toBeLessThanOrEqual(7200 * (1 + JITTER_FRACTION) + 0.001);
    });
  });

  describe('calendar publishing timers', () => {
    async function scheduledEvent(platform: string, inSeconds: number) {
      const calendarId = randomUUID();
      const owner = `u-${randomUUID().slice(0, 8)}`;
      await handleCommand(store, calendarStream(calendarId), calendarDecider, {
        kind: 'create',
        calendar_id: calendarId,
        owner_id: owner,
        name: 'Timers',
        timezone: 'Europe/Paris',
      });
      const ctx = calendarCtx(
        (await store.aggregateStream(calendarStream(calendarId), calendarDecider.evolve, undefined)).state!,
      );
      const eventId = randomUUID();
      const scheduleId = randomUUID();
      // The test server's clock, not ours: it stays wherever the last skipped timer left it.
      const now = await env.currentTimeMs();
      const scheduledAt = new Date(now + inSeconds * 1000).toISOString();
      await handleCommand(store, calendarEventStream(eventId), calendarEventDecider, {
        kind: 'create',
        event_id: eventId,
        actor: owner,
        now: new Date(now),
        calendar: ctx,
        fields: { title: 'Launch post', content_type: 'social_post', platform, scheduled_at: scheduledAt },
        status: 'scheduled',
        schedule_id: scheduleId,
      });
      return { eventId, input: { eventId, calendarId, ownerId: owner, scheduleId, scheduledAt } };
    }
    const run = async (input: { scheduleId: string }) => {
      const workflowId = publishWorkflowId(input.scheduleId);
      const outcome = await env.client.workflow.execute('calendarPublishWorkflow', {
        taskQueue,
        workflowId,
        args: [input],
      });
      const history = await env.client.workflow.getHandle(workflowId).fetchHistory();
      return { outcome, events: history.events ?? [] };
    };

    it('an event three days ahead is published when its timer fires, not before', async () => {
      const { eventId, input } = await scheduledEvent('socialnet', 3 * 86400);
      const { outcome, events } = await run(input);
      expect(outcome).toMatchObject({ outcome: 'published', mode: 'local' });
      const [wait] = timersOf(events);
      expect(wait).toBeGreaterThan(3 * 86400 - 120);
      expect(wait).toBeLessThanOrEqual(3 * 86400);
      // The publication was decided after the timer fired, in the workflow's time.
      const fired = events.find((e) => e.timerFiredEventAttributes)!;
      const decided = events.find((e) => e.activityTaskScheduledEventAttributes)!;
      expect(timeOf(decided)).toBeGreaterThanOrEqual(timeOf(fired));
      expect(timeOf(fired)).toBeGreaterThanOrEqual(Date.parse(input.scheduledAt) / 1000 - 1);
      const recorded = await store.readStream(calendarEventStream(eventId));
      expect(recorded.filter((e) => e.type === 'CalendarEventPublished')).toHaveLength(1);
    });

    it('a platform that stays unavailable is tried eight times over two minutes, then the event is failed (PLATFORM_ERROR)', async () => {
      attempts.length = 0;
      const { eventId, input } = await scheduledEvent('videonet', 60);
      const { outcome, events } = await run(input);
      expect(outcome).toMatchObject({ outcome: 'failed', reason: 'PLATFORM_ERROR' });
      expect(attempts).toHaveLength(8);
      expect(new Set(attempts).size).toBe(1); // one idempotency key for every attempt
      // The retries' backoff ran in the workflow's time: 1 s doubling up to 60 s between eight attempts, 123 s.
      const fired = events.find((e) => e.timerFiredEventAttributes)!;
      const failed = events.find((e) => e.activityTaskFailedEventAttributes)!;
      expect(timeOf(failed) - timeOf(fired)).toBeGreaterThanOrEqual(1 + 2 + 4 + 8 + 16 + 32 + 60);
      expect(timeOf(failed) - timeOf(fired)).toBeLessThan(180);
      const recorded = await store.readStream(calendarEventStream(eventId));
      const record = recorded.filter((e) => e.type === 'CalendarEventPublishFailed');
      expect(record).toHaveLength(1);
      expect(record[0].type === 'CalendarEventPublishFailed' && record[0].data.code).toBe('PLATFORM_ERROR');
      expect(recorded.some((e) => e.type === 'CalendarEventPublished')).toBe(false);
    });
  });
});
