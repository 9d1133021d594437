/**
 * A webhook receiver that verifies deliveries, using nothing but Node's
 * `crypto` and `http` (copy it into your own service).
 *
 *   npx tsx scripts/webhook-verify-example.ts --secret whsec_... [--port 4000]
 *       serves POST on 127.0.0.1:<port>; answers 200 to valid deliveries, 401 otherwise
 *   npx tsx scripts/webhook-verify-example.ts
 *       self-check: signs a sample delivery as the platform does and sends it,
 *       then a tampered copy; prints what the receiver answered (200, then 401)
 *
 * Scheme (Standard Webhooks): signed content = `${webhook-id}.${webhook-timestamp}.${raw body}`,
 * HMAC-SHA256 keyed with base64-decode(secret without "whsec_") (other secrets: their UTF-8 bytes),
 * header `webhook-signature: v1,<base64>` (several space-separated entries may be present during a
 * secret rotation); `X-SERVICE-Signature` carries the same value. Reject timestamps more than 5 minutes
 * from your clock, compare in constant time, and verify the RAW body bytes (before JSON parsing).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, IncomingMessage, request } from 'node:http';
import type { AddressInfo } from 'node:net';

const TOLERANCE_SECONDS = 5 * 60;

function keyOf(secret: string): Buffer {
  return secret.startsWith('whsec_')
    ? Buffer.from(secret.slice('whsec_'.length), 'base64')
    : Buffer.from(secret, 'utf8');
}

/** True when the delivery is authentic and fresh. */
export function verifyDelivery(
  secret: string,
  headers: IncomingMessage['headers'],
  rawBody: Buffer,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'] ?? headers['x-service-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string') return false;
  if (!/^\d+$/.test(timestamp) || Math.abs(nowSeconds - Number(timestamp)) > TOLERANCE_SECONDS) return false;
  const expected = createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.`).update(rawBody).digest();
  return signatures.split(' ').some((entry) => {
    const [version, value] = entry.split(',', 2);
    if (version !== 'v1' || !value) return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

function serve(secret: string, port: number) {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      if (!verifyDelivery(secret, req.headers, raw)) {
        res.writeHead(401).end('invalid signature');
        return;
      }
      // Deduplicate by webhook-id: a message may arrive more than once (at-least-once delivery).
      const event = JSON.parse(raw.toString('utf8')) as { event_type?: string; id?: string };
      process.stdout.write(`verified ${req.headers['webhook-id']}: ${event.event_type}\n`);
      res.writeHead(200).end('ok');
    });
  });
  return new Promise<typeof server>((r) => server.listen(port, '127.0.0.1', () => r(server)));
}

function post(port: number, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/',
        headers: { 'content-type': 'application/json', ...headers },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function selfCheck(): Promise<void> {
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const server = await serve(secret, 0);
  const port = (server.address() as AddressInfo).port;
  const id = 'b3c1f9a2-0000-4000-8000-000000000001';
  const ts = String(Math.floor(Date.now() / 1000));
  const body = JSON.stringify({
    event_type: 'content_generated',
    id,
    timestamp: new Date().toISOString(),
    data: { task_id: 't-1' },
    content: 'Hello',
  });
  const sig = `v1,${createHmac('sha256', keyOf(secret)).update(`${id}.${ts}.${body}`).digest('base64')}`;
  const headers = { 'webhook-id': id, 'webhook-timestamp': ts, 'webhook-signature': sig, 'X-SERVICE-Signature': sig };
  const ok = await post(port, headers, body);
  const tampered = await post(port, headers, body.replace('Hello', 'Hacked'));
  const stale = await post(port, { ...headers, 'webhook-timestamp': String(Number(ts) - 600) }, body);
  server.close();
  process.stdout.write(`valid delivery: ${ok}, tampered body: ${tampered}, stale timestamp: ${stale}\n`);
  if (ok !== 200 || tampered !== 401 || stale !== 401) process.exit(1);
}

if (require.main === module) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const secret = arg('secret');
  const run = secret
    ? serve(secret, Number(arg('port') ?? 4000)).then((s) =>
        process.stdout.write(`listening on http://127.0.0.1:${(s.address() as AddressInfo).port}/\n`),
      )
    : selfCheck();
  run.catch((e) => {
    process.stderr.write(`${(e as Error).stack}\n`);
    process.exit(1);
  });
}
