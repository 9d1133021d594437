/**
 * API process: migrates the database (unless MIGRATE_ON_START=false), then
 * serves HTTP until SIGTERM, when it stops accepting connections and lets
 * in-flight requests finish.
 */
import { createServer } from 'node:http';
import { createApp } from '../api/app';
import { createContext } from './context';
import { fatal, Lifecycle, startWithRetry } from './lifecycle';
import { migrateLatest } from '../infra/db/migrate';
import { MIGRATIONS } from './migrations';
import { publicBaseUrl } from '../infra/config';
import { chooseProvider } from '../infra/ai/gateway';
import { researchFromConfig } from '../infra/research';
import { apiSettings } from '../api/kernel/deps';
import { createEventStore, platformHealthCheck, usageMeter, webhookAdapters } from './adapters';
// One line per area (adapters built from the configuration at start-up).
import { sitebuilderApiSettings } from './adapters';
import { imageStudioSettings } from './image-adapters';
import { outreachApiAdapters } from './adapters';
import { integrationAdapters } from './adapters';
import { mediaAppDeps } from './adapters';
import { podcastAppDeps } from './adapters';

async function main(): Promise<void> {
  const ctx = createContext('api');
  const { config, logger } = ctx;
  const life = new Lifecycle(logger, config.SHUTDOWN_TIMEOUT_MS).listen();
  life.onStop('database', () => ctx.close());
  if (config.MIGRATE_ON_START) {
    const applied = await startWithRetry('migrating the database', life, logger, () =>
      migrateLatest(ctx.db, MIGRATIONS),
    );
    if (applied.length) logger.info({ applied }, 'migrations applied');
  }
  const store = createEventStore(ctx.db);
  const app = createApp({
    logger,
    db: ctx.db,
    store,
    health: platformHealthCheck(ctx, store),
    temporalUiUrl: config.TEMPORAL_UI_URL,
    workflows: { client: async () => (await ctx.temporal()).client, taskQueue: config.TEMPORAL_TASK_QUEUE },
    corpus: researchFromConfig(config).corpus,
    webhooks: webhookAdapters(ctx.db, config),
    integrations: integrationAdapters(ctx.db, config),
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
  const server = createServer(app);
  server.keepAliveTimeout = 5000;
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

main().catch((e) => fatal(require('pino')(), e));
