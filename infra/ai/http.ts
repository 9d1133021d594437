/**
 * JSON POST (and its streaming twin, Server-Sent Events) with the retry
 * discipline every paid vendor call needs.
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
 * - A stream is retried only until its first event: after that the caller has
 *   acted on part of the answer, and the time-out is an idle time-out (a long
 *   generation that keeps sending must not be cut).
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
  /**
   * Time-out of one attempt, including reading the body. For an event stream: the wait for the headers, then
   * the longest silence between two chunks (not a limit on the whole stream).
   */
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

/**
 * A 500 that is really the server refusing the request: some servers (llama-cpp-python's, FastAPI with its own
 * error handler) answer a request that fails their parameter validation with 500 and the validator's report
 * ("1 validation error: ... 'loc': ('body', 'response_format', 'type') ..."). The same request fails the same
 * way, so it is a rejection, not an outage, and is never retried.
 */
export const isRequestValidationFailure = (status: number, text: string): boolean =>
  status === 500 && /\bvalidation errors?\b/i.test(text) && /['"]?loc['"]?\s*[:=]?\s*[([]\s*['"]body['"]/i.test(text);

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

/** How one attempt ended: `ok` carries what the caller reads from a 2xx; the others feed the retry decision. */
type Outcome<T> =
  | { kind: 'ok'; value: T }
  | { kind: 'http'; status: number; text: string; headers: Headers }
  | { kind: 'timeout' }
  | { kind: 'network'; detail: string };

/** The abort wiring of one attempt: our time-out and the caller's signal both abort its request. */
function attemptSignal(opts: HttpRetryOptions) {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error('attempt time-out'));
  }, opts.timeoutMs);
  const onOuterAbort = () => controller.abort(opts.signal!.reason);
  if (opts.signal?.aborted) onOuterAbort();
  else opts.signal?.addEventListener('abort', onOuterAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    /** Starts the time-out again (a stream's idle time-out: each chunk buys another `timeoutMs`). */
    restart: () => timer.refresh(),
    /** Closes the connection (a stream we stop reading must not keep the server generating). */
    close: () => controller.abort(new Error('stream closed by the client')),
    dispose() {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onOuterAbort);
    },
  };
}

/** A failed fetch or read: the caller's cancellation is rethrown as is; otherwise a time-out or a network failure. */
function failure(
  e: unknown,
  timedOut: boolean,
  opts: HttpRetryOptions,
): { kind: 'timeout' } | { kind: 'network'; detail: string } {
  if (opts.signal?.aborted) throw opts.signal.reason ?? e;
  if (timedOut) return { kind: 'timeout' };
  return {
    kind: 'network',
    detail: e instanceof Error ? `${e.message}${e.cause instanceof Error ? ` (${e.cause.message})` : ''}` : String(e),
  };
}

async function attempt(
  url: string,
  init: RequestInit,
  opts: HttpRetryOptions,
): Promise<Outcome<{ status: number; text: string }>> {
  const a = attemptSignal(opts);
  try {
    const res = await (opts.fetch ?? fetch)(url, { ...init, signal: a.signal });
    const text = await res.text(); // inside the time-out: a body that never ends is a time-out too
    if (res.ok) return { kind: 'ok', value: { status: res.status, text } };
    return { kind: 'http', status: res.status, text, headers: res.headers };
  } catch (e) {
    return failure(e, a.timedOut(), opts);
  } finally {
    a.dispose();
  }
}

const snippet = (text: string): string => text.replace(/\s+/g, ' ').slice(0, 300);

/**
 * The retry loop shared by the JSON and the event-stream POST: runs `run(attemptNumber)` until it succeeds,
 * retrying 408/429/5xx, time-outs and network failures with backoff and Retry-After, and throws the typed error
 * once retrying cannot help. Errors `run` throws itself pass through untouched (never retried).
 */
async function withRetries<T>(
  opts: HttpRetryOptions,
  run: (attemptNumber: number) => Promise<Outcome<T>>,
): Promise<{ value: T; attempts: number }> {
  const sleep = opts.sleep ?? defaultSleep;
  const random = opts.random ?? Math.random;
  const now = opts.now ?? Date.now;
  const base = opts.backoffBaseMs ?? 500;
  const maxStep = opts.backoffMaxMs ?? 20_000;
  const maxRetryAfter = opts.maxRetryAfterMs ?? 60_000;
  const attempts = opts.maxRetries + 1;

  for (let i = 0; ; i++) {
    const out = await run(i + 1);
    const last = i + 1 >= attempts;
    if (out.kind === 'ok') return { value: out.value, attempts: i + 1 };
    let wait = backoffMs(i, base, maxStep, random);
    if (out.kind === 'http') {
      if (!RETRYABLE.has(out.status) || isRequestValidationFailure(out.status, out.text))
        throw new VendorRequestRejectedError(opts.vendor, out.status, snippet(out.text));
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

const parseJson = (vendor: string, text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    throw new VendorBadResponseError(vendor, `body is not JSON: ${snippet(text)}`);
  }
};

/** A POST of `body` as JSON, accepting `accept`, with the caller's headers. */
const jsonPost = (body: unknown, headers: Record<string, string>, accept: string): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', accept, ...headers },
  body: JSON.stringify(body),
});

