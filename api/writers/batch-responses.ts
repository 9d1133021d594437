/**
 * Response schemas of the writers' batches (api/writers/batch.ts): the batch task's result, the 202 that starts a
 * batch and the batch's status with each item's result.
 */
import { KINDS } from './content-schemas';
import { writerResultSchema } from './responses';
import { arr, i, o, s } from './response-shorthand';

/** A batch task's result (domain/writers/result.ts BatchResult): how each item ended. */
export const batchResultSchema = o({
  batch_id: s,
  platform: { enum: ['profnet', 'socialnet'] },
  total: i,
  succeeded: i,
  failed: i,
  items: arr(
    o(
      {
        index: i,
        type: { enum: KINDS },
        task_id: s,
        status: { enum: ['completed', 'failed'] },
        error: o({ code: s, message: s }),
      },
      ['index', 'type', 'task_id', 'status'],
    ),
  ),
});

const batchItem = o(
  {
    index: i,
    type: s,
    task_id: s,
    status: { enum: ['pending', 'started', 'in_progress', 'completed', 'failed', 'cancelled'] },
    result: writerResultSchema,
    error: o({ code: s, message: s }),
  },
  ['index', 'type', 'task_id', 'status'],
);

const notification = o(
  {
    url: s,
    status: { enum: ['pending', 'retrying', 'delivered', 'failed'] },
    message_id: { type: ['string', 'null'] },
    attempts: i,
    last_status_code: { type: ['integer', 'null'] },
    last_error: { type: ['string', 'null'] },
    delivered_at: { type: ['string', 'null'] },
  },
  ['url', 'status', 'attempts'],
);

export const batchAcceptedSchema = o(
  {
    success: { const: true },
    batch_id: s,
    status: { const: 'started' },
    total: i,
    status_url: s,
    notification: o(
      {
        url: s,
        secret: { ...s, description: 'The signing secret of the notification; shown only here' },
        event_type: { const: 'writer.batch.completed' },
      },
      ['url', 'secret', 'event_type'],
    ),
  },
  ['success', 'batch_id', 'status', 'total', 'status_url'],
);

export const batchStatusSchema = o(
  {
    success: { const: true },
    batch_id: s,
    platform: s,
    status: { enum: ['started', 'in_progress', 'completed', 'failed', 'cancelled'] },
    created_at: s,
    total: i,
    succeeded: i,
    failed: i,
    pending: i,
    items: arr(batchItem),
    progress_messages: arr(o({ timestamp: s, message: s })),
    notification,
    error: o({ code: s, message: s }),
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
