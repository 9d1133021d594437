/**
 * The failure table and its use at the activity boundary: every error an
 * activity throws leaves as an ApplicationFailure typed with a documented
 * code, non-retryable exactly when the table says a retry cannot help; and
 * stepped activities resume from their heartbeat details.
 */
import { ApplicationFailure } from '@temporalio/activity';
import { MockActivityEnvironment } from '@temporalio/testing';
import { toActivityFailure, withFailureCodes } from '../../../activities/failures';
import { heartbeatProgress, resumableSteps } from '../../../activities/heartbeat';
import { FAILURES, NON_RETRYABLE_CODES } from '../../../domain/failures';
import { VendorBadResponseError, VendorRequestRejectedError, VendorUnavailableError } from '../../../infra/ai/errors';
import { ConcurrencyError, EventDataRejectedError } from '../../../infra/eventstore';
import { UsageLimitExceeded } from '../../../infra/quota/meter';
import { failureCodeOf } from '../../../workflows/task-runner';

const failure = (e: unknown) => toActivityFailure(e) as ApplicationFailure;

describe('failure codes at the activity boundary', () => {
  it('vendor refusals and unusable answers are not retried; outages and conflicts are', () => {
    expect(failure(new VendorRequestRejectedError('vendor_a', 401, 'bad key'))).toMatchObject({
      type: 'VENDOR_REQUEST_REJECTED',
      nonRetryable: true,
    });
    expect(failure(new VendorBadResponseError('vendor_a', 'not JSON'))).toMatchObject({
      type: 'VENDOR_BAD_RESPONSE',
      nonRetryable: true,
    });
    expect(failure(new VendorUnavailableError('vendor_a', 503, 'down'))).toMatchObject({
      type: 'VENDOR_UNAVAILABLE',
      nonRetryable: false,
    });
    expect(failure(new ConcurrencyError('s', 1, 2))).toMatchObject({
      type: 'CONCURRENCY_CONFLICT',
      nonRetryable: false,
    });
  });

  it('data PostgreSQL refuses and plan limits are not retried; the limit keeps its details', () => {
    expect(failure(new EventDataRejectedError('NUL character', 'data.message'))).toMatchObject({
      type: 'DATA_REJECTED',
      nonRetryable: true,
    });
    const usage = { provider: 'vendor_a', limit_type: 'vendor_a_calls', current_usage: 100, limit_value: 100 };
    expect(failure(new UsageLimitExceeded(usage))).toMatchObject({
      type: 'USAGE_LIMIT_EXCEEDED',
      nonRetryable: true,
      details: [usage],
    });
  });

  it('anything else is INTERNAL_ERROR (retryable), never a JavaScript class name', () => {
    expect(failure(new TypeError('x is undefined'))).toMatchObject({ type: 'INTERNAL_ERROR', nonRetryable: false });
    const given = ApplicationFailure.nonRetryable('as is', 'INVALID_REQUEST');
    expect(toActivityFailure(given)).toBe(given);
  });

  it('wraps every activity of a set', async () => {
    const wrapped = withFailureCodes({
      boom: async () => {
        throw new VendorRequestRejectedError('vendor_b', 403, 'forbidden');
      },
    });
    await expect(wrapped.boom()).rejects.toMatchObject({ type: 'VENDOR_REQUEST_REJECTED', nonRetryable: true });
  });

  it('lists every non-retryable code for the retry policies', () => {
    expect(NON_RETRYABLE_CODES.sort()).toEqual(
      (Object.keys(FAILURES) as (keyof typeof FAILURES)[]).filter((c) => !FAILURES[c].retryable).sort(),
    );
    expect(NON_RETRYABLE_CODES).toEqual(
      expect.arrayContaining([
        'VENDOR_REQUEST_REJECTED',
        'VENDOR_BAD_RESPONSE',
        'DATA_REJECTED',
        'USAGE_LIMIT_EXCEEDED',
      ]),
    );
  });
});

describe('resumable steps', () => {
  it('a retried attempt continues after the last step the earlier attempt heartbeated', async () => {
    const ran: number[] = [];
    const step = async (n: number) => {
      ran.push(n);
      return n * 10;
    };
    const first = new MockActivityEnvironment();
    const beats: unknown[] = [];
    first.on('heartbeat', (d: unknown) => beats.push(d));
    await first.run(async () => {
      // The first attempt finishes steps 0 and 1, then the worker "dies".
      await resumableSteps([0, 1], step);
    });
    expect(beats.at(-1)).toEqual({ results: [0, 10] });
    const retry = new MockActivityEnvironment({ heartbeatDetails: beats.at(-1) });
    const results = await retry.run(() => resumableSteps([0, 1, 2, 3], step));
    expect(results).toEqual([0, 10, 20, 30]);
    expect(ran).toEqual([0, 1, 2, 3]); // steps 0 and 1 were not run again
  });

  it('heartbeats arbitrary progress details', async () => {
    const env = new MockActivityEnvironment();
    const beats: unknown[] = [];
    env.on('heartbeat', (d: unknown) => beats.push(d));
    await env.run(async () => heartbeatProgress({ scene: 3, percent: 42 }));
    expect(beats).toEqual([{ scene: 3, percent: 42 }]);
  });
});

describe('the failure code a task workflow records (workflows/task-runner.ts failureCodeOf)', () => {
  // Shapes as the workflow receives them from the SDK (plain objects with the failures' fields).
  const app = (type: string, message: string, cause?: object) => ({ name: 'ApplicationFailure', type, message, cause });
  it("a regular activity's failure: the ApplicationFailure inside the ActivityFailure", () => {
    const err = { name: 'ActivityFailure', message: 'activity task failed', cause: app('DATA_REJECTED', 'NUL') };
    expect(failureCodeOf(err)).toEqual({ code: 'DATA_REJECTED', message: 'NUL' });
  });
  it("a local activity's failure: the ApplicationFailure itself, whose cause is the error it was made from", () => {
    const err = app('DATA_REJECTED', 'NUL', { name: 'TemporalFailure', message: 'NUL' });
    expect(failureCodeOf(err)).toEqual({ code: 'DATA_REJECTED', message: 'NUL' });
  });
  it('a failure without a code of the table is INTERNAL_ERROR with the innermost message given', () => {
    expect(failureCodeOf({ message: 'outer', cause: { message: 'inner', type: 'TypeError' } })).toEqual({
      code: 'INTERNAL_ERROR',
      message: 'inner',
    });
    expect(failureCodeOf(new Error('boom'))).toEqual({ code: 'INTERNAL_ERROR', message: 'boom' });
  });
});