/** POSTs `body` as JSON and returns the parsed JSON of a 2xx answer, or throws a VendorError. */
export async function postJsonWithRetry(
  url: string,
  body: unknown,
  headers: Record<string, string>,
  opts: HttpRetryOptions,
): Promise<HttpJsonResult> {
  const init = jsonPost(body, headers, 'application/json');
  const { value, attempts } = await withRetries(opts, () => attempt(url, init, opts));
  return { status: value.status, body: parseJson(opts.vendor, value.text), attempts };
}

/**
 * The answer to an event-stream POST: the events went to `onEvent` (`done` says whether `data: [DONE]` ended
 * them), or the server answered plain JSON instead of a stream (`body`).
 */
export type HttpEventStreamResult =
  | { status: number; attempts: number; streamed: true; done: boolean }
  | { status: number; attempts: number; streamed: false; body: unknown };

/** Called with the parsed JSON of each `data:` event and the number of the attempt it came from. */
export type EventHandler = (data: unknown, attemptNumber: number) => void;

type StreamValue =
  { status: number; streamed: true; done: boolean } | { status: number; streamed: false; text: string };

/**
 * One attempt of an event-stream POST. `timeoutMs` bounds the wait for the headers, then each silence between
 * two chunks: a generation that keeps sending never times out. Until the first event reached `onEvent` a failure
 * is an ordinary outcome (retried); after it the failure is thrown (VendorTimeoutError / VendorUnavailableError),
 * because the caller has already acted on part of the answer.
 */
async function streamAttempt(
  url: string,
  init: RequestInit,
  opts: HttpRetryOptions,
  onEvent: EventHandler,
  attemptNumber: number,
): Promise<Outcome<StreamValue>> {
  const a = attemptSignal(opts);
  let delivered = 0;
  let finished = false;
  const broken = (e: unknown) => {
    const out = failure(e, a.timedOut(), opts);
    if (delivered === 0) return out;
    if (out.kind === 'timeout') throw new VendorTimeoutError(opts.vendor, opts.timeoutMs, attemptNumber);
    throw new VendorUnavailableError(
      opts.vendor,
      undefined,
      `the event stream broke off: ${out.detail}`,
      attemptNumber,
    );
  };
  let data: string[] = [];
  /** Ends the event being read; true when it was `[DONE]`. */
  const dispatch = (): boolean => {
    if (data.length === 0) return false;
    const payload = data.join('\n');
    data = [];
    if (payload.trim() === '[DONE]') return true;
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload);
    } catch {
      throw new VendorBadResponseError(opts.vendor, `event-stream data is not JSON: ${snippet(payload)}`);
    }
    delivered++;
    onEvent(parsed, attemptNumber);
    return false;
  };
  /** One line of the stream; comments (`:` keep-alives) and fields other than `data` carry nothing we use. */
  const line = (raw: string): boolean => {
    const l = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (l === '') return dispatch();
    if (l.startsWith('data:')) data.push(l.slice(l.startsWith('data: ') ? 6 : 5));
    return false;
  };
  try {
    let res: Response;
    try {
      res = await (opts.fetch ?? fetch)(url, { ...init, signal: a.signal });
    } catch (e) {
      return broken(e);
    }
    if (!res.ok || !res.body || !/^text\/event-stream\b/i.test(res.headers.get('content-type') ?? '')) {
      let text: string;
      try {
        text = await res.text();
      } catch (e) {
        return broken(e);
      }
      finished = true;
      if (!res.ok) return { kind: 'http', status: res.status, text, headers: res.headers };
      return { kind: 'ok', value: { status: res.status, streamed: false, text } };
    }
    a.restart();
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (e) {
        return broken(e);
      }
      if (chunk.done) break;
      a.restart();
      buffer += decoder.decode(chunk.value, { stream: true });
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const l of lines)
        if (line(l)) return { kind: 'ok', value: { status: res.status, streamed: true, done: true } };
    }
    finished = true;
    buffer += decoder.decode();
    // Lenient at the end: an event without its closing blank line still counts.
    const done = (buffer !== '' && line(buffer)) || dispatch();
    if (!done && delivered === 0) return { kind: 'network', detail: 'the event stream ended without any event' };
    return { kind: 'ok', value: { status: res.status, streamed: true, done } };
  } finally {
    a.dispose();
    if (!finished) a.close();
  }
}

/**
 * POSTs `body` as JSON asking for Server-Sent Events and hands the JSON of each `data:` line to `onEvent` as it
 * arrives. Same retry discipline as postJsonWithRetry, but only until the first event: a failure after it is
 * thrown at once (re-running a half-streamed generation is the caller's decision). `opts.signal` aborts the
 * request at once and closes the connection, so the server stops generating. Non-JSON data → VendorBadResponseError.
 */
export async function postEventStreamWithRetry(
  url: string,
  body: unknown,
  headers: Record<string, string>,
  opts: HttpRetryOptions,
  onEvent: EventHandler,
): Promise<HttpEventStreamResult> {
  const init = jsonPost(body, headers, 'text/event-stream, application/json');
  const { value, attempts } = await withRetries(opts, (n) => streamAttempt(url, init, opts, onEvent, n));
  if (value.streamed) return { status: value.status, attempts, streamed: true, done: value.done };
  return { status: value.status, attempts, streamed: false, body: parseJson(opts.vendor, value.text) };
}
