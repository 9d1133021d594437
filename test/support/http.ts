import { appendFileSync, mkdirSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
/** Small fetch wrapper for tests: status, headers and the parsed JSON body (typed loosely on purpose). */
export interface JsonResponse {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/**
 * Whether a request failed because a kept-alive connection was closed as it was reused (the server's keep-alive
 * timer and the client's race; on a loaded machine a poll can sit idle past it): nothing was answered.
 */
const connectionReset = (e: unknown): boolean => {
  const cause = (e as { cause?: { code?: string } }).cause;
  return e instanceof TypeError && ['ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE'].includes(cause?.code ?? '');
};

export async function call(url: string, init: RequestInit & { json?: unknown } = {}): Promise<JsonResponse> {
  const { json, ...rest } = init;
  const send = () =>
    fetch(url, {
      ...rest,
      headers: {
        ...(json !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(rest.headers as Record<string, string>),
      },
      body: json !== undefined ? JSON.stringify(json) : rest.body,
    });
  // A read (GET, HEAD) is sent again once on a fresh connection when the reused one was reset, as HTTP clients do
  // for idempotent requests (RFC 9110 9.2.2); anything else fails as it would for any client.
  const idempotent = ['GET', 'HEAD'].includes((rest.method ?? 'GET').toUpperCase());
  const res = await send().catch((e: unknown) => {
    if (idempotent && connectionReset(e)) return send();
    throw e;
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON: keep the text */
  }
  if (RECORD_TO && res.ok && typeof body === 'object') record(rest.method ?? 'GET', url, res.status, text);
  return { status: res.status, headers: res.headers, body };
}

/**
 * `RECORD_EXAMPLES=<folder>`: every JSON 2xx answer a test receives through `call` is appended to
 * `<folder>/<pid>.jsonl` — real answers, from which `npm run openapi:examples` takes each operation's example in the
 * OpenAPI document (scripts/openapi-examples.ts). Off unless set.
 */
const RECORD_TO = process.env.RECORD_EXAMPLES;
function record(method: string, url: string, status: number, text: string): void {
  if (text.length > 64_000) return;
  const { pathname } = new URL(url);
  mkdirSync(RECORD_TO!, { recursive: true });
  appendFileSync(
    path.join(RECORD_TO!, `${process.pid}.jsonl`),
    `${JSON.stringify({ method: method.toLowerCase(), path: pathname, status, body: JSON.parse(text) })}\n`,
  );
}

/** A request by node:http (fetch sends no body with GET), its body as text; a body is sent with its length. */
export function rawRequest(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const framing = body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) };
    const req = http.request(url, { method, headers: { ...headers, ...framing } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
