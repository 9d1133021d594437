/**
 * /api/health and /v1/health tell the truth about the services and the
 * platform's own processes: all four processes running → 200 ok; the
 * projector stopped → 503 degraded naming it; a service down → 503 naming it.
 * Every process stops within the shutdown bound on SIGTERM.
 */
import { Proc, startProcess } from '../../support/processes';
import { call } from '../../support/http';
import { isolatedSchema, IsolatedSchema } from '../../support/schema';
import { BUNDLE_PATH } from '../../support/global-setup';
import { uniq } from '../../support/env';
import { waitFor } from '../../support/wait';

const SHUTDOWN_MS = 10000;
/**
 * Beyond SHUTDOWN_MS, what the wall clock may add between the signal and the exit as the test sees it: the signal's
 * delivery, the process's exit and the parent's notice of it. Milliseconds usually; generous for a loaded machine.
 * The bound itself is held by the exit code: 0 only when every closer finished within SHUTDOWN_MS in the process.
 */
const EXIT_ALLOWANCE_MS = 10000;

describe('health routes (API process and the platform processes)', () => {
  let s: IsolatedSchema;
  let env: Record<string, string>;
  let api: Proc;
  const procs: Record<string, Proc> = {};

  beforeAll(async () => {
    s = await isolatedSchema();
    env = {
      DATABASE_URL: s.url,
      KAFKA_TOPIC_PREFIX: s.topicPrefix,
      TEMPORAL_TASK_QUEUE: uniq('health'),
      WORKFLOW_BUNDLE_PATH: BUNDLE_PATH,
      MIGRATE_ON_START: 'false',
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_MS),
      HEALTH_STALE_SECONDS: '5',
      PROCESS_HEARTBEAT_MS: '500',
    };
    for (const p of ['temporal-worker', 'relay', 'projector'] as const) procs[p] = await startProcess(p, env, false);
    api = await startProcess('api', { ...env, PORT: '0' });
  });
  afterAll(async () => {
    await api?.stop();
    for (const p of Object.values(procs)) await p.stop();
    await s?.drop();
  });

  const health = () => call(`http://127.0.0.1:${api.port}/api/health`);

  it('GET /api/health reports PostgreSQL, Temporal, Kafka and the three platform processes ok', async () => {
    const res = await waitFor(
      'health to be ok',
      async () => {
        const r = await health();
        return r.status === 200 ? r : undefined;
      },
      60000,
      500,
    );
    expect(res.headers.get('x-request-id')).toMatch(/.{8,}/);
    const body = res.body;
    expect(body.success).toBe(true);
    expect(typeof body.timestamp).toBe('string');
    expect(body.data.status).toBe('ok');
    for (const svc of ['postgres', 'temporal', 'kafka']) {
      expect(body.data.services[svc].status).toBe('ok');
      expect(typeof body.data.services[svc].latency_ms).toBe('number');
    }
    expect(body.data.processes['temporal-worker']).toMatchObject({
      status: 'ok',
      instances: 1,
      pollers: expect.any(Number),
    });
    // Pollers on every queue the worker serves: the platform's and each heavy class's (docs/api.md, "Fair use").
    const queues = body.data.processes['temporal-worker'].queues as Record<string, number>;
    const names = Object.keys(queues);
    expect(names.map((q) => q.replace(/^.*?(-render|-generation)?$/, '$1'))).toEqual(['', '-render', '-generation']);
    for (const q of names) expect([q, queues[q]]).toEqual([q, expect.any(Number)]);
    expect(Math.min(...Object.values(queues))).toBeGreaterThan(0);
    expect(body.data.processes.relay).toMatchObject({ status: 'ok', instances: 1, lag_events: expect.any(Number) });
    expect(body.data.processes.projector).toMatchObject({
      status: 'ok',
      instances: 1,
      projections: expect.objectContaining({ identity: expect.any(Number) }),
    });
  });

  it('GET /v1/health answers in the developer envelope', async () => {
    const res = await call(`http://127.0.0.1:${api.port}/v1/health`);
    expect(res.status).toBe(200);
    expect(res.body.meta.request_id).toBe(res.headers.get('x-request-id'));
    expect(res.body.data.services.kafka.status).toBe('ok');
  });

  it('with the projector stopped, the platform is degraded and names it; it stopped within the bound', async () => {
    const t0 = Date.now();
    const code = await procs.projector.stop('SIGTERM');
    // A failed stop says why: the projector's own log of its shutdown.
    if (code !== 0) throw new Error(`projector exited ${code} on SIGTERM:\n${procs.projector.output().slice(-4000)}`);
    expect(Date.now() - t0).toBeLessThan(SHUTDOWN_MS + EXIT_ALLOWANCE_MS);
    const res = await waitFor(
      'health to be degraded',
      async () => {
        const r = await health();
        return r.status === 503 ? r : undefined;
      },
      30000,
      500,
    );
    expect(res.body.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(res.body.error.message).toMatch(/projector \(down\)/);
    expect(res.body.error.details.processes.projector).toMatchObject({ status: 'down', instances: 0 });
    expect(res.body.error.details.processes.relay.status).toBe('ok');
    procs.projector = await startProcess('projector', env, false);
    await waitFor('health to be ok again', async () => (await health()).status === 200, 60000, 500);
  });

  it('with the worker stopped, the platform is degraded and names the worker', async () => {
    expect(await procs['temporal-worker'].stop('SIGTERM')).toBe(0);
    const res = await waitFor(
      'health to be degraded',
      async () => {
        const r = await health();
        return r.status === 503 && r.body.error.details.processes['temporal-worker'].status === 'down' ? r : undefined;
      },
      30000,
      500,
    );
    expect(res.body.error.message).toMatch(/temporal-worker \(down\)/);
    procs['temporal-worker'] = await startProcess('temporal-worker', env, false);
  });

  it('reports a service that is down as 503 SERVICE_UNAVAILABLE', async () => {
    const broken = await startProcess('api', { ...env, PORT: '0', KAFKA_BROKERS: '127.0.0.1:1' });
    try {
      const res = await call(`http://127.0.0.1:${broken.port}/api/health`);
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('SERVICE_UNAVAILABLE');
      expect(res.body.error.details.services.kafka.status).toBe('down');
      expect(res.body.error.details.services.postgres.status).toBe('ok');
    } finally {
      expect(await broken.stop('SIGTERM')).toBe(0);
    }
  });
});
