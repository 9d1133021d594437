/**
 * The whole platform (worker, relay, projector, API) as the e2e sweeps run it: an isolated schema, a loopback site
 * builder, every integration the sweeps need configured on loopback (webhooks to 127.0.0.1, outreach sending, the
 * billing provider, Search Console), the template writer instead of a language model, no rendering from the writers,
 * generating routes answering 202 at once, and no rate limits. Used by the authorization sweep and the spec
 * conformance test; `env` overrides or adds variables.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createEventStore } from '../../infra/eventstore';
import { PostgresUsageMeter } from '../../infra/quota/meter';
import { createApiKey, createUser } from '../../api/identity/commands';
import { waitForProjection } from '../../projections/consistency';
import { SCOPES } from '../../domain/calendar/permissions';
import { taskStream } from '../../domain/events/tasks';
import { PlanName, PLANS } from '../../domain/plans';
import { isolatedSchema, IsolatedSchema } from './schema';
import { Proc, startPlatform, UNLIMITED_RATES } from './processes';
import { waitFor } from './wait';
import { BUNDLE_PATH } from './global-setup';
import { testTemporal, uniq } from './env';
import { call, JsonResponse } from './http';
import { FakeBuilder, startFakeBuilder } from './sitebuilder/fake-builder';
import { sitebuilderEnv } from './sitebuilder/setup';

export interface PlatformUser {
  userId: string;
  key: string;
  session?: string;
  oauth?: string;
}

export interface RequestOptions {
  json?: unknown;
  form?: Record<string, string>;
  headers?: Record<string, string>;
}

/** A request to the platform at `base` with `credential` as bearer (none when null); redirects are not followed. */
export const request = (
  base: string,
  credential: string | null,
  method: string,
  p: string,
  opts: RequestOptions = {},
) =>
  call(`${base}${p}`, {
    method,
    redirect: 'manual',
    headers: {
      ...(credential ? { authorization: `Bearer ${credential}` } : {}),
      ...(opts.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      ...opts.headers,
    },
    ...(opts.form ? { body: new URLSearchParams(opts.form).toString() } : {}),
    ...(opts.json !== undefined ? { json: opts.json } : {}),
  });

/** The answer when its status is one of `want`, else a failure naming the request and the answer. */
export async function expectStatus(r: Promise<JsonResponse>, ...want: number[]): Promise<JsonResponse> {
  const res = await r;
  if (!want.includes(res.status))
    throw new Error(`expected ${want.join('/')}, got ${res.status}: ${JSON.stringify(res.body).slice(0, 800)}`);
  return res;
}

/**
 * Waits for a task to finish (GET `statusPath` as `credential`), returns its record; fails on failed/cancelled, on an
 * error answer, or after `timeoutMs`, with what `explain(taskId)` says of the task (FullPlatform.explain: its
 * workflow in Temporal and the processes' last log lines), so a failure seen only in CI explains itself.
 */
export async function waitForTask(
  base: string,
  statusPath: string,
  credential: string,
  timeoutMs = 240_000,
  explain?: (taskId: string) => Promise<string>,
): Promise<JsonResponse['body']> {
  let last: JsonResponse | undefined;
  const recordOf = (r: JsonResponse | undefined) => (r?.body?.data?.status ? r.body.data : r?.body);
  const over = await waitFor(
    `${statusPath} to finish`,
    async () => {
      last = await request(base, credential, 'GET', statusPath);
      // An error answer is final too (the task is not the caller's, or the route refused): no use polling on.
      return (last.status >= 400 || ['completed', 'failed', 'cancelled'].includes(recordOf(last)?.status)) && last;
    },
    timeoutMs,
    500,
  ).catch(() => undefined);
  const t = recordOf(over);
  if (over && over.status < 400 && t?.status === 'completed') return t;
  const taskId = String(recordOf(last)?.task_id ?? statusPath.split('/').pop());
  const why = explain ? `\n${await explain(taskId).catch((e) => `(no explanation: ${e})`)}` : '';
  const state = over ? '' : ` (not finished after ${timeoutMs} ms)`;
  throw new Error(`${statusPath}${state}: ${JSON.stringify(last?.body).slice(0, 800)}${why}`);
}

/** What Temporal knows of a task's workflow: its status and its pending activities (attempt, state, last failure). */
async function describeWorkflow(workflowId: string): Promise<string> {
  const { client, connection } = await testTemporal();
  try {
    const d = await client.workflow.getHandle(workflowId).describe();
    const pending = (d.raw.pendingActivities ?? []).map(
      (a) =>
        `  pending ${a.activityType?.name} attempt ${a.attempt} state ${a.state}` +
        (a.lastFailure?.message ? ` last failure: ${a.lastFailure.message.slice(0, 300)}` : ''),
    );
    return [
      `workflow ${workflowId}: ${d.status.name} on ${d.taskQueue} since ${d.startTime.toISOString()}`,
      ...pending,
    ].join('\n');
  } finally {
    await connection.close();
  }
}

export interface FullPlatform {
  base: string;
  /** The platform's task queue (its heavy classes run on `<taskQueue>-<class>`). */
  taskQueue: string;
  schema: IsolatedSchema;
  builder: FakeBuilder;
  /** OUTREACH_UNSUBSCRIBE_SECRET and BILLING_WEBHOOK_SECRET of the processes. */
  secrets: { unsubscribe: string; billing: string };
  /** A user of `plan` (enterprise by default) with a production API key named `keyName`. */
  user(keyName: string, plan?: PlanName): Promise<PlatformUser>;
  /** A session token of the key's user (the outreach family's credential), made through the API. */
  session(key: string): Promise<string>;
  /** An OAuth 2.0 access token of `key`'s user for its own client `clientName`, with every scope (PKCE). */
  oauthToken(key: string, clientName: string, redirect: string): Promise<string>;
  /**
   * Raises a usage alert of `userId` (usage then at 87 % of the enterprise plan's monthly cost: one metered call,
   * settled through the usage meter as the AI gateway does, crosses the 80 % threshold); answers its id.
   */
  raiseUsageAlert(userId: string, key: string, idempotencyKey: string): Promise<string>;
  /** Why a task may not have finished: its workflow as Temporal describes it and each process's last log lines. */
  explain(taskId: string): Promise<string>;
  /** The platform's processes (worker, relay, projector, API) and their pids. */
  processes(): { name: string; pid: number }[];
  stop(): Promise<void>;
}

/** Starts the full platform; `name` prefixes its task queue and data folder. What started is stopped by `stop`. */
export async function startFullPlatform(name: string, env: Record<string, string> = {}): Promise<FullPlatform> {
  const procs: Proc[] = [];
  const secrets = {
    unsubscribe: randomBytes(24).toString('base64url'),
    billing: `whsec_${randomBytes(16).toString('hex')}`,
  };
  const s = await isolatedSchema();
  let builder: FakeBuilder | undefined;
  const dataDir = mkdtempSync(path.join(tmpdir(), `${name}-`));
  const stop = async () => {
    for (const p of procs.reverse()) await p.stop();
    await builder?.stop();
    await s.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  let base: string;
  const taskQueue = uniq(name);
  try {
    builder = await startFakeBuilder();
    base = await startPlatform(
      {
        ...sitebuilderEnv(builder),
        DATABASE_URL: s.url,
        KAFKA_TOPIC_PREFIX: s.topicPrefix,
        TEMPORAL_TASK_QUEUE: taskQueue,
        WORKFLOW_BUNDLE_PATH: BUNDLE_PATH,
        MIGRATE_ON_START: 'false',
        LOG_LEVEL: 'warn',
        // Text from the template writer and no rendering of the writers' video posts: resources appear in seconds.
        LLAMA_MODEL_PATH: 'off',
        WRITERS_RENDERING: 'false',
        // Generating routes answer 202 with their task at once.
        API_TASK_WAIT_MS: '0',
        MEDIA_STORAGE_DIR: path.join(dataDir, 'media'),
        MEDIA_WORK_DIR: path.join(dataDir, 'media-work'),
        IMAGE_STORAGE_DIR: path.join(dataDir, 'images'),
        WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
        WEBHOOK_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
        WEBHOOK_RETRY_SCHEDULE: '0',
        WEBHOOK_ATTEMPT_TIMEOUT_MS: '1000',
        // Sending "configured" (nothing listens there; `env` may point it at a real mail server); replies are not.
        OUTREACH_SMTP_URL: 'smtp://127.0.0.1:9',
        OUTREACH_FROM_ADDRESS: 'outreach@platform.test',
        OUTREACH_FROM_NAME: 'Platform Outreach',
        OUTREACH_POSTAL_ADDRESS: '1 Sample Street, 00000 Testville',
        OUTREACH_UNSUBSCRIBE_SECRET: secrets.unsubscribe,
        BILLING_API_KEY: 'sk_test_sweep',
        BILLING_WEBHOOK_SECRET: secrets.billing,
        BILLING_PRICE_IDS: 'basic=price_basic,pro=price_pro,enterprise=price_enterprise',
        BILLING_BASE_URL: 'http://127.0.0.1:9',
        SEARCH_CONSOLE_CLIENT_ID: 'sweep-client',
        SEARCH_CONSOLE_CLIENT_SECRET: 'sweep-secret',
        SEARCH_CONSOLE_TOKEN_URL: 'http://127.0.0.1:9/token',
        SEARCH_CONSOLE_API_BASE_URL: 'http://127.0.0.1:9',
        RATE_LIMIT_OVERRIDES: UNLIMITED_RATES,
        ...env,
      },
      procs,
    );
  } catch (e) {
    await stop();
    throw e;
  }
  const store = createEventStore(s.db);
  const req = (credential: string | null, method: string, p: string, opts?: RequestOptions) =>
    request(base, credential, method, p, opts);

  return {
    base,
    taskQueue,
    schema: s,
    builder,
    secrets,
    stop,

    async user(keyName, plan = 'enterprise') {
      const u = await createUser({ store }, { plan });
      const k = await createApiKey({ store }, u.value.user_id, { name: keyName, environment: 'production' });
      await waitForProjection(s.db, 'identity', k.events[0], { timeoutMs: 30000 });
      return { userId: u.value.user_id, key: k.value.key };
    },

    async session(key) {
      return (await expectStatus(req(key, 'POST', '/api/settings/sessions'), 201)).body.data.token;
    },

    async oauthToken(key, clientName, redirect) {
      const c = (
        await expectStatus(
          req(key, 'POST', '/v1/calendar/oauth/clients', {
            json: { client_name: clientName, redirect_uris: [redirect] },
          }),
          201,
        )
      ).body;
      const verifier = randomBytes(32).toString('base64url');
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      const q = new URLSearchParams({
        response_type: 'code',
        client_id: c.client_id,
        redirect_uri: redirect,
        scope: SCOPES.join(' '),
        state: 'sweep',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      });
      const a = await expectStatus(req(key, 'GET', `/v1/calendar/oauth/authorize?${q}`), 302);
      const code = new URL(a.headers.get('location')!).searchParams.get('code')!;
      const t = await expectStatus(
        req(null, 'POST', '/v1/calendar/oauth/token', {
          form: {
            grant_type: 'authorization_code',
            code,
            redirect_uri: redirect,
            client_id: c.client_id,
            client_secret: c.client_secret,
            code_verifier: verifier,
          },
        }),
        200,
      );
      return t.body.access_token;
    },

    processes: () => procs.map((p) => ({ name: p.name, pid: p.child.pid! })),

    async explain(taskId) {
      const workflow = await describeWorkflow(taskId).catch((e) => `workflow ${taskId}: not described (${e})`);
      // Stored but not projected points at the relay or the projector: the relay publishes only events below the
      // cluster's oldest running writer (pg_snapshot_xmin), so a writing transaction held open anywhere stalls it.
      // The facts come first, short: CI prints the head and the tail of a long failure.
      const stream = taskStream(taskId);
      const facts = await Promise.all(
        [
          store
            .readStream(stream)
            .then(
              (es) =>
                `task stream: ${es.map((e) => `${e.type}@${e.streamPosition} (xid ${e.transactionId}, #${e.globalPosition})`).join(', ') || 'empty'}`,
            ),
          s.db
            .raw(
              `SELECT (SELECT status FROM task_status WHERE task_id = ?) AS status,
                    (SELECT position FROM projection_streams WHERE projection = 'task-status' AND stream_id = ?) AS position,
                    (SELECT transaction_id::text || ' #' || global_position FROM es_checkpoints WHERE name = 'relay') AS relay,
                    (SELECT string_agg(topic || '/' || partition || '=' || next_offset, ' ' ORDER BY topic, partition)
                       FROM projection_offsets WHERE projection = 'task-status') AS offsets`,
              [taskId, stream],
            )
            .then((r: { rows: Record<string, unknown>[] }) => {
              const x = r.rows[0];
              return `task_status row: ${x.status ?? 'none'}; task-status position of the stream: ${x.position ?? 'none'}; relay checkpoint: ${x.relay ?? 'none'}; task-status offsets: ${x.offsets ?? 'none'}`;
            }),
          s.db
            .raw(
              `SELECT process, pid, round(extract(epoch FROM now() - beat_at)) AS beat_age_s, details
               FROM platform_processes ORDER BY process`,
            )
            .then(
              (r: { rows: { process: string; pid: number; beat_age_s: number; details: Record<string, unknown> }[] }) =>
                r.rows
                  .map((p) => {
                    // Of the projector's projections, only those behind, stopped or replaced.
                    const { projections, ...rest } = p.details as {
                      projections?: Record<string, Record<string, unknown>>;
                    };
                    const odd = Object.entries(projections ?? {}).filter(
                      ([, v]) => v.lag_messages !== 0 || v.running !== true || (v.restarts ?? 0) !== 0,
                    );
                    const shown = projections
                      ? { ...rest, projections_behind_or_stopped: Object.fromEntries(odd) }
                      : rest;
                    return `beacon ${p.process} (pid ${p.pid}, ${p.beat_age_s} s ago): ${JSON.stringify(shown).slice(0, 600)}`;
                  })
                  .join('\n'),
            ),
          s.db
            .raw(
              `SELECT pid, application_name, state, wait_event_type, wait_event, now() - xact_start AS age, left(query, 160) AS query
               FROM pg_stat_activity
              WHERE xact_start IS NOT NULL AND pid <> pg_backend_pid() AND now() - xact_start > interval '5 seconds'
              ORDER BY xact_start LIMIT 4`,
            )
            .then((r: { rows: Record<string, unknown>[] }) =>
              r.rows.map((w) => `transaction open > 5 s: ${JSON.stringify(w)}`).join('\n'),
            ),
        ].map((p) => p.catch((e: unknown) => `(not read: ${e})`)),
      );
      // The relay's and projector's lines first; the worker's Temporal SDK INFO lines say nothing here.
      const order = ['relay', 'projector', 'api', 'temporal-worker'];
      const logs = [...procs]
        .sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name))
        .map((p) => {
          const lines = p
            .output()
            .trim()
            .split('\n')
            .filter((l) => !/\[INFO\]|^\s|^}/.test(l))
            .slice(-10);
          const state = p.child.exitCode ?? p.child.signalCode;
          return `${p.name} (${state === null ? 'running' : `exited ${state}`}):\n${lines.map((l) => `  ${l.slice(0, 300)}`).join('\n')}`;
        });
      return [workflow, ...facts.filter(Boolean), ...logs].join('\n');
    },

    async raiseUsageAlert(userId, key, idempotencyKey) {
      const meter = new PostgresUsageMeter(s.db, store, async () => PLANS.enterprise.limits);
      const cost = (PLANS.enterprise.limits.monthly_cost ?? 1500) * 0.87;
      const r = await meter.reserve({
        userId,
        provider: 'vendor_a',
        estimatedTokens: 10,
        estimatedCost: cost,
        idempotencyKey,
      });
      await meter.settle(r, { provider: 'vendor_a', model: 'sweep', tokens_in: 5, tokens_out: 5, cost });
      const alerts = await waitFor(
        'an alert to be raised',
        async () => {
          const a = (await expectStatus(req(key, 'GET', `/api/subscription/alerts/${userId}`), 200)).body.data;
          return a.length > 0 && a;
        },
        60_000,
        300,
      );
      return String(alerts[0].id);
    },
  };
}
