/**
 * The ceiling of `npm run bench:api`: a bare Express 5 app answering a small
 * JSON body, nothing else (no logging, no middleware). Started by the bench
 * as its own process(es), the way the platform's API runs: with
 * BARE_PROCESSES > 1 as a node:cluster of that many processes on one port.
 * Reports its port to the parent over IPC.
 */
import cluster from 'node:cluster';
import { createServer } from 'node:http';
import express from 'express';

const processes = Number(process.env.BARE_PROCESSES ?? 1);
const port = Number(process.env.BARE_PORT ?? 0);

function serve(): void {
  const app = express();
  app.disable('x-powered-by');
  app.get('/bare', (_req, res) => {
    res.json({ success: true, data: { status: 'in_progress', progress: 3 }, timestamp: new Date().toISOString() });
  });
  const server = createServer(app);
  server.keepAliveTimeout = 5000;
  server.listen(port, '127.0.0.1', () => {
    const a = server.address();
    process.send?.({ type: 'listening', port: typeof a === 'object' && a ? a.port : port });
  });
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}

if (processes <= 1) serve();
else if (cluster.isPrimary) {
  // The primary picks a free port first, so every worker listens on the same one.
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const p = (probe.address() as { port: number }).port;
    probe.close(() => {
      let ready = 0;
      for (let i = 0; i < processes; i++) {
        const w = cluster.fork({ BARE_PORT: String(p), BARE_PROCESSES: '1' });
        w.on('message', (m: { type?: string }) => {
          if (m?.type === 'listening' && ++ready === processes) process.send?.({ type: 'listening', port: p });
        });
      }
    });
  });
  process.on('SIGTERM', () => {
    for (const w of Object.values(cluster.workers ?? {})) w?.kill('SIGTERM');
    cluster.on('exit', () => {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
    });
  });
} else serve();
