/**
 * What route handlers share: who calls, the metadata of the events a request
 * writes, the API clock, and read-your-writes after a write.
 */
import type { EventMetadata, RecordedEvent } from '../../infra/eventstore';
import { catchUpStreams, waitForProjection } from '../../projections/consistency';
import { findProjection, PROJECTIONS } from '../../projections';
import type { Caller } from '../identity/lookup';
import type { AppDeps, RouteCtx } from './types';

type AnyCtx = RouteCtx;

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
 * `projection` has applied `events` (the last of each stream); a stream still
 * behind at the bound the API applies to the projection itself (the projector
 * then skips those events), so the client's next read sees its write even
 * when the projector is behind. A bound of 0 answers at once, without either.
 * A failed catch-up is logged and the request goes on (its write is stored).
 */
export async function settle(
  ctx: AnyCtx,
  projection: string,
  events: readonly Pick<RecordedEvent, 'streamId' | 'streamPosition'>[],
): Promise<void> {
  const bound = ctx.deps.settings.consistencyTimeoutMs;
  try {
    await projectionHasWrite(ctx, projection, events, bound);
  } finally {
    // Records this process cached before the write are read afresh (NOTIFY would say so, a little later).
    ctx.deps.tasks?.settled(projection, [...new Set(events.map((e) => e.streamId))]);
  }
}

/**
 * Projections a task's answer does not wait for: its own record (task-status) — the answer carries the result, and a
 * status read finds a task the projection does not have yet in its workflow (ownTask). A route that answers the
 * record itself asks for it (`withTaskRecord`, awaitTaskEnd).
 */
const NOT_SETTLED_FOR_TASKS = new Set(['task-status']);

/**
 * Read-your-writes of a workflow's work: every stream the workflow `workflowId` and its children wrote (their
 * activities' appends carry the workflow id: infra/eventstore/ambient.ts), in every projection that applies an event
 * type it wrote there, up to the last such event. The kernel calls it when a task's result has arrived (runTask,
 * runWorkflow); no area lists what its workflows write.
 */
export async function settleWrittenBy(
  ctx: AnyCtx,
  workflowId: string,
  opts: { withTaskRecord?: boolean } = {},
): Promise<void> {
  const written = await ctx.deps.store.writtenBy(workflowId);
  if (written.length === 0) return;
  const waits: Promise<void>[] = [];
  for (const p of PROJECTIONS) {
    if (NOT_SETTLED_FOR_TASKS.has(p.name) && !opts.withTaskRecord) continue;
    const mine = written.filter((w) => w.type in p.handlers);
    if (mine.length) waits.push(settle(ctx, p.name, mine));
  }
  await Promise.all(waits);
}

async function projectionHasWrite(
  ctx: AnyCtx,
  projection: string,
  events: readonly Pick<RecordedEvent, 'streamId' | 'streamPosition'>[],
  bound: number,
): Promise<void> {
  if (events.length === 0 || bound <= 0) return;
  const lastOf = new Map<string, number>();
  for (const e of events) lastOf.set(e.streamId, Math.max(e.streamPosition, lastOf.get(e.streamId) ?? -1));
  const waited = await Promise.all(
    [...lastOf].map(async ([streamId, streamPosition]) => ({
      streamId,
      done: await waitForProjection(ctx.deps.db, projection, { streamId, streamPosition }, { timeoutMs: bound }),
    })),
  );
  const behind = waited.filter((w) => !w.done).map((w) => w.streamId);
  if (behind.length === 0) return;
  const p = findProjection(projection);
  if (!p) throw new Error(`settle: no projection named ${projection}`);
  try {
    const applied = await catchUpStreams(ctx.deps.db, ctx.deps.store, p, behind);
    ctx.req.log?.info({ projection, streams: behind, applied }, 'projection caught up by the API');
  } catch (err) {
    ctx.req.log?.warn({ err, projection, streams: behind }, 'projection catch-up failed; answering anyway');
  }
}
