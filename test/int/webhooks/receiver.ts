/** A webhook receiver on 127.0.0.1 for tests: records every request, answers what the test says. */
import { createServer, IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingMessage['headers'];
  body: string;
  status: number;
}

export interface Receiver {
  port: number;
  url: string;
  requests: Received[];
  /** Accepted (2xx) requests. */
  accepted(): Received[];
  close(): Promise<void>;
}

/** `answer(n)` gives the status of the n-th request (1-based) and optional headers. */
export async function startReceiver(
  answer: (
    n: number,
    r: { headers: IncomingMessage['headers']; body: string },
  ) => number | { status: number; headers?: Record<string, string> },
  port = 0,
): Promise<Receiver> {
  const requests: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const a = answer(requests.length + 1, { headers: req.headers, body });
      const { status, headers } =
        typeof a === 'number' ? { status: a, headers: {} } : { status: a.status, headers: a.headers ?? {} };
      requests.push({ headers: req.headers, body, status });
      res.writeHead(status, { 'content-type': 'text/plain', ...headers });
      res.end(status < 300 ? 'ok' : 'no');
    });
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  const p = (server.address() as AddressInfo).port;
  return {
    port: p,
    url: `http://127.0.0.1:${p}/hook`,
    requests,
    accepted: () => requests.filter((r) => r.status >= 200 && r.status < 300),
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

/** A port nothing listens on (bound then released). */
export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}
