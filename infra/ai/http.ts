/**
 * JSON POST with the retry discipline every paid vendor call needs.
 *
 * - Each attempt has its own time-out (AbortController): one hung connection
 *   must not eat the whole activity budget, and a retry gets a fresh chance.
 * - 429, 408 and 5xx, network errors and time-outs are retried up to
 *   `maxRetries` times with exponential backoff and "equal jitter" (half the
 *   delay fixed, half random): the fixed half guarantees we actually back
 *   off, the random half spreads a fleet of workers so they do not retry in
 *   lock-step after a vendor hiccup.
 * - Retry-After (seconds or an HTTP date; OpenAI's retry-after-ms too) is a
 *   floor on the wait. If the vendor asks for longer than `maxRetryAfterMs`
 *   we stop and throw VendorRateLimitedError carrying the delay: sleeping for
 *   minutes inside an activity is the job of Temporal's retry policy.
 * - Other 4xx are never retried (the same request would fail the same way).
 */
import {
  VendorBadResponseError,
  VendorRateLimitedError,
  VendorRequestRejectedError,
  VendorTimeoutError,
  VendorUnavailableError,
} from './errors';

export interface HttpRetryOptions {
  /** Provider token used in errors (`vendor_a`, `tavily`, ...). */
  vendor: string;
  /** Time-out of one attempt, including reading the body. */
  timeoutMs: number;
  /** Retries after the first attempt (0 = one attempt only). */
  maxRetries: number;
  /** First backoff step; doubles per retry. Default 500 ms. */
  backoffBaseMs?: number;
  /** Largest backoff step. Default 20 s. */
  backoffMaxMs?: number;
  /** Longest Retry-After honoured in-process. Default 60 s. */
  maxRetryAfterMs?: number;
  /** Cancels every attempt and the waits between them (e.g. activity cancellation). */
  signal?: AbortSignal;
  /** Injected for tests; defaults to the global fetch / setTimeout / Math.random / Date.now. */
  fetch?: typeof fetch;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  now?: () => number;
}

export interface HttpJsonResult {
  status: number;
  body: unknown;
  /** Attempts made, 1 when the first one succeeded. */
  attempts: number;
}

const RETRYABLE = new Set([408, 429, 500, 502, 503, 504]);

/** Parses Retry-After / retry-after-ms into milliseconds from now; undefined when absent or unreadable. */
export function retryAfterMs(headers: Headers, now: () => number = Date.now): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.ceil(Number(ms));
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value) * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now());
}

/** Backoff before retry number `retry` (0-based): equal jitter over min(max, base·2^retry). */
export function backoffMs(retry: number, base: number, max: number, random: () => number): number {
  const step = Math.min(max, base * 2 ** retry);
  return Math.round(step / 2 + (random() * step) / 2);
}

const defaultSleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

type Outcome =
  | { kind: 'ok'; status: number; text: string }
  | { kind: 'http'; status: number; text: string; headers: Headers }
  | { kind: 'timeout' }
  | { kind: 'network'; detail: string };

async function attempt(url: string, init: RequestInit, opts: HttpRetryOptions): Promise<Outcome> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error('attempt time-out'));
  }, opts.timeoutMs);
  const onOuterAbort = () => controller.abort(opts.signal!.reason);
  opts.signal?.addEventListener('abort', onOuterAbort, { once: true });
  try {
    const res = await (opts.fetch ?? fetch)(url, { ...init, signal: controller.signal });
    const text = await res.text(); // inside the time-out: a body that never ends is a time-out too
    if (res.ok) return { kind: 'ok', status: res.status, text };
    return { kind: 'http', status: res.status, text, headers: res.headers };
  } catch (e) {
    if (opts.signal?.aborted) throw opts.signal.reason ?? e;
    if (timedOut) return { kind: 'timeout' };
    return {
      kind: 'network',
      detail: e instanceof Error ? `${e.message}${e.cause instanceof Error ? ` (${e.cause.message})` : ''}` : String(e),
    };
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onOuterAbort);
  }
}

const snippet = (text: string): string => text.replace(/\s+/g, ' ').slice(0, 300);

/** POSTs `body` as JSON and returns the parsed JSON of a 2xx answer, or throws a VendorError. */
export async function postJsonWithRetry(
  url: string,
  body: unknown,
  headers: Record<string, string>,
  opts: HttpRetryOptions,
): Promise<HttpJsonResult> {
  const sleep = opts.sleep ?? defaultSleep;
  const random = opts.random ?? Math.random;
  const now = opts.now ?? Date.now;
  const base = opts.backoffBaseMs ?? 500;
  const maxStep = opts.backoffMaxMs ?? 20_000;
  const maxRetryAfter = opts.maxRetryAfterMs ?? 60_000;
  const init: RequestInit = {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: JSON.stringify(body),
  };
  const attempts = opts.maxRetries + 1;

  for (let i = 0; ; i++) {
    const out = await attempt(url, init, opts);
    const last = i + 1 >= attempts;
    if (out.kind === 'ok') {
      try {
        return { status: out.status, body: JSON.parse(out.text), attempts: i + 1 };
      } catch {
        throw new VendorBadResponseError(opts.vendor, `body is not JSON: ${snippet(out.text)}`);
      }
    }
    let wait = backoffMs(i, base, maxStep, random);
    if (out.kind === 'http') {
      if (!RETRYABLE.has(out.status)) throw new VendorRequestRejectedError(opts.vendor, out.status, snippet(out.text));
      const after = retryAfterMs(out.headers, now);
      if (after !== undefined && after > maxRetryAfter) {
        if (out.status === 429) throw new VendorRateLimitedError(opts.vendor, after, i + 1);
        throw new VendorUnavailableError(opts.vendor, out.status, `asked to retry after ${after} ms`, i + 1);
      }
      if (last) {
        if (out.status === 429) throw new VendorRateLimitedError(opts.vendor, after, i + 1);
        throw new VendorUnavailableError(opts.vendor, out.status, snippet(out.text), i + 1);
      }
      if (after !== undefined) wait = after + Math.round((random() * base) / 2);
    } else if (last) {
      if (out.kind === 'timeout') throw new VendorTimeoutError(opts.vendor, opts.timeoutMs, i + 1);
      throw new VendorUnavailableError(opts.vendor, undefined, out.detail, i + 1);
    }
    await sleep(wait, opts.signal);
  }
}
