/**
 * Response schemas of the writers' batches (api/writers/batch.ts): the batch task's result, the 202 that starts a
 * batch and the batch's status with each item's result.
 */
import { KINDS } from './content-schemas';
import { writerResultSchema } from './responses';
import { allRequired, anyString, arr, int, withRequired } from '../kernel/schema';

/** A batch task's result (domain/writers/result.ts BatchResult): how each item ended. */
export const batchResultSchema = allRequired({
  batch_id: anyString,
  platform: { enum: ['profnet', 'socialnet'] },
  total: int,
  succeeded: int,
  failed: int,
  items: arr(
    withRequired(
      {
        index: int,
        type: { enum: KINDS },
        task_id: anyString,
        status: { enum: ['completed', 'failed'] },
        error: allRequired({ code: anyString, message: anyString }),
      },
      ['index', 'type', 'task_id', 'status'],
    ),
  ),
});

const batchItem = withRequired(
  {
    index: int,
    type: anyString,
    task_id: anyString,
    status: { enum: ['pending', 'started', 'in_progress', 'completed', 'failed', 'cancelled'] },
    result: writerResultSchema,
    error: allRequired({ code: anyString, message: anyString }),
  },
  ['index', 'type', 'task_id', 'status'],
);

const notification = withRequired(
  {
    url: anyString,
    status: { enum: ['pending', 'retrying', 'delivered', 'failed'] },
    message_id: { type: ['string', 'null'] },
    attempts: int,
    last_status_code: { type: ['integer', 'null'] },
    last_error: { type: ['string', 'null'] },
    delivered_at: { type: ['string', 'null'] },
  },
  ['url', 'status', 'attempts'],
);

export const batchAcceptedSchema = withRequired(
  {
    success: { const: true },
    batch_id: anyString,
    status: { const: 'started' },
    total: int,
    status_url: anyString,
    notification: withRequired(
      {
        url: anyString,
        secret: { ...anyString, description: 'The signing secret of the notification; shown only here' },
        event_type: { const: 'writer.batch.completed' },
      },
      ['url', 'secret', 'event_type'],
    ),
  },
  ['success', 'batch_id', 'status', 'total', 'status_url'],
);

export const batchStatusSchema = withRequired(
  {
    success: { const: true },
    batch_id: anyString,
    platform: anyString,
    status: { enum: ['started', 'in_progress', 'completed', 'failed', 'cancelled'] },
    created_at: anyString,
    total: int,
    succeeded: int,
    failed: int,
    pending: int,
    items: arr(batchItem),
    progress_messages: arr(allRequired({ timestamp: anyString, message: anyString })),
    notification,
    error: allRequired({ code: anyString, message: anyString }),
  },
  [
    'success',
    'batch_id',
    'platform',
    'status',
    'created_at',
    'total',
    'succeeded',
    'failed',
    'pending',
    'items',
    'progress_messages',
  ],
);
