/**
 * Read-your-writes. After a write, the API waits (bounded) until the
 * projection that serves the next read has applied the write's last event,
 * so a client that writes and then reads sees its write.
 */
import type { Knex } from 'knex';
import type { RecordedEvent } from '../infra/eventstore/port';

export interface WaitOptions {
  /** Longest wait, ms (default 2000). */
  timeoutMs?: number;
  /** Poll interval, ms (default 10). */
  intervalMs?: number;
}

/** Resolves true once `projection` has applied `event` (or a later event of its stream), false on time-out. */
export async function waitForProjection(db: Knex, projection: string, event: Pick<RecordedEvent, 'streamId' | 'streamPosition'>, opts: WaitOptions = {}): Promise<boolean> {
  const deadline = Date.now() + (opts.timeoutMs ?? 2000);
  for (;;) {
    const row = await db('projection_streams').where({ projection, stream_id: event.streamId }).first('position', 'pending');
    if (row && (row.position >= event.streamPosition || (row.pending as number[]).includes(event.streamPosition))) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 10));
  }
}
