/**
 * HTTP for image vendors: any body (JSON or multipart form) with the same
 * retry discipline as the text vendors (infra/ai/http.ts: per-attempt
 * time-out, 408/429/5xx and network errors retried with jittered backoff,
 * Retry-After honoured, other 4xx never retried), answers read as bytes; and
 * polling of asynchronous vendor tasks within a total time budget.
 */
import { backoffMs, retryAfterMs } from '../../ai/http';
import {
  VendorBadResponseError,
  VendorRateLimitedError,
  VendorRequestRejectedError,
  VendorTimeoutError,
  VendorUnavailableError,
} from '../../ai/errors';

export interface SendOptions {
  vendor: string;
  timeoutMs: number;
  maxRetries: number;
  signal?: AbortSignal;
  fetch?: typeof fetch;
  backoffBaseMs?: number;
}

export interface HttpAnswer {
  status: number;
  headers: Headers;
  body: Buffer;
}

const RETRYABLE = new Set([408, 429, 500, 502, 503, 504]);
const snippet = (b: Buffer) => b.toString('utf8').replace(/\s+/g, ' ').slice(0, 300);

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        reject(signal.reason);
      },
      { once: true },
    );
  });

/** Sends a request (retrying what a retry can fix) and returns a 2xx answer, or throws a VendorError. */
export async function send(url: string, init: RequestInit, o: SendOptions): Promise<HttpAnswer> {
  const doFetch = o.fetch ?? fetch;
  for (let i = 0; ; i++) {
    const last = i >= o.maxRetries;
    const ctl = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      ctl.abort(new Error('attempt time-out'));
    }, o.timeoutMs);
    const onAbort = () => ctl.abort(o.signal!.reason);
    o.signal?.addEventListener('abort', onAbort, { once: true });
    let wait = backoffMs(i, o.backoffBaseMs ?? 500, 20_000, Math.random);
    try {
      const res = await doFetch(url, { ...init, signal: ctl.signal });
      const body = Buffer.from(await res.arrayBuffer());
      if (res.ok) return { status: res.status, headers: res.headers, body };
      if (!RETRYABLE.has(res.status)) throw new VendorRequestRejectedError(o.vendor, res.status, snippet(body));
      const after = retryAfterMs(res.headers);
      if (last || (after !== undefined && after > 60_000)) {
        if (res.status === 429) throw new VendorRateLimitedError(o.vendor, after, i + 1);
        throw new VendorUnavailableError(o.vendor, res.status, snippet(body), i + 1);
      }
      if (after !== undefined) wait = after;
    } catch (e) {
      if (o.signal?.aborted) throw o.signal.reason ?? e;
      if ((e as { code?: string }).code?.startsWith?.('VENDOR_')) throw e;
      if (last) {
        if (timedOut) throw new VendorTimeoutError(o.vendor, o.timeoutMs, i + 1);
        throw new VendorUnavailableError(o.vendor, undefined, (e as Error).message, i + 1);
      }
    } finally {
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', onAbort);
    }
    await sleep(wait, o.signal);
  }
}

/** The JSON of an answer, or VENDOR_BAD_RESPONSE. */
export function jsonOf<T = Record<string, unknown>>(a: HttpAnswer, vendor: string): T {
  try {
    return JSON.parse(a.body.toString('utf8')) as T;
  } catch {
    throw new VendorBadResponseError(vendor, `body is not JSON: ${snippet(a.body)}`);
  }
}

/**
 * Polls `check` every `intervalMs` until it returns a value, within `totalMs`.
 * `onWait` runs before each wait (the activity heartbeats there).
 */
export async function pollUntil<T>(
  vendor: string,
  check: () => Promise<T | undefined>,
  o: { intervalMs: number; totalMs: number; signal?: AbortSignal; onWait?: () => void },
): Promise<T> {
  const deadline = Date.now() + o.totalMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() + o.intervalMs > deadline) throw new VendorTimeoutError(vendor, o.totalMs);
    o.onWait?.();
    await sleep(o.intervalMs, o.signal);
  }
}

/** Downloads a vendor's result file (a signed URL: no credentials are sent). */
export async function download(url: string, o: SendOptions): Promise<Buffer> {
  if (!/^https?:\/\//i.test(url))
    throw new VendorBadResponseError(o.vendor, `result URL is not http(s): ${url.slice(0, 100)}`);
  const a = await send(url, { method: 'GET' }, o);
  if (!a.body.length) throw new VendorBadResponseError(o.vendor, 'the result file is empty');
  return a.body;
}

/** The MIME type of image bytes by their magic number (PNG, JPEG, WebP). */
export function sniffType(b: Buffer): string {
  if (b[0] === 0xff && b[1] === 0xd8) return 'image/jpeg';
  if (b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP')
    return 'image/webp';
  return 'image/png';
}

/** A data URL of image bytes (Replicate and others take images inline). */
export const dataUrl = (b: Buffer) => `data:${sniffType(b)};base64,${b.toString('base64')}`;

/** A form field for a file. */
export const fileBlob = (bytes: Buffer) => new Blob([new Uint8Array(bytes)], { type: sniffType(bytes) });

/** Adds every defined field to a form (numbers as text, buffers as files). */
export function formOf(fields: Record<string, string | number | boolean | Buffer | undefined>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined) continue;
    if (Buffer.isBuffer(v)) f.append(k, fileBlob(v), `${k}.${sniffType(v).slice(6)}`);
    else f.append(k, String(v));
  }
  return f;
}
