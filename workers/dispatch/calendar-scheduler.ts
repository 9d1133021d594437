/**
 * The calendar scheduler (a process component of the projector, like the
 * webhook dispatcher): a Kafka consumer group (`<prefix>.calendar-scheduler`)
 * over the `calendar` topic that turns timer events into Temporal workflows.
 *   CalendarEventScheduled   → start calendarPublishWorkflow `calendar-publish-<schedule_id>`
 *   CalendarEventUnscheduled → cancel that workflow (unless it is the timer firing itself)
 * An outbox: the API only appends events; nothing is started from the request
 * path, so a crash between the append and a start loses nothing (the message
 * is consumed again). Starts use REJECT_DUPLICATE, so a message seen twice
 * starts nothing new; a schedule that is no longer the event's (the consumer
 * catching up on old messages) is not started at all.
 */
import type { Consumer, Kafka } from 'kafkajs';
import { ownerAttributes, workflowKind } from '../../domain/search-attributes';
import type { Logger } from 'pino';
import { Client, WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import { calendarEventDecider } from '../../domain/calendar/event';
import { calendarEventStream } from '../../domain/events/calendar';
import type { EventStore, RecordedEvent } from '../../infra/eventstore';
import { createConsumer, leaveGroup, topicName } from '../../infra/kafka';
import { decodeEvent } from '../../infra/relay/relay';
import { calendarPublishWorkflow } from '../../workflows';
import { publishWorkflowId } from '../../workflows/calendar-publish';

export interface SchedulerOptions {
  topicPrefix: string;
  taskQueue: string;
}

export class CalendarScheduler {
  private consumer: Consumer;
  readonly groupId: string;
  started = 0;
  cancelled = 0;
  lastError: string | undefined;
  private running = false;

  constructor(
    private readonly store: EventStore,
    kafka: Kafka,
    private readonly temporal: () => Promise<Client>,
    private readonly logger: Logger,
    private readonly opts: SchedulerOptions,
  ) {
    this.groupId = `${opts.topicPrefix}.calendar-scheduler`;
    this.consumer = createConsumer(kafka, { groupId: this.groupId });
  }

  get isRunning(): boolean {
    return this.running;
  }

  async start(): Promise<void> {
    await this.consumer.connect();
    await this.consumer.subscribe({ topics: [topicName(this.opts.topicPrefix, 'calendar')], fromBeginning: true });
    this.consumer.on(this.consumer.events.CRASH, (e) => {
      this.lastError = String(e.payload.error?.message ?? e.payload.error);
      this.logger.error({ err: e.payload.error, restart: e.payload.restart }, 'calendar scheduler crashed');
    });
    await this.consumer.run({
      partitionsConsumedConcurrently: 3,
      eachMessage: async ({ message }) => {
        await this.handle(decodeEvent(message.value!));
        this.lastError = undefined;
      },
    });
    this.running = true;
  }

  async stop(): Promise<void> {
    this.running = false;
    await leaveGroup(this.consumer);
  }

  async handle(e: RecordedEvent): Promise<void> {
    if (e.type === 'CalendarEventScheduled') {
      // Only a schedule that is still the event's: old messages of a consumer catching up start nothing.
      const { state } = await this.store.aggregateStream(
        calendarEventStream(e.data.event_id),
        calendarEventDecider.evolve,
        undefined,
      );
      if (!state || state.schedule_id !== e.data.schedule_id) return;
      const client = await this.temporal();
      try {
        await client.workflow.start(calendarPublishWorkflow, {
          taskQueue: this.opts.taskQueue,
          workflowId: publishWorkflowId(e.data.schedule_id),
          args: [
            {
              eventId: e.data.event_id,
              calendarId: e.data.calendar_id,
              ownerId: e.data.owner_id,
              scheduleId: e.data.schedule_id,
              scheduledAt: e.data.scheduled_at,
            },
          ],
          workflowIdReusePolicy: 'REJECT_DUPLICATE',
          workflowIdConflictPolicy: 'FAIL',
          typedSearchAttributes: ownerAttributes(e.data.owner_id, workflowKind(calendarPublishWorkflow)),
        });
        this.started++;
      } catch (err) {
        if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
      }
    } else if (e.type === 'CalendarEventUnscheduled' && e.data.reason !== 'fired') {
      const client = await this.temporal();
      try {
        await client.workflow.getHandle(publishWorkflowId(e.data.schedule_id)).cancel();
        this.cancelled++;
      } catch (err) {
        if (!(err instanceof WorkflowNotFoundError)) throw err;
      }
    }
  }
}
