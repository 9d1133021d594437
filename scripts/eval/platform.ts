/**
 * The whole platform for the content evaluation, as real processes (API, Temporal worker, relay, projector) on a
 * private PostgreSQL schema, its own task queue and topic prefix: nothing of a platform running beside it is
 * touched. Needs the stack (scripts/stack up). The provider under evaluation is chosen the way a deployment
 * chooses it: `local` runs the worker with LLAMA_MODEL_PATH=off; `llama` with the model file (the default one,
 * or LLAMA_MODEL_PATH); `vendor` with the VENDOR_A_* variables of the environment (any OpenAI-compatible server).
 * One user on the enterprise plan with a production key, an outreach session and every rate limit raised.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../infra/config';
import { createKafka } from '../../infra/kafka';
import { privateSchema, PrivateSchema } from '../../infra/db/private-schema';
import { MIGRATIONS } from '../../workers/migrations';
import { createEventStore } from '../../infra/eventstore';
import { createApiKey, createUser, startSession } from '../../api/identity/commands';
import { waitForProjection } from '../../projections/consistency';
import { Proc, startProcess } from '../../test/support/processes';

const ROOT = path.resolve(__dirname, '../..');
export type EvalProvider = 'local' | 'llama' | 'vendor';

export interface EvalPlatform {
  provider: EvalProvider;
  base: string;
  key: string;
  session: string;
  userId: string;
  procs: Proc[];
  stop(): Promise<void>;
}

const UNLIMITED = { minute: 1_000_000, hour: 10_000_000, day: 100_000_000 };

/** The workflow bundle the worker loads (built once, again when a workflow file is newer). */
function bundle(file: string): string {
  const newest = (dir: string): number =>
    Math.max(
      ...require('node:fs')
        .readdirSync(dir, { recursive: true })
        .map((f: string) => statSync(path.join(dir, f)).mtimeMs),
    );
  if (
    !existsSync(file) ||
    statSync(file).mtimeMs < Math.max(newest(path.join(ROOT, 'workflows')), newest(path.join(ROOT, 'domain')))
  )
    execFileSync('npx', ['tsx', 'scripts/build-workflows.ts', file], { cwd: ROOT, stdio: 'inherit' });
  return file;
}

export async function startEvalPlatform(
  provider: EvalProvider,
  opts: { bundlePath?: string; databaseUrl?: string; env?: Record<string, string> } = {},
): Promise<EvalPlatform> {
  if (provider === 'vendor' && !process.env.VENDOR_A_BASE_URL)
    throw new Error('the vendor provider needs VENDOR_A_BASE_URL (and VENDOR_A_API_KEY, VENDOR_A_MODEL)');
  const config = loadConfig();
  const schema: PrivateSchema = await privateSchema(opts.databaseUrl ?? config.DATABASE_URL, MIGRATIONS, {
    prefix: 'eval',
    kafka: createKafka({ brokers: config.KAFKA_BROKERS, clientId: `eval-${process.pid}` }),
  });
  const env: Record<string, string> = {
    DATABASE_URL: schema.url,
    KAFKA_TOPIC_PREFIX: schema.topicPrefix,
    TEMPORAL_TASK_QUEUE: `eval-${provider}-${process.pid}-${Date.now()}`,
    WORKFLOW_BUNDLE_PATH: opts.bundlePath ?? bundle(path.join(ROOT, '.run/eval-workflow-bundle.js')),
    MIGRATE_ON_START: 'false',
    WORKER_HEALTH_PORT: '0',
    RELAY_HEALTH_PORT: '0',
    PROJECTOR_HEALTH_PORT: '0',
    LOG_LEVEL: process.env.EVAL_LOG_LEVEL ?? 'warn',
    WRITERS_RENDERING: 'false',
    API_TASK_WAIT_MS: '120000',
    RATE_LIMIT_OVERRIDES: JSON.stringify({
      '*': { general: UNLIMITED, developer: UNLIMITED, calendar: UNLIMITED, integration: UNLIMITED, status: UNLIMITED },
    }),
    ...(provider === 'local' ? { LLAMA_MODEL_PATH: 'off' } : {}),
    ...(provider !== 'vendor' ? { VENDOR_A_BASE_URL: '', VENDOR_B_BASE_URL: '' } : {}),
    ...opts.env,
  };
  const procs: Proc[] = [];
  const stop = async () => {
    for (const p of [...procs].reverse()) await p.stop();
    await schema.drop();
  };
  try {
    // The vendor path's worker logs how each JSON answer was read ('ai structured answer'), which the report counts.
    for (const name of ['temporal-worker', 'relay', 'projector'] as const)
      procs.push(
        await startProcess(
          name,
          name === 'temporal-worker' && provider === 'vendor' ? { ...env, LOG_LEVEL: 'info' } : env,
          false,
        ),
      );
    const api = await startProcess('api', { ...env, PORT: '0' });
    procs.push(api);
    const store = createEventStore(schema.db);
    const user = await createUser({ store }, { plan: 'enterprise' });
    const key = await createApiKey({ store }, user.value.user_id, { name: 'eval', environment: 'production' });
    const sess = await startSession({ store }, user.value.user_id, key.value.key_id, 24 * 3600);
    await waitForProjection(schema.db, 'identity', sess.events[0], { timeoutMs: 30000 });
    const base = `http://127.0.0.1:${api.port}`;
    // Ready when the health route sees every process (the worker loads the model in the background).
    const end = Date.now() + 120_000;
    for (;;) {
      const r = await fetch(`${base}/api/health`, { headers: { authorization: `Bearer ${key.value.key}` } });
      if (r.status === 200) break;
      if (Date.now() > end) throw new Error(`the platform did not become healthy: ${await r.text()}`);
      await new Promise((res) => setTimeout(res, 500));
    }
    return { provider, base, key: key.value.key, session: sess.value.token, userId: user.value.user_id, procs, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
