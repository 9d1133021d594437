/**
 * Keeps an activity's heartbeat going while it waits on something slow (a
 * vendor call). With a heartbeat timeout on the activity, a worker that dies
 * mid-call is noticed within that timeout and the call is retried elsewhere,
 * instead of after the much longer start-to-close timeout.
 */
import { Context } from '@temporalio/activity';

export async function withHeartbeat<T>(work: () => Promise<T>, everyMs = 3000): Promise<T> {
  const ctx = Context.current();
  ctx.heartbeat();
  const timer = setInterval(() => ctx.heartbeat(), everyMs);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
