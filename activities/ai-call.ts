/**
 * How activities make one AI call through the gateway and read its answer:
 * heartbeating while the vendor works, turning plan-limit and not-configured
 * failures into non-retryable workflow errors, and checking a JSON answer's
 * shape (a vendor may answer anything; a bad answer fails the attempt).
 */
import { ApplicationFailure } from '@temporalio/activity';
import Ajv, { ValidateFunction } from 'ajv';
import type { AiGateway, CompletionRequest, CompletionResponse } from '../infra/ai/gateway';
import { UsageLimitExceeded } from '../infra/quota/meter';
import { parseJsonAnswer } from '../domain/blog/prompts';
import type { Source } from '../domain/blog/types';
import { withHeartbeat } from './heartbeat';

export const ajv = new Ajv({ allErrors: true, strict: false });
export const strings = { type: 'array', items: { type: 'string' } };

/** One metered call; plan limits and missing vendors fail the workflow at once (no retry can fix them). */
export async function guarded(gateway: AiGateway, req: CompletionRequest): Promise<CompletionResponse> {
  try {
    return await withHeartbeat(() => gateway.complete(req));
  } catch (e) {
    if (e instanceof UsageLimitExceeded) throw ApplicationFailure.create({ type: 'UsageLimitExceeded', message: e.message, details: [e.details], nonRetryable: true });
    if ((e as { code?: string }).code === 'VENDOR_NOT_CONFIGURED') throw ApplicationFailure.create({ type: 'VendorNotConfiguredError', message: (e as Error).message, nonRetryable: true });
    throw e;
  }
}

/** The answer's JSON object, checked against `check`; an unreadable or misshapen answer throws (and is retried). */
export function parsed<T>(resp: CompletionResponse, check: ValidateFunction, what: string): T {
  let value: unknown;
  try {
    value = parseJsonAnswer(resp.text);
  } catch (e) {
    throw new Error(`${resp.provider} returned an unreadable ${what}: ${(e as Error).message}`);
  }
  if (!check(value)) throw new Error(`${resp.provider} returned a ${what} of the wrong shape: ${ajv.errorsText(check.errors)}`);
  return value as T;
}

/** Sources numbered 1..n, the numbers `[n]` citations refer to. */
export const numbered = <S extends Source>(sources: S[]): S[] => sources.map((s, i) => ({ ...s, index: i + 1 }));
