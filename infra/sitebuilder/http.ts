/**
 * One HTTP exchange with the builder: a hard time-out, JSON or form bodies,
 * and failures (network, time-out) as SitebuilderErrors with a code of the
 * failure table. Nothing here logs: requests carry tokens and client secrets.
 */
import { SitebuilderError } from './errors';

export interface BuilderResponse {
  status: number;
  /** Parsed JSON body, or undefined when the body is not JSON. */
  json: unknown;
  text: string;
}

export interface BuilderRequest {
  method: 'GET' | 'POST' | 'PUT';
  headers?: Record<string, string>;
  json?: unknown;
  form?: Record<string, string>;
  bytes?: Buffer;
  timeoutMs: number;
}

export async function builderFetch(url: string, r: BuilderRequest, what: string): Promise<BuilderResponse> {
  const headers: Record<string, string> = { accept: 'application/json', ...(r.headers ?? {}) };
  let body: string | Buffer | undefined;
  if (r.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(r.json);
  } else if (r.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(r.form).toString();
  } else if (r.bytes) body = r.bytes;
  let res: Response;
  try {
    res = await fetch(url, {
      method: r.method,
      headers,
      body: body as RequestInit['body'],
      redirect: 'error',
      signal: AbortSignal.timeout(r.timeoutMs),
    });
  } catch (e) {
    const err = e as Error & { cause?: { code?: string } };
    if (err.name === 'TimeoutError' || err.name === 'AbortError')
      throw new SitebuilderError('VENDOR_TIMEOUT', `The site builder did not answer in time (${what})`);
    throw new SitebuilderError(
      'VENDOR_UNAVAILABLE',
      `The site builder could not be reached (${what}): ${err.cause?.code ?? err.message}`,
    );
  }
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text };
}

/** The builder's own words for a refusal: its message, field violations or application error code. */
export function builderReason(body: unknown, text: string): string {
  const b = (body ?? {}) as {
    message?: string;
    error?: string;
    error_description?: string;
    details?: {
      validationError?: { fieldViolations?: { field?: string; description?: string }[] };
      applicationError?: { code?: string; description?: string };
    };
  };
  const violations = b.details?.validationError?.fieldViolations ?? [];
  if (violations.length)
    return violations.map((v) => `${v.field ?? 'field'}: ${v.description ?? 'invalid'}`).join('; ');
  const app = b.details?.applicationError;
  const message = b.error_description ?? b.message ?? app?.description ?? b.error;
  if (message) return app?.code && !message.includes(app.code) ? `${message} (${app.code})` : message;
  return text.slice(0, 200).replace(/\s+/g, ' ').trim() || 'no reason given';
}

/**
 * The error for a non-2xx answer of the REST API while doing `action`
 * ("create the draft post"). 401 and 403 say what the user can do about it;
 * 429 and 5xx are worth retrying, the rest is not.
 */
export function restError(action: string, res: BuilderResponse): SitebuilderError {
  const reason = builderReason(res.json, res.text);
  const details = { status: res.status, action };
  if (res.status === 401)
    return new SitebuilderError(
      'VENDOR_REQUEST_REJECTED',
      `The site builder no longer accepts this connection's access token (while trying to ${action}); connect the site again`,
      details,
    );
  if (res.status === 403)
    return new SitebuilderError(
      'VENDOR_REQUEST_REJECTED',
      `The site builder does not allow this connection to ${action}: ${reason}. Connect again and grant the blog permission`,
      details,
    );
  if (res.status === 404)
    return new SitebuilderError(
      'VENDOR_REQUEST_REJECTED',
      `The site builder could not ${action}: not found (${reason})`,
      details,
    );
  if (res.status === 429)
    return new SitebuilderError(
      'VENDOR_RATE_LIMITED',
      `The site builder rate-limited the request to ${action}`,
      details,
    );
  if (res.status >= 500)
    return new SitebuilderError(
      'VENDOR_UNAVAILABLE',
      `The site builder failed to ${action} (HTTP ${res.status}): ${reason}`,
      details,
    );
  if (res.status >= 400)
    return new SitebuilderError(
      'VENDOR_REQUEST_REJECTED',
      `The site builder refused to ${action} (HTTP ${res.status}): ${reason}`,
      details,
    );
  return new SitebuilderError(
    'VENDOR_BAD_RESPONSE',
    `Unexpected answer of the site builder to ${action} (HTTP ${res.status})`,
    details,
  );
}
