/**
 * The real default model through the platform, with no vendor configured:
 * POST /api/blog/section/generate and the short-copy workflow are written by
 * the model (metadata provider llama, model name and size), an explicit
 * provider that is not configured answers 503 naming what to set, and
 * cancelling a blog task stops the model mid-generation (the activity's
 * cancellation reaches it through the gateway) and releases the reservation.
 */
import pino from 'pino';
import { call } from '../../support/http';
import { bearer, startTestApi, TestApi } from '../../support/api';
import { testTemporal, uniq } from '../../support/env';
import { startLlamaWorker, testLlama } from '../../support/llama';
import { sectionContinuityProjection } from '../../../projections/section-continuity';
import { taskStatusProjection } from '../../../projections/task-status';
import { shortCopyWorkflow } from '../../../workflows';
import type { LlamaProvider } from '../../../infra/ai/llama';
import { waitFor } from '../../support/wait';

jest.setTimeout(300000);

const MODEL = 'SmolLM2-135M-Instruct.Q4_1';

describe('llama through the platform (no vendor configured)', () => {
  let api: TestApi;
  let llama: LlamaProvider;
  let worker: Awaited<ReturnType<typeof startLlamaWorker>>;
  let temporal: Awaited<ReturnType<typeof testTemporal>>;
  let taskQueue: string;
  let alice: { userId: string; key: string };

  beforeAll(async () => {
    temporal = await testTemporal();
    taskQueue = uniq('llama');
    api = await startTestApi({
      logger: pino({ level: 'silent' }),
      projections: [sectionContinuityProjection, taskStatusProjection],
      deps: { workflows: { client: async () => temporal.client, taskQueue } },
    });
    llama = testLlama({ contexts: 1 });
    worker = await startLlamaWorker(api.schema.db, llama, { limits: { tokens: 10_000_000 }, taskQueue });
    alice = await api.user('pro');
  });
  afterAll(async () => {
    await worker?.stop();
    await llama?.runtime.close();
    await api?.stop();
    await temporal?.connection.close();
  });

  const post = (p: string, json: unknown) =>
    call(`${api.url}${p}`, { method: 'POST', headers: bearer(alice.key), json });

  it('POST /api/blog/section/generate: a section written by the model, citations kept', async () => {
    const r = await post('/api/blog/section/generate', {
      section: {
        id: 'llama-cadence',
        heading: 'Choosing a publishing cadence',
        key_points: ['Match the cadence to your capacity', 'Review the cadence every quarter'],
        keywords: ['content calendar'],
        target_words: 60,
      },
      tone: 'friendly',
    });
    expect(r.status).toBe(200);
    expect(r.body.metadata).toMatchObject({
      provider: 'llama',
      model: MODEL,
      offline: true,
      model_size_bytes: 98362432,
    });
    // Which sentences the gate takes depends on the tokens this processor samples (test/int/ai/llama.int.test.ts):
    // the model rephrased every sentence, and the report accounts for each one.
    const field = r.body.metadata.model_writing.fields[0];
    const rejected = Object.values(field.rejected as Record<string, number>).reduce((a, b) => a + b, 0);
    expect(field.units).toBeGreaterThan(1);
    expect(field.written + field.unchanged + rejected).toBe(field.units);
    expect(r.body.metadata.writer).toBe(
      field.written === 0 ? 'template' : field.written === field.units ? 'model' : 'mixed',
    );
    expect(r.body.citations.length).toBeGreaterThan(0);
    for (const c of r.body.citations) expect(r.body.markdown).toContain(`[${c.index}]`);
  });

  it('an explicit provider that is not configured: 503 naming the variables to set', async () => {
    const r = await post('/api/blog/section/generate', {
      section: { id: 'llama-vendor', heading: 'Publishing cadence', target_words: 60 },
      provider: 'vendor_a',
    });
    expect(r.status).toBe(503);
    expect(JSON.stringify(r.body)).toMatch(/VENDOR_A_BASE_URL/);
  });

  it('the short-copy workflow: a social post from llama (the model’s or the gate’s fallback), within its limit', async () => {
    const out = await temporal.client.workflow.execute(shortCopyWorkflow, {
      taskQueue,
      workflowId: `copy-${uniq('post')}`,
      args: [
        {
          userId: alice.userId,
          copy: {
            form: 'social_post',
            topic: 'email newsletters',
            audience: 'small shops',
            keyPoints: ['send on the same day every week', 'one main idea per issue'],
            maxChars: 180,
          },
        },
      ],
    });
    expect(out.characters).toBeLessThanOrEqual(180);
    expect(out.characters).toBe([...out.text].length);
    expect(out.metadata).toMatchObject({ provider: 'llama', model: MODEL, model_size_bytes: 98362432 });
  });

  it('POST /api/blog/tasks/{id}/cancel stops the model mid-generation and releases the reservation', async () => {
    const bob = await api.user('pro');
    const start = await call(`${api.url}/api/blog/generate/medium/start`, {
      method: 'POST',
      headers: bearer(bob.key),
      json: {
        title: 'A year of content planning',
        sections: [{ id: 'long', heading: 'Planning the whole year', targetWords: 800 }],
      },
    });
    expect(start.status).toBe(200);
    const before = llama.runtime.stats();
    await waitFor('a generation running', () => llama.runtime.stats().generating === 1, 60000, 50);
    const c = await call(`${api.url}/api/blog/tasks/${start.body.task_id}/cancel`, {
      method: 'POST',
      headers: bearer(bob.key),
    });
    expect([c.status, c.body.status]).toEqual([200, 'cancelled']);
    // The cancellation reaches the activity with its next heartbeat (at most 0.5 s apart here). Each sentence of the
    // section is its own generation: the host stops the one running (or, if the cancellation lands between two, none
    // is asked for after it), and nothing more is generated for the task.
    await waitFor('no generation in the host', () => llama.runtime.stats().inHost === 0, 60000, 50);
    const after = llama.runtime.stats();
    await new Promise((r) => setTimeout(r, 3000));
    expect(llama.runtime.stats().requested).toBe(after.requested);
    expect(after.aborted - before.aborted).toBeLessThanOrEqual(1);
    await waitFor(
      'the reservation released',
      async () => {
        const rows = await api.schema.db('quota_reservations').where({ user_id: bob.userId }).select('status');
        return rows.length === 1 && rows[0].status === 'released';
      },
      15000,
      50,
    );
  });
});
