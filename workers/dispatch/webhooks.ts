/**
 * The webhook dispatcher (a process component of the projector, not a
 * projection: it starts workflows and writes no read model): a Kafka consumer group (`<prefix>.webhook-dispatcher`)
 * over the areas the catalogue reads plus `webhooks`. For each domain event the
 * catalogue maps to webhook names, it starts one delivery workflow per
 * (enabled endpoint of the owner subscribed to the name) with a delivery id
 * derived from (endpoint, source event, name); for WebhookDeliveryRequested
 * (test ping, redeliver, appended by the API) it starts that delivery.
 *
 * At-least-once without duplicates: offsets are committed after the starts;
 * a message seen again derives the same delivery ids, and the start finds the
 * workflow (REJECT_DUPLICATE) or, beyond Temporal's retention, the delivery's
 * WebhookDeliveryScheduled event in the store, and skips it. Endpoints only
 * receive events recorded after they were registered, so a new consumer group
 * reading from the beginning sends no history.
 */
import type { Knex } from 'knex';
import { ownerAttributes, workflowKind } from '../../domain/search-attributes';
import type { Consumer, Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import { Client, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { EVENT_DEFINITIONS } from '../../domain/events';
import { taskStream } from '../../domain/events/tasks';
import {
  buildPayload,
  SourceContext,
  rulesFor,
  webhookMessagesFor,
  WEBHOOK_SOURCE_TYPES,
} from '../../domain/webhooks/catalogue';
import type { DeliveryInput } from '../../domain/webhooks/delivery';
import { deliveryStream, deliveryWorkflowId } from '../../domain/webhooks/endpoint';
import type { EventStore, RecordedEvent } from '../../infra/eventstore';
import { uuidFromKey } from '../../infra/eventstore/ids';
import { createConsumer, leaveGroup, topicName } from '../../infra/kafka';
import { decodeEvent } from '../../infra/relay/relay';
import { subscribedEndpoints } from '../../projections/webhook-deliveries';
import { webhookDeliveryWorkflow } from '../../workflows';

/** The delivery id of (endpoint, source event, event name): the same triple always gives the same id. */
export const deliveryIdFor = (endpointId: string, sourceEventId: string, eventName: string) =>
  uuidFromKey(`webhook-delivery:${endpointId}:${sourceEventId}:${eventName}`);

/**
 * Starts a delivery: workflow id `webhook-delivery-<delivery_id>`, REJECT_DUPLICATE
 * reuse and FAIL conflict policy, so a second start of the same delivery (a
 * message seen twice, two dispatchers racing) finds it and changes nothing.
 */
export async function startDelivery(
  client: Client,
  taskQueue: string,
  input: DeliveryInput,
): Promise<'started' | 'already_started'> {
  try {
    await client.workflow.start(webhookDeliveryWorkflow, {
      taskQueue,
      workflowId: deliveryWorkflowId(input.deliveryId),
      args: [input],
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      workflowIdConflictPolicy: 'FAIL',
      typedSearchAttributes: ownerAttributes(input.userId, workflowKind(webhookDeliveryWorkflow)),
    });
    return 'started';
  } catch (e) {
    if (e instanceof WorkflowExecutionAlreadyStartedError) return 'already_started';
    throw e;
  }
}

export interface DispatcherOptions {
  topicPrefix: string;
  /** Task queue of the worker that runs delivery workflows. */
  taskQueue: string;
}

/** Areas (topics) the dispatcher reads. */
export function dispatcherAreas(): string[] {
  const areas = new Set(WEBHOOK_SOURCE_TYPES.map((t) => EVENT_DEFINITIONS[t].area));
  areas.add('webhooks');
  return [...areas].sort();
}

export class WebhookDispatcher {
  private consumer: Consumer;
  readonly groupId: string;
  started = 0;
  lastError: string | undefined;
  private running = false;

  constructor(
    private readonly db: Knex,
    private readonly store: EventStore,
    kafka: Kafka,
    private readonly temporal: () => Promise<Client>,
    private readonly logger: Logger,
    private readonly opts: DispatcherOptions,
  ) {
    this.groupId = `${opts.topicPrefix}.webhook-dispatcher`;
    this.consumer = createConsumer(kafka, { groupId: this.groupId });
  }

  get isRunning(): boolean {
    return this.running;
  }

  async start(): Promise<void> {
    await this.consumer.connect();
    await this.consumer.subscribe({
      topics: dispatcherAreas().map((a) => topicName(this.opts.topicPrefix, a)),
      fromBeginning: true,
    });
    this.consumer.on(this.consumer.events.CRASH, (e) => {
      this.lastError = String(e.payload.error?.message ?? e.payload.error);
      this.logger.error({ err: e.payload.error, restart: e.payload.restart }, 'webhook dispatcher crashed');
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

  /** The deliveries one event asks for (exposed for tests and tools). */
  async deliveriesFor(event: RecordedEvent): Promise<DeliveryInput[]> {
    if (event.type === 'WebhookDeliveryRequested') {
      const d = event.data;
      return [
        {
          deliveryId: d.delivery_id,
          endpointId: d.endpoint_id,
          userId: d.user_id,
          eventType: d.event_type,
          payload: d.payload,
        },
      ];
    }
    const rules = rulesFor(event.type);
    if (rules.length === 0) return [];
    const ctx: SourceContext = {};
    if (rules.some((r) => r.needs === 'task')) {
      // The task's type and owner are in its first event; the store has it (commit order), a projection might not yet.
      const taskId = 'task_id' in event.data ? String(event.data.task_id) : '';
      const [started] = await this.store.readStream(taskStream(taskId), 0);
      if (started?.type === 'TaskStarted')
        ctx.task = { task_type: started.data.task_type, user_id: started.data.user_id };
    }
    const found = webhookMessagesFor(event, ctx);
    if (!found) return [];
    const endpoints = await subscribedEndpoints(
      this.db,
      found.userId,
      found.messages.map((m) => m.name),
    );
    const out: DeliveryInput[] = [];
    for (const ep of endpoints) {
      if (Date.parse(ep.created_at) > Date.parse(event.recordedAt)) continue; // registered after the event
      for (const m of found.messages) {
        if (!ep.events.includes(m.name)) continue;
        const deliveryId = deliveryIdFor(ep.endpoint_id, event.eventId, m.name);
        out.push({
          deliveryId,
          endpointId: ep.endpoint_id,
          userId: found.userId,
          eventType: m.name,
          payload: buildPayload(m, deliveryId, event.recordedAt),
        });
      }
    }
    return out;
  }

  async handle(event: RecordedEvent): Promise<void> {
    const deliveries = await this.deliveriesFor(event);
    if (deliveries.length === 0) return;
    const client = await this.temporal();
    for (const d of deliveries) {
      if (await this.alreadyScheduled(d.deliveryId)) continue;
      const r = await startDelivery(client, this.opts.taskQueue, d);
      if (r === 'started') this.started++;
      this.logger.debug(
        { delivery_id: d.deliveryId, endpoint_id: d.endpointId, event_type: d.eventType, result: r },
        'webhook delivery',
      );
    }
  }

  /** The delivery's workflow ran before (durable check beyond Temporal's retention). */
  private alreadyScheduled(deliveryId: string): Promise<boolean> {
    return this.store.hasEventOfType(deliveryStream(deliveryId), 'WebhookDeliveryScheduled');
  }
}
