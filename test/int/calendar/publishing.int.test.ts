/**
 * Publishing at the scheduled time: the scheduler starts one timer workflow
 * per armed schedule; the event is published when it fires (local mode, no
 * platform adapter), once; rescheduling moves the timer, cancelling stops it;
 * a worker that is down at the scheduled moment publishes on restart, once;
 * a publication that fails for good (the platform adapter) moves the event to
 * `failed` with PLATFORM_ERROR, while a transient adapter error is retried.
 */
import type { TestApi } from '../../support/api';
import { testTemporal, uniq } from '../../support/env';
import { startCalendarScheduler, startCalendarWorker } from '../../support/calendar-worker';
import { calendarEventStream } from '../../../domain/events/calendar';
import { SourceEvent, webhookMessagesFor } from '../../../domain/webhooks/catalogue';
import type { PlatformPublishers } from '../../../infra/calendar/platforms';
import { publishWorkflowId } from '../../../workflows/calendar-publish';
import type { CalendarScheduler } from '../../../workers/dispatch/calendar-scheduler';
import { client, Client, startCalendarApi } from './support';
import { waitFor } from '../../support/wait';

jest.setTimeout(180000);

const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/**
 * How far ahead the events are scheduled: what a test does before that moment (create the event — a time already
 * past is refused —, move or cancel it, stop the worker once its timer runs) must be done by then, on a loaded
 * machine too. The timers' own precision is not what these leads are for.
 */
const LEAD_S = 6;

