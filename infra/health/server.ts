/**
 * A tiny HTTP health endpoint for the background processes (worker, relay,
 * projector), so `scripts/platform status` and orchestrators can ask each one
 * how it is. GET /health answers 200 when healthy, 503 otherwise.
 */
import http from 'node:http';
import { AddressInfo } from 'node:net';

export interface HealthReport {
  status: 'ok' | 'degraded' | 'starting' | 'stopping';
  [key: string]: unknown;
}

export async function startHealthServer(
  port: number,
  report: () => Promise<HealthReport>,
): Promise<http.Server & { port: number }> {
  const server = http.createServer(async (req, res) => {
    if (req.method !== 'GET' || (req.url !== '/health' && req.url !== '/')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'not found' }));
      return;
    }
    try {
      const body = await report();
      res.writeHead(body.status === 'ok' ? 200 : 503, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    } catch (e) {
      res
        .writeHead(503, { 'content-type': 'application/json' })
        .end(JSON.stringify({ status: 'degraded', error: (e as Error).message }));
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return Object.assign(server, { port: (server.address() as AddressInfo).port });
}
