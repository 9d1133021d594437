/**
 * An in-process API for integration tests: the real app (all stages, real
 * PostgreSQL) on a random port, over an isolated schema, optionally with an
 * in-process relay and identity projection consumer so read-your-writes and
 * key listings work as in production.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { createApiServer, createApp, App } from '../../api/app';
import type { ApiSettings, AppDeps } from '../../api/kernel/types';
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { createCorpusProvider, DEFAULT_CORPUS_DIR } from '../../infra/research';
import { SecretBox, WebhookSecretStore } from '../../infra/webhooks/secrets';
import type { WebhookSettings } from '../../infra/webhooks/settings';
import { parseAllowList } from '../../infra/webhooks/ssrf';
import { PostgresUsageMeter } from '../../infra/quota/meter';
import type { RouteDef } from '../../api/kernel/registry';
import { createApiKey, createUser } from '../../api/identity/commands';
import type { PlanName } from '../../domain/plans';
import { createEventStore, EventStore } from '../../infra/eventstore';
import { identityProjection } from '../../projections/identity';
import type { Projection } from '../../projections/framework';
import { waitForProjection } from '../../projections/consistency';
import { isolatedSchema, IsolatedSchema } from './schema';
import { testLogger } from './env';
import { startInProcessPipeline } from './pipeline';
import { CredentialCache } from '../../api/identity/credential-cache';
import { TaskCache } from '../../api/kernel/task-cache';
import { PostgresRateLimiter } from '../../infra/ratelimit/postgres';

export const DEFAULT_SETTINGS: ApiSettings = {
  bodyLimitBytes: 1048576,
  imageBodyLimitBytes: 26214400,
  consistencyTimeoutMs: 500,
  rotationGraceSeconds: 86400,
  sessionTtlSeconds: 43200,
  rate: { developmentPercent: 50 },
};

export interface TestApi {
  url: string;
  app: App;
  schema: IsolatedSchema;
  store: EventStore;
  /** Makes a user with a key (production unless told). Waits for the projection when the pipeline runs. */
  /** This app's rate limiter (its leases of the shared counters). */
  limiter: PostgresRateLimiter;
  /** This app's credential cache (as every API process has one). */
  credentials: CredentialCache;
  tasks: TaskCache;
  user(
    plan?: PlanName,
    opts?: { environment?: 'development' | 'production'; role?: 'user' | 'admin' },
  ): Promise<{ userId: string; key: string; keyId: string }>;
  stop(): Promise<void>;
}

export interface TestApiOptions {
  settings?: Partial<ApiSettings>;
  extraRoutes?: RouteDef[];
  /** Run relay + identity projection in-process (default true). */
  pipeline?: boolean;
  logger?: Logger;
  health?: AppDeps['health'];
  /** Reuse a schema (two apps on one schema). */
  schema?: IsolatedSchema;
  /** Projections to run in-process besides identity (e.g. task-status). */
  projections?: Projection[];
  /** More dependencies for the app (workflows, corpus, quota, ...). */
  deps?: Partial<AppDeps>;
  /** Webhook settings the app's webhook adapters are built from (default: a random key, loopback allowed). */
  webhookSettings?: WebhookSettings;
  /** Credential cache lifetime, ms (default 5000, as configured by default; 0: no cache). */
  credentialCacheTtlMs?: number;
  /** Task cache backstop (ms; 0: no cache). */
  taskCacheTtlMs?: number;
}

/** The research corpus every test app serves (the shipped sample documents). */
export const testCorpus = (publicBaseUrl = 'http://127.0.0.1:8000') =>
  createCorpusProvider({ dir: DEFAULT_CORPUS_DIR, publicBaseUrl });

/** Webhook adapters built from settings, as workers/adapters.ts builds them from the configuration. */
export function testWebhookAdapters(
  db: Knex,
  settings: WebhookSettings = {
    secretKey: randomBytes(32),
    allow: parseAllowList('127.0.0.1'),
    schedule: [0],
    attemptTimeoutMs: 1000,
  },
) {
  return { secrets: new WebhookSecretStore(db, new SecretBox(settings.secretKey)), ssrf: { allow: settings.allow } };
}

const okHealth = async () => ({
  status: 'ok' as const,
  services: {
    postgres: { status: 'ok' as const, latency_ms: 1 },
    temporal: { status: 'ok' as const, latency_ms: 1 },
    kafka: { status: 'ok' as const, latency_ms: 1 },
  },
});

export async function startTestApi(opts: TestApiOptions = {}): Promise<TestApi> {
  const schema = opts.schema ?? (await isolatedSchema());
  const credentials = new CredentialCache({ ttlMs: opts.credentialCacheTtlMs ?? 5000 }).listen(schema.db);
  const store = createEventStore(schema.db, { onCommitted: (streams) => credentials.forget(streams) });
  const tasks = new TaskCache({ ttlMs: opts.taskCacheTtlMs ?? 60000 }).listen(schema.db);
  const pipeline = opts.pipeline ?? true;
  const running = pipeline
    ? await startInProcessPipeline(schema, store, [identityProjection, ...(opts.projections ?? [])], 1)
    : undefined;
  const limiter = new PostgresRateLimiter(schema.db);
  const app = createApp({
    credentials,
    tasks,
    rateLimiter: limiter,
    logger: opts.logger ?? testLogger(),
    db: schema.db,
    store,
    health: opts.health ?? okHealth,
    temporalUiUrl: 'http://127.0.0.1:8233',
    settings: { ...DEFAULT_SETTINGS, ...opts.settings, rate: { ...DEFAULT_SETTINGS.rate, ...opts.settings?.rate } },
    extraRoutes: opts.extraRoutes,
    corpus: testCorpus(opts.deps?.publicBaseUrl),
    webhooks: testWebhookAdapters(schema.db, opts.webhookSettings),
    quota: new PostgresUsageMeter(schema.db, store, async () => ({})),
    ...opts.deps,
  });
  const server: Server = createApiServer(app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const d = { store };
  return {
    url,
    app,
    schema,
    store,
    limiter,
    credentials,
    tasks,
    async user(plan = 'free', o = {}) {
      const u = await createUser(d, { plan, role: o.role ?? 'user' });
      const k = await createApiKey(d, u.value.user_id, { name: 'test', environment: o.environment ?? 'production' });
      if (pipeline) await waitForProjection(schema.db, 'identity', k.events[0], { timeoutMs: 20000 });
      return { userId: u.value.user_id, key: k.value.key, keyId: k.value.key_id };
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await limiter.close().catch(() => undefined);
      await credentials.close();
      await tasks.close();
      await running?.stop();
      if (!opts.schema) await schema.drop();
    },
  };
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