describe('calendar publishing timers', () => {
  let api: TestApi;
  let temporal: Awaited<ReturnType<typeof testTemporal>>;
  let scheduler: CalendarScheduler;
  let worker: Awaited<ReturnType<typeof startCalendarWorker>> | undefined;
  let alice: Client;
  let calendarId: string;
  const taskQueue = uniq('calendar');

  beforeAll(async () => {
    temporal = await testTemporal();
    api = await startCalendarApi({ deps: { workflows: { client: async () => temporal.client, taskQueue } } });
    scheduler = await startCalendarScheduler(api.schema.db, temporal.client, api.schema.topicPrefix, taskQueue);
    worker = await startCalendarWorker(api.schema.db, { taskQueue });
    alice = client(api, (await api.user('pro')).key);
    calendarId = (await alice.post('/calendars', { name: 'Timers', timezone: 'Europe/Paris' })).body.id;
  });
  afterAll(async () => {
    await worker?.stop();
    await scheduler?.stop();
    await api?.stop();
    await temporal?.connection.close();
  });

  const createAt = async (at: string) => {
    const r = await alice.post(`/calendars/${calendarId}/events`, {
      title: 'Timed',
      content_type: 'social_post',
      platform: 'socialnet',
      scheduled_at: at,
    });
    expect(r.status).toBe(201);
    return r.body.id as string;
  };
  const published = async (id: string) =>
    (await api.store.readStream(calendarEventStream(id))).filter((e) => e.type === 'CalendarEventPublished');
  /** The schedule id of the event's armed timer (its last CalendarEventScheduled). */
  const scheduleIdOf = async (id: string) => {
    const armed = (await api.store.readStream(calendarEventStream(id))).filter(
      (e) => e.type === 'CalendarEventScheduled',
    );
    const last = armed[armed.length - 1];
    return last?.type === 'CalendarEventScheduled' ? last.data.schedule_id : undefined;
  };
  /** Waits until the event's timer workflow has started its durable timer (TimerStarted in its history). */
  async function waitForTimerStarted(id: string, timeoutMs = 30000) {
    // Until the scheduler has started the workflow, reading its history fails: the wait asks again.
    await waitFor(
      `the timer of event ${id} to start`,
      async () => {
        const scheduleId = await scheduleIdOf(id);
        if (!scheduleId) return false;
        const history = await temporal.client.workflow.getHandle(publishWorkflowId(scheduleId)).fetchHistory();
        return (history.events ?? []).some((e) => e.timerStartedEventAttributes);
      },
      timeoutMs,
      200,
    );
  }
  async function waitForStatus(id: string, status: string, timeoutMs = 45000) {
    return waitFor(
      `event ${id} to be ${status}`,
      async () => {
        const r = await alice.get(`/calendars/${calendarId}/events/${id}`);
        return r.body.status === status && r.body;
      },
      timeoutMs,
      300,
    );
  }

  it('publishes at the scheduled time, once, in local mode', async () => {
    const at = inSeconds(LEAD_S);
    const id = await createAt(at);
    const e = await waitForStatus(id, 'published');
    expect(Date.parse(e.published_at)).toBeGreaterThanOrEqual(Date.parse(at));
    expect(e.publication).toMatchObject({ mode: 'local', published_by: 'timer' });
    await sleep(1000);
    expect(await published(id)).toHaveLength(1);
  });

  it('rescheduling moves the timer; cancelling stops it', async () => {
    // Two creations and two changes before the first time; the check that nothing went out at it comes 3 s after
    // it, still well before the new time.
    const first = inSeconds(LEAD_S + 2);
    const moved = await createAt(first);
    const stopped = await createAt(first);
    const later = inSeconds(LEAD_S + 12);
    expect((await alice.patch(`/calendars/${calendarId}/events/${moved}`, { scheduled_at: later })).status).toBe(200);
    expect((await alice.patch(`/calendars/${calendarId}/events/${stopped}`, { status: 'cancelled' })).status).toBe(200);
    await sleep(Date.parse(first) - Date.now() + 3000);
    expect((await alice.get(`/calendars/${calendarId}/events/${moved}`)).body.status).toBe('scheduled');
    const e = await waitForStatus(moved, 'published');
    expect(Date.parse(e.published_at)).toBeGreaterThanOrEqual(Date.parse(later));
    expect((await alice.get(`/calendars/${calendarId}/events/${stopped}`)).body.status).toBe('cancelled');
    expect(await published(moved)).toHaveLength(1);
    expect(await published(stopped)).toHaveLength(0);
  });

  it('publishes on restart when the worker was down at the scheduled moment, and only once', async () => {
    // The worker must be stopped before this time: after the scheduler has started the timer workflow and the worker
    // has run its first task, which goes through Kafka and Temporal.
    const at = inSeconds(LEAD_S + 6);
    const id = await createAt(at);
    // The scheduler started the timer workflow and the worker ran its first task: the durable timer is in the history.
    await waitForTimerStarted(id);
    await worker!.stop();
    worker = undefined;
    await sleep(Date.parse(at) - Date.now() + 3000);
    expect((await alice.get(`/calendars/${calendarId}/events/${id}`)).body.status).toBe('scheduled');
    expect(await published(id)).toHaveLength(0);
    worker = await startCalendarWorker(api.schema.db, { taskQueue });
    const e = await waitForStatus(id, 'published', 60000);
    expect(Date.parse(e.published_at)).toBeGreaterThan(Date.parse(at) + 2000);
    await sleep(2000);
    expect(await published(id)).toHaveLength(1);
  });

  it('a publication that fails for good moves the event to failed (PLATFORM_ERROR); a transient error is retried', async () => {
    let flaky = 0;
    const sent: string[] = [];
    const platforms: PlatformPublishers = {
      // The platform refuses the post: a retry cannot help (VENDOR_REQUEST_REJECTED is not retryable).
      profnet: {
        publish: async () => {
          throw Object.assign(new Error('the platform refused the post (HTTP 403)'), {
            code: 'VENDOR_REQUEST_REJECTED',
          });
        },
      },
      // Unavailable twice, then accepted: retried, published once with the platform's id.
      videonet: {
        publish: async (req) => {
          sent.push(req.idempotency_key);
          if (++flaky <= 2) throw Object.assign(new Error('platform unavailable'), { code: 'VENDOR_UNAVAILABLE' });
          return { external_id: 'vn-123' };
        },
      },
    };
    await worker?.stop();
    worker = await startCalendarWorker(api.schema.db, { taskQueue, platforms });
    const make = async (platform: string) => {
      const r = await alice.post(`/calendars/${calendarId}/events`, {
        title: `On ${platform}`,
        content_type: 'social_post',
        platform,
        scheduled_at: inSeconds(LEAD_S),
      });
      expect(r.status).toBe(201);
      return r.body.id as string;
    };
    const refused = await make('profnet');
    const transient = await make('videonet');

    const failed = await waitForStatus(refused, 'failed', 60000);
    expect(failed.failure).toMatchObject({ code: 'PLATFORM_ERROR' });
    expect(failed.failure.reason).toMatch(/VENDOR_REQUEST_REJECTED/);
    expect(failed.published_at).toBeNull();
    const events = await api.store.readStream(calendarEventStream(refused));
    const record = events.filter((e) => e.type === 'CalendarEventPublishFailed');
    expect(record).toHaveLength(1);
    expect(await published(refused)).toHaveLength(0);
    // Its webhook: event.updated with status failed and the code (the catalogue has no event.failed name).
    const hook = webhookMessagesFor(record[0] as unknown as SourceEvent, {})!;
    expect(hook.messages.map((m) => [m.name, m.data.status, m.data.failure_code])).toEqual([
      ['event.updated', 'failed', 'PLATFORM_ERROR'],
    ]);

    const ok = await waitForStatus(transient, 'published', 60000);
    expect(ok.publication).toMatchObject({ mode: 'platform', external_id: 'vn-123', published_by: 'timer' });
    expect(sent).toHaveLength(3);
    expect(new Set(sent).size).toBe(1); // one idempotency key for every attempt
    expect(await published(transient)).toHaveLength(1);
  });
});
