/**
 * Site publishing under test: the loopback builder, configuration as a
 * platform process reads it, an in-process worker wired like
 * workers/temporal-worker.ts, an image host for covers, and a logger that
 * captures every line (tests grep it for tokens).
 */
import http from 'node:http';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import pino, { Logger } from 'pino';
import { loadConfig } from '../../../infra/config';
import { REDACT_PATHS } from '../../../infra/logger';
import { createEventStore } from '../../../infra/eventstore';
import { createActivities } from '../../../activities';
import { apiSettingsOf, sitebuilderSettings } from '../../../infra/sitebuilder/settings';
import { sitebuilderActivityDeps } from '../../../workers/adapters';
import { startTestWorker } from '../env';
import type { FakeBuilder } from './fake-builder';

/** Everything a platform process needs in its environment to talk to `builder`. */
export function sitebuilderEnv(builder: FakeBuilder, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...builder.env(),
    SITEBUILDER_TOKEN_KEY: randomBytes(32).toString('base64'),
    SITEBUILDER_MEDIA_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
    SITEBUILDER_TIMEOUT_MS: '10000',
    ...extra,
  };
}

export const configFrom = (env: Record<string, string>) => loadConfig({ ...process.env, ...env });

/** The API's site-builder settings, as workers/api.ts builds them. */
export const apiSitebuilder = (env: Record<string, string>) => apiSettingsOf(sitebuilderSettings(configFrom(env)));

/** A pino logger like the platform's (same redaction) whose lines are kept in memory. */
export function capturedLogger(): { logger: Logger; text: () => string } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  const logger = pino({ level: 'trace', redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, stream);
  return { logger, text: () => lines.join('') };
}

/** A worker with the task and site-builder activities, on its own task queue. */
export async function startSitebuilderWorker(db: Knex, env: Record<string, string>, logger: Logger) {
  const store = createEventStore(db);
  const deps = sitebuilderActivityDeps(db, store, configFrom(env), 'http://127.0.0.1:8000', logger);
  return startTestWorker(createActivities({ logger, tasks: { store }, sitebuilder: deps }));
}

/** A loopback host serving a PNG at /cover.png, an HTML page at /page.html, and a redirect to the PNG at /moved. */
export async function startImageHost() {
  const png = Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    Buffer.from('0000000d49484452000000010000000108060000001f15c489', 'hex'),
    randomBytes(64),
  ]);
  const server = http.createServer((req, res) => {
    if (req.url === '/cover.png') res.writeHead(200, { 'content-type': 'image/png' }).end(png);
    else if (req.url === '/moved') res.writeHead(302, { location: '/cover.png' }).end();
    else if (req.url === '/page.html')
      res.writeHead(200, { 'content-type': 'image/png' }).end('<html>not an image</html>');
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    png,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
