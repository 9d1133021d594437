/**
 * A scripted HTTP server on 127.0.0.1 (port 0) that plays a vendor: each
 * request gets the next step of the script (the last step repeats), and
 * every request is recorded (method, path, headers, parsed body) so tests
 * can assert what the client sent. Used for the OpenAI-compatible client and
 * the web-search adapters; no network beyond loopback.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Step {
  status?: number;
  headers?: Record<string, string>;
  /** JSON body (ignored when `raw` is set). */
  body?: unknown;
  raw?: string;
  /** Never answer (the client must time out). */
  hang?: boolean;
  /** Answer after this many ms. */
  delayMs?: number;
  /** Binary body (image files, speech audio), sent with `headers`' content-type (default image/png: speech steps set audio/wav). */
  bytes?: Buffer;
  /** Chooses the step from the request (for protocols whose requests arrive in parallel or out of order). */
  handler?: (req: RecordedRequest) => Step;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
  /** The body as received (multipart forms, binary uploads). */
  rawBody?: Buffer;
  at: number;
}

export interface FakeVendor {
  /** e.g. http://127.0.0.1:40123/v1 */
  baseUrl: string;
  origin: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** A chat-completions body; `usage: null` leaves the usage block out. */
export function completion(
  text: string,
  opts: {
    usage?: { prompt_tokens: number; completion_tokens: number } | null;
    finish_reason?: string;
    model?: string;
  } = {},
) {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    model: opts.model ?? 'test-model',
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: opts.finish_reason ?? 'stop' }],
    ...(opts.usage === null
      ? {}
      : { usage: { ...(opts.usage ?? { prompt_tokens: 11, completion_tokens: 7 }), total_tokens: 0 } }),
  };
}

export async function startFakeVendor(script: Step[], prefix = '/v1'): Promise<FakeVendor> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks);
      const text = rawBody.toString('utf8');
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        /* keep the raw text */
      }
      const recorded = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body,
        rawBody,
        at: Date.now(),
      };
      requests.push(recorded);
      let step = script[Math.min(requests.length - 1, script.length - 1)] ?? { status: 500 };
      if (step.handler) step = step.handler(recorded);
      if (step.hang) return; // the socket stays open until the client aborts or the server closes
      const send = () => {
        if (step.bytes) {
          res.writeHead(step.status ?? 200, { 'content-type': 'image/png', ...(step.headers ?? {}) });
          res.end(step.bytes);
          return;
        }
        const payload = step.raw ?? JSON.stringify(step.body ?? {});
        res.writeHead(step.status ?? 200, { 'content-type': 'application/json', ...(step.headers ?? {}) });
        res.end(payload);
      };
      if (step.delayMs) setTimeout(send, step.delayMs);
      else send();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    baseUrl: `${origin}${prefix}`,
    requests,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
