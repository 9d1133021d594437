/**
 * What route handlers share: who calls, the metadata of the events a request
 * writes, the API clock, and read-your-writes after a write.
 */
import type { EventMetadata, RecordedEvent } from '../../infra/eventstore';
import { waitForProjection } from '../../projections/consistency';
import type { Caller } from '../identity/lookup';
import type { AppDeps, HandlerCtx } from './types';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyCtx = HandlerCtx<any, any, any>;

/** The authenticated caller (routes with auth 'user' always have one). */
export const callerOf = (ctx: AnyCtx): Caller => ctx.caller!;
export const userIdOf = (ctx: AnyCtx): string => ctx.caller!.userId;

/** Metadata of the events a request appends: the request id, and the caller when there is one. */
export const requestMeta = (ctx: AnyCtx): EventMetadata => ({
  request_id: ctx.requestId,
  ...(ctx.caller ? { user_id: ctx.caller.userId } : {}),
});

/** The API clock (AppDeps.now; tests fix it). */
export const clock = (deps: Pick<AppDeps, 'now'>): Date => (deps.now ? deps.now() : new Date());

/**
 * Read-your-writes: waits (bounded by the consistency setting) until
 * `projection` has applied the last of `events`, so the client's next read
 * sees its write. Past the bound it logs a warning and lets the request go on.
 */
export async function settle(
  ctx: AnyCtx,
  projection: string,
  events: readonly Pick<RecordedEvent, 'streamId' | 'streamPosition'>[],
): Promise<void> {
  const last = events[events.length - 1];
  if (!last) return;
  if (
    !(await waitForProjection(ctx.deps.db, projection, last, { timeoutMs: ctx.deps.settings.consistencyTimeoutMs }))
  ) {
    ctx.req.log?.warn(
      { stream_id: last.streamId, projection },
      'projection did not catch up within the consistency bound',
    );
  }
}
