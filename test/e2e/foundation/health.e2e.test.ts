/** The API process answers /api/health and /v1/health with the real services, and stops cleanly on SIGTERM. */
import { Proc, startProcess } from '../../support/processes';
import { call } from '../../support/http';

describe('health routes (API process)', () => {
  let api: Proc;
  beforeAll(async () => {
    api = await startProcess('api', { PORT: '0' });
  });
  afterAll(async () => {
    await api?.stop();
  });

  it('GET /api/health reports PostgreSQL, Temporal and Kafka ok with latencies', async () => {
    const res = await call(`http://127.0.0.1:${api.port}/api/health`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toMatch(/.{8,}/);
    const body = res.body;
    expect(body.success).toBe(true);
    expect(typeof body.timestamp).toBe('string');
    expect(body.data.status).toBe('ok');
    for (const s of ['postgres', 'temporal', 'kafka']) {
      expect(body.data.services[s].status).toBe('ok');
      expect(typeof body.data.services[s].latency_ms).toBe('number');
    }
  });

  it('GET /v1/health answers in the developer envelope', async () => {
    const res = await call(`http://127.0.0.1:${api.port}/v1/health`);
    const body = res.body;
    expect(res.status).toBe(200);
    expect(body.meta.request_id).toBe(res.headers.get('x-request-id'));
    expect(body.data.services.kafka.status).toBe('ok');
  });

  it('reports a service that is down as 503 SERVICE_UNAVAILABLE', async () => {
    const broken = await startProcess('api', { PORT: '0', KAFKA_BROKERS: '127.0.0.1:1', MIGRATE_ON_START: 'false' });
    try {
      const res = await call(`http://127.0.0.1:${broken.port}/api/health`);
      const body = res.body;
      expect(res.status).toBe(503);
      expect(body.error.code).toBe('SERVICE_UNAVAILABLE');
      expect(body.error.details.services.kafka.status).toBe('down');
      expect(body.error.details.services.postgres.status).toBe('ok');
    } finally {
      expect(await broken.stop('SIGTERM')).toBe(0);
    }
  });
});
