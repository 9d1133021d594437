/**
 * API process: migrates the database (unless MIGRATE_ON_START=false), then
 * serves HTTP until SIGTERM, when it stops accepting connections and lets
 * in-flight requests finish.
 *
 * With API_PROCESSES other than 1 (0, the default, = one per core) this
 * process is a node:cluster primary: it migrates, then forks that many API
 * processes that serve the same port (the primary hands out connections
 * round-robin), replaces one that dies, and passes SIGTERM on to all of them.
 * Each API process has its own credential cache and rate-limit leases; both
 * stay correct across processes (docs/api.md).
 */
import cluster from 'node:cluster';
import os from 'node:os';
import { createApiServer, createApp } from '../api/app';
import { createContext } from './context';
import { fatal, Lifecycle, startWithRetry } from './lifecycle';
import { migrateLatest } from '../infra/db/migrate';
import { MIGRATIONS } from './migrations';
import { publicBaseUrl } from '../infra/config';
import { chooseProvider } from '../infra/ai/provider-choice';
import { researchFromConfig } from '../infra/research';
import { apiSettings } from '../api/kernel/deps';
import { createEventStore, platformHealthCheck, usageMeter, webhookAdapters } from './adapters';
// One line per area (adapters built from the configuration at start-up).
import { sitebuilderApiSettings } from './adapters';
import { imageStudioSettings } from './image-adapters';
import { outreachApiAdapters } from './adapters';
import { billingAdapters, integrationAdapters } from './adapters';
import { mediaAppDeps } from './adapters';
import { CredentialCache } from '../api/identity/credential-cache';
import { TaskCache } from '../api/kernel/task-cache';
import { PostgresRateLimiter } from '../infra/ratelimit/postgres';
import { config as loadConfig } from '../infra/config';
import { assertStartable } from '../infra/startup';
import { podcastAppDeps } from './adapters';

async function serve(): Promise<void> {
  const ctx = createContext('api');
  const { config, logger } = ctx;
  const life = new Lifecycle(logger, config.SHUTDOWN_TIMEOUT_MS).listen();
  life.onStop('database', () => ctx.close());
  // Under a cluster primary, the primary has migrated already.
  if (config.MIGRATE_ON_START && !cluster.isWorker) {
    const applied = await startWithRetry('migrating the database', life, logger, () =>
      migrateLatest(ctx.db, MIGRATIONS),
    );
    if (applied.length) logger.info({ applied }, 'migrations applied');
  }
  const credentials = new CredentialCache({
    ttlMs: config.CREDENTIAL_CACHE_TTL_MS,
    onError: (err) => logger.warn({ err }, 'identity notifications lost; credential cache off until they are back'),
  }).listen(ctx.db);
  // What this process appends is forgotten by its cache before the request answers (read-your-writes).
  const store = createEventStore(ctx.db, { onCommitted: (streams) => credentials.forget(streams) });
  life.onStop('credential cache', () => credentials.close());
  const tasks = new TaskCache({
    ttlMs: config.TASK_CACHE_TTL_MS,
    onError: (err) => logger.warn({ err }, 'projection notifications lost; task cache off until they are back'),
  }).listen(ctx.db);
  life.onStop('task cache', () => tasks.close());
  const rateLimiter = new PostgresRateLimiter(ctx.db, { maxLease: config.RATE_LIMIT_LEASE_MAX });
  life.onStop('rate-limit leases', () => rateLimiter.close());
  const app = createApp({
    credentials,
    tasks,
    rateLimiter,
    logger,
    db: ctx.db,
    store,
    health: platformHealthCheck(ctx, store),
    temporalUiUrl: config.TEMPORAL_UI_URL,
    workflows: { client: async () => (await ctx.temporal()).client, taskQueue: config.TEMPORAL_TASK_QUEUE },
    corpus: researchFromConfig(config).corpus,
    webhooks: webhookAdapters(ctx.db, config),
    integrations: integrationAdapters(ctx.db, config),
    billing: billingAdapters(config),
    quota: usageMeter(ctx.db, store),
    publicBaseUrl: publicBaseUrl(config),
    aiProvider: chooseProvider('auto', { vendor_a: !!config.VENDOR_A_BASE_URL, vendor_b: !!config.VENDOR_B_BASE_URL }),
    settings: apiSettings(config),
    sitebuilder: sitebuilderApiSettings(config),
    imageStudio: imageStudioSettings(config),
    outreach: outreachApiAdapters(ctx.db, config, logger),
    media: mediaAppDeps(config),
    podcast: podcastAppDeps(config),
  });
  const server = createApiServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.PORT, config.HOST, resolve);
  });
  life.onStop(
    'http',
    () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeIdleConnections();
      }),
  );
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.PORT;
  logger.info({ url: publicBaseUrl({ ...config, PORT: port }) }, 'API listening');
  // A parent (scripts, tests) that started us on port 0 learns the real port from this line on stdout.
  if (process.send) process.send({ type: 'listening', port });
}

/** How many API processes to run: API_PROCESSES, 0 = one per core. */
function apiProcesses(configured: number): number {
  return configured > 0 ? configured : os.availableParallelism();
}

/** The cluster primary: migrates, forks the API processes, keeps them running, stops them on SIGTERM. */
async function primary(n: number): Promise<void> {
  const ctx = createContext('api');
  const { config, logger } = ctx;
  if (config.MIGRATE_ON_START) {
    const life = new Lifecycle(logger, config.SHUTDOWN_TIMEOUT_MS);
    const applied = await startWithRetry('migrating the database', life, logger, () =>
      migrateLatest(ctx.db, MIGRATIONS),
    );
    if (applied.length) logger.info({ applied }, 'migrations applied');
  }
  await ctx.close();
  let stopping = false;
  let listening = 0;
  let reported = false;
  const fork = () => {
    const w = cluster.fork();
    w.on('message', (m: { type?: string; port?: number }) => {
      if (m?.type !== 'listening' || reported || ++listening < n) return;
      reported = true;
      logger.info({ processes: n, port: m.port }, 'API processes listening');
      if (process.send) process.send({ type: 'listening', port: m.port });
    });
  };
  cluster.on('exit', (w, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    logger.error({ pid: w.process.pid, code, signal }, 'an API process exited; starting another');
    setTimeout(fork, 1000);
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(130);
    stopping = true;
    logger.info({ signal }, 'stopping the API processes');
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
    setTimeout(() => process.exit(1), config.SHUTDOWN_TIMEOUT_MS + 2000).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  for (let i = 0; i < n; i++) fork();
}

async function main(): Promise<void> {
  if (cluster.isWorker) return serve();
  const config = loadConfig();
  // Keys at rest, outreach links and the public URL, checked before anything connects (infra/startup.ts).
  assertStartable(config);
  const n = apiProcesses(config.API_PROCESSES);
  if (n === 1) return serve();
  return primary(n);
}

main().catch((e) => fatal(require('pino')(), e));
