/**
 * Starting delivery workflows. The workflow id is `webhook-delivery-<delivery_id>`
 * with REJECT_DUPLICATE reuse and FAIL conflict policy: a second start of
 * the same delivery (a Kafka message seen twice, two dispatchers racing)
 * finds it running or finished and changes nothing.
 */
import type { Client } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { DeliveryInput, DELIVERY_WORKFLOW } from '../../domain/webhooks/delivery';
import { deliveryWorkflowId } from '../../domain/webhooks/endpoint';
import { uuidFromKey } from '../quota/meter';

/** The delivery id of (endpoint, source event, event name): the same triple always gives the same id. */
export const deliveryIdFor = (endpointId: string, sourceEventId: string, eventName: string) => uuidFromKey(`webhook-delivery:${endpointId}:${sourceEventId}:${eventName}`);

/** Starts a delivery; 'already_started' when this delivery id was started before (running or finished). */
export async function startDelivery(client: Client, taskQueue: string, input: DeliveryInput): Promise<'started' | 'already_started'> {
  try {
    await client.workflow.start(DELIVERY_WORKFLOW, {
      taskQueue,
      workflowId: deliveryWorkflowId(input.deliveryId),
      args: [input],
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      workflowIdConflictPolicy: 'FAIL',
    });
    return 'started';
  } catch (e) {
    if (e instanceof WorkflowExecutionAlreadyStartedError) return 'already_started';
    throw e;
  }
}
