/**
 * A scripted HTTP server on 127.0.0.1 (port 0) that plays a vendor: each
 * request gets the next step of the script (the last step repeats), and
 * every request is recorded (method, path, headers, parsed body) so tests
 * can assert what the client sent. Used for the OpenAI-compatible client and
 * the web-search adapters; no network beyond loopback. A step can stream
 * Server-Sent Events with pauses, hang or break mid-stream, and the recording
 * notes when the client dropped the connection (cancel and time-out tests).
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
  /** Answers as an event stream (`status` and `headers` apply; `body`, `raw` and `bytes` are ignored). */
  sse?: SseScript;
}

export interface SseScript {
  /** One `data:` event each, as JSON; a string is written as is (malformed-data tests). */
  events: unknown[];
  /** Pause before each event after the first. Default 0. */
  intervalMs?: number;
  /** Ends with `data: [DONE]` unless false. */
  done?: boolean;
  /** Stops after this many events and keeps the connection open (idle time-out and cancel tests). */
  hangAfter?: number;
  /** Destroys the connection after this many events (a network failure mid-stream). */
  breakAfter?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
  /** The body as received (multipart forms, binary uploads). */
  rawBody?: Buffer;
  at: number;
  /** When the client closed the connection before the answer was complete (cancel, time-out). */
  closedAt?: number;
}

export interface FakeVendor {
  /** e.g. http://127.0.0.1:40123/v1 */
  baseUrl: string;
  origin: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** A chat-completions body; `usage: null` leaves the usage block out. */
/** What a scripted completion (whole or streamed) reports besides its text. */
export interface CompletionOptions {
  usage?: { prompt_tokens: number; completion_tokens: number } | null;
  finish_reason?: string;
  model?: string;
}

export function completion(text: string, opts: CompletionOptions = {}) {
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

/**
 * The events of a streamed chat completion as OpenAI sends them: a role-only first chunk, one chunk per word
 * (with its leading space, the way tokens come), a last chunk with the finish reason, then (unless
 * `usage: null`) a usage chunk with no choices, as `stream_options.include_usage` asks.
 */
export function streamChunks(text: string, opts: CompletionOptions = {}): unknown[] {
  const pieces = text.match(/\s*\S+\s*$|\s*\S+/g) ?? [];
  const chunk = (choices: unknown[]) => ({
    id: 'chatcmpl-test',
    object: 'chat.completion.chunk',
    model: opts.model ?? 'test-model',
    choices,
  });
  const delta = (d: Record<string, unknown>, finish: string | null = null) =>
    chunk([{ index: 0, delta: d, finish_reason: finish }]);
  const usage = opts.usage === undefined ? { prompt_tokens: 11, completion_tokens: pieces.length } : opts.usage;
  return [
    delta({ role: 'assistant' }),
    ...pieces.map((p) => delta({ content: p })),
    delta({}, opts.finish_reason ?? 'stop'),
    ...(usage === null ? [] : [{ ...chunk([]), usage: { ...usage, total_tokens: 0 } }]),
  ];
}

/** Writes `sse` as an event stream on `res`, one event per interval. */
function streamEvents(res: http.ServerResponse, step: Step, sse: SseScript): void {
  res.writeHead(step.status ?? 200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    ...(step.headers ?? {}),
  });
  res.flushHeaders();
  let sent = 0;
  let timer: NodeJS.Timeout | undefined;
  res.on('close', () => clearTimeout(timer));
  const next = () => {
    if (res.destroyed) return;
    if (sent === sse.breakAfter) return void res.destroy();
    if (sent === sse.hangAfter) return;
    if (sent < sse.events.length) {
      const e = sse.events[sent++];
      res.write(`data: ${typeof e === 'string' ? e : JSON.stringify(e)}\n\n`);
      timer = setTimeout(next, sse.intervalMs ?? 0);
      return;
    }
    if (sse.done !== false) res.write('data: [DONE]\n\n');
    res.end();
  };
  next();
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
      // The model list a real server serves (the gateway reads a model's context size from it once): answered
      // empty, outside the script and the record, so a script's steps stay the chat calls a test wrote.
      if (req.method === 'GET' && (req.url ?? '').split('?')[0] === `${prefix}/models`) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ object: 'list', data: [] }));
        return;
      }
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body,
        rawBody,
        at: Date.now(),
      };
      requests.push(recorded);
      res.on('close', () => {
        if (!res.writableFinished) recorded.closedAt = Date.now();
      });
      let step = script[Math.min(requests.length - 1, script.length - 1)] ?? { status: 500 };
      if (step.handler) step = step.handler(recorded);
      if (step.hang) return; // the socket stays open until the client aborts or the server closes
      const send = () => {
        if (step.sse) return streamEvents(res, step, step.sse);
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
