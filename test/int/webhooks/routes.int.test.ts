/**
 * The webhook routes over HTTP (general family envelope, user scoping,
 * secret shown once, SSRF refusal as a 400). Deliveries themselves are
 * covered by delivery.int.test.ts and dispatcher.int.test.ts.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { parseAllowList } from '../../../infra/webhooks/ssrf';
import type { WebhookSettings } from '../../../infra/webhooks/settings';
import { webhookDeliveriesProjection } from '../../../projections/webhook-deliveries';
import { bearer, startTestApi, TestApi } from '../../support/api';
import { call as httpCall } from '../../support/http';

describe('webhook routes', () => {
  let api: TestApi;
  let strict: TestApi;
  const settings = (allow: string): WebhookSettings => ({
    secretKey: randomBytes(32),
    allow: parseAllowList(allow),
    schedule: [0],
    attemptTimeoutMs: 1000,
  });

  beforeAll(async () => {
    api = await startTestApi({ projections: [webhookDeliveriesProjection], webhookSettings: settings('127.0.0.1') });
    strict = await startTestApi({ pipeline: false, webhookSettings: settings('') });
  });
  afterAll(async () => {
    await api.stop();
    await strict.stop();
  });

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  type Reply = { success: boolean; data: any; error?: { code: string; message: string; details: any } };
  const call = async (t: TestApi, key: string, method: string, path: string, body?: unknown) => {
    const r = await httpCall(`${t.url}${path}`, {
      method,
      headers: bearer(key),
      ...(body !== undefined ? { json: body } : {}),
    });
    return { status: r.status, body: r.body as Reply };
  };

  it('registers (secret shown once), lists, gets, updates, pings, lists deliveries and deletes, user-scoped', async () => {
    const alice = await api.user('enterprise');
    const bob = await api.user('enterprise');
    const reg = await call(api, alice.key, 'POST', '/api/webhooks', {
      url: 'http://127.0.0.1:9/hook',
      events: ['content_generated', 'quota.warning'],
    });
    expect(reg.status).toBe(201);
    expect(reg.body.data).toMatchObject({
      url: 'http://127.0.0.1:9/hook',
      events: ['content_generated', 'quota.warning'],
      enabled: true,
      secret: expect.stringMatching(/^whsec_/),
    });
    const id = reg.body.data.id as string;

    const own = await call(api, alice.key, 'POST', '/api/webhooks', {
      url: 'http://127.0.0.1:9/other',
      events: ['research_complete'],
      secret: 'my-own-secret-0123456789',
    });
    expect(own.body.data.secret).toBe('my-own-secret-0123456789');

    const list = await call(api, alice.key, 'GET', '/api/webhooks');
    expect(list.body.data.map((e: { id: string }) => e.id)).toEqual([id, own.body.data.id]);
    expect(JSON.stringify(list.body)).not.toContain('whsec_');
    expect((await call(api, alice.key, 'GET', `/api/webhooks/${id}`)).body.data).toMatchObject({
      id,
      enabled: true,
      disabled_reason: null,
    });

    expect((await call(api, bob.key, 'GET', `/api/webhooks/${id}`)).status).toBe(404);
    expect((await call(api, bob.key, 'PATCH', `/api/webhooks/${id}`, { enabled: false })).status).toBe(404);
    expect((await call(api, bob.key, 'GET', '/api/webhooks')).body.data).toEqual([]);

    const off = await call(api, alice.key, 'PATCH', `/api/webhooks/${id}`, { enabled: false });
    expect(off.body.data).toMatchObject({ enabled: false, disabled_reason: 'disabled by user' });
    expect((await call(api, alice.key, 'POST', `/api/webhooks/${id}/test`)).status).toBe(409);
    expect(
      (await call(api, alice.key, 'PATCH', `/api/webhooks/${id}`, { enabled: true, events: ['quota.warning'] })).body
        .data,
    ).toMatchObject({ enabled: true, events: ['quota.warning'] });

    const ping = await call(api, alice.key, 'POST', `/api/webhooks/${id}/test`);
    expect(ping.status).toBe(202);
    expect(ping.body.data).toMatchObject({ endpoint_id: id, event_type: 'webhook.test', status: 'pending' });
    const deliveries = await call(api, alice.key, 'GET', `/api/webhooks/${id}/deliveries`);
    expect(deliveries.body.data).toEqual([
      expect.objectContaining({
        delivery_id: ping.body.data.delivery_id,
        status: 'pending',
        attempts: 0,
        last_status_code: null,
        next_attempt_at: null,
      }),
    ]);
    expect((await call(api, bob.key, 'GET', `/api/webhooks/${id}/deliveries`)).status).toBe(404);
    expect(
      (await call(api, bob.key, 'POST', `/api/webhooks/${id}/deliveries/${ping.body.data.delivery_id}/redeliver`))
        .status,
    ).toBe(404);
    expect(
      (await call(api, alice.key, 'POST', `/api/webhooks/${id}/deliveries/${randomUUID()}/redeliver`)).status,
    ).toBe(404);
    const again = await call(
      api,
      alice.key,
      'POST',
      `/api/webhooks/${id}/deliveries/${ping.body.data.delivery_id}/redeliver`,
    );
    expect(again.status).toBe(202);
    expect(again.body.data.delivery_id).not.toBe(ping.body.data.delivery_id);

    expect((await call(api, alice.key, 'DELETE', `/api/webhooks/${id}`)).body.data).toEqual({ id, deleted: true });
    expect((await call(api, alice.key, 'GET', `/api/webhooks/${id}`)).status).toBe(404);
    expect((await call(api, alice.key, 'GET', '/api/webhooks')).body.data.map((e: { id: string }) => e.id)).toEqual([
      own.body.data.id,
    ]);
  });

  it('validates events, secrets and URLs, and refuses loopback without the allow-list', async () => {
    const u = await api.user();
    const bad = await call(api, u.key, 'POST', '/api/webhooks', { url: 'http://127.0.0.1:9/', events: ['nope'] });
    expect(bad.status).toBe(400);
    expect(
      (
        await call(api, u.key, 'POST', '/api/webhooks', {
          url: 'http://127.0.0.1:9/',
          events: ['quota.warning'],
          secret: 'short',
        })
      ).status,
    ).toBe(400);
    expect(
      (await call(api, u.key, 'POST', '/api/webhooks', { url: 'ftp://example.com/', events: ['quota.warning'] }))
        .status,
    ).toBe(400);

    const s = await strict.user();
    const refused = await call(strict, s.key, 'POST', '/api/webhooks', {
      url: 'http://127.0.0.1:9/hook',
      events: ['quota.warning'],
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ success: false, error: { message: expect.stringMatching(/loopback/) } });
  });
});
