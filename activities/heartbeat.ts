/**
 * Heartbeats of long activities. With a heartbeat timeout on the activity, a
 * worker that dies mid-work is noticed within that timeout and the activity is
 * retried elsewhere, instead of after the much longer start-to-close timeout.
 *
 * Work made of steps (scenes of a render, sections of a document) heartbeats
 * with details saying how far it got; a retried attempt reads them back with
 * `resumePoint()` and continues after the last finished step instead of
 * starting over (the pattern of Temporal's heartbeating samples).
 */
import { Context } from '@temporalio/activity';

/**
 * Keeps heartbeating every `everyMs` while `work` runs (a vendor call), with the latest `details` if given. A
 * cancellation reaches an activity only in the answer to a heartbeat sent after it, so the interval bounds how long a
 * cancelled model call goes on: 1 s (the worker's throttle decides how often heartbeats actually leave; 3 s let a
 * 2-second generation finish, and be charged, after its task was cancelled).
 */
export async function withHeartbeat<T>(work: () => Promise<T>, everyMs = 1000, details?: () => unknown): Promise<T> {
  const ctx = Context.current();
  const beat = () => (details ? ctx.heartbeat(details()) : ctx.heartbeat());
  beat();
  const timer = setInterval(beat, everyMs);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

/** Records how far a stepped activity got (sent with the next heartbeat; survives the worker). */
export function heartbeatProgress<P>(progress: P): void {
  Context.current().heartbeat(progress);
}

/** The progress an earlier attempt of this activity heartbeated, or undefined on the first attempt. */
export function resumePoint<P>(): P | undefined {
  return Context.current().info.heartbeatDetails as P | undefined;
}

/**
 * Runs `steps` in order from where an earlier attempt stopped: each finished
 * step's result is heartbeated together with the results before it, so a
 * retry skips them. `onStep` does one step; the results of all steps are returned.
 */
export async function resumableSteps<S, R>(steps: S[], onStep: (step: S, index: number) => Promise<R>): Promise<R[]> {
  const done = resumePoint<{ results: R[] }>()?.results ?? [];
  const results = [...done];
  for (let i = results.length; i < steps.length; i++) {
    results.push(await onStep(steps[i], i));
    heartbeatProgress({ results });
  }
  return results;
}
