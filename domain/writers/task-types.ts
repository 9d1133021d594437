/**
 * Task types of the writers (`<platform>_<kind>`, e.g. `profnet_post`,
 * `socialnet_ad_copy`) and of their batches (`profnet_batch`). Every
 * generation task is a content task: its TaskCompleted produces the
 * `content.generated` webhook (domain/webhooks/catalogue.ts reads this set).
 */
import type { WriterTaskType } from '../task-types';
import { WRITER_KINDS, WriterKind, WriterPlatform } from './types';

export const writerTaskType = (platform: WriterPlatform, kind: WriterKind): WriterTaskType => `${platform}_${kind}`;
export const writerBatchTaskType = (platform: WriterPlatform): WriterTaskType => `${platform}_batch`;

export const WRITER_CONTENT_TASK_TYPES: ReadonlySet<string> = new Set(
  (Object.keys(WRITER_KINDS) as WriterPlatform[]).flatMap((p) => WRITER_KINDS[p].map((k) => writerTaskType(p, k))),
);

/** Prefix of a writer's task and workflow ids: `profnet-post-<uuid>`, `socialnet-batch-<uuid>`. */
export const writerTaskIdPrefix = (platform: WriterPlatform, kind: WriterKind | 'batch') =>
  `${platform}-${kind.replace(/_/g, '-')}`;

/** Key under which a batch's notification secret is kept in the webhook secret store. */
export const batchSecretKey = (batchId: string) => `writer-batch:${batchId}`;

/** Task id of a batch's item `index` (1-based): `<batch_id>-item-<index>`. */
export const batchItemId = (batchId: string, index: number) => `${batchId}-item-${index}`;
