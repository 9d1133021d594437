/**
 * A streamed generation from the real model server (llama-cpp-python's, serving the default model; scripts/test
 * starts it) cut by a SIGKILL of the worker: the medium post still completes, every logical call is charged once
 * (the cut call's reservation is taken over by its retry, never charged twice), nothing stays reserved, the
 * charges carry the server's token counts or the tokenizer's, and the task's progress messages moved while the
 * model was writing.
 */
import { randomUUID } from 'node:crypto';
import { isolatedSchema, IsolatedSchema } from '../../support/schema';
import { startProcess, Proc } from '../../support/processes';
import { testTemporal, uniq } from '../../support/env';
import { BUNDLE_PATH } from '../../support/global-setup';
import { startStreamProxy, StreamProxy } from '../../support/stream-proxy';
import { blogMediumWorkflow } from '../../../workflows';

jest.setTimeout(420_000);

describe('a worker killed mid-stream against the real model server', () => {
  let s: IsolatedSchema;
  let proxy: StreamProxy;
  let worker: Proc | undefined;

  afterAll(async () => {
    await worker?.stop('SIGTERM');
    await proxy?.close();
    await s?.drop();
  });

  it('completes the task, charges each call once and reports progress while generating', async () => {
    const server = new URL(process.env.MODEL_SERVER_URL ?? 'http://127.0.0.1:18089/v1');
    s = await isolatedSchema();
    proxy = await startStreamProxy(Number(server.port));
    const taskQueue = uniq('stream-crash');
    const env = {
      DATABASE_URL: s.url,
      KAFKA_TOPIC_PREFIX: s.topicPrefix,
      TEMPORAL_TASK_QUEUE: taskQueue,
      WORKFLOW_BUNDLE_PATH: BUNDLE_PATH,
      WORKER_HEALTH_PORT: '0',
      VENDOR_A_BASE_URL: `http://127.0.0.1:${proxy.port}/v1`,
      VENDOR_A_API_KEY: '',
      VENDOR_A_MODEL: 'smollm2-135m-instruct',
      VENDOR_A_CONTEXT_TOKENS: '8192',
      AI_MAX_RETRIES: '1',
      AI_TIMEOUT_MS: '60000',
      // A section takes a few seconds on an idle machine: report more often than the default 5 s, so the test
      // does not depend on the machine being slow.
      AI_PROGRESS_EVERY_MS: '1000',
    };
    worker = await startProcess('temporal-worker', env, false);
    const { client, connection } = await testTemporal();
    try {
      const user = `stream-crash-${randomUUID().slice(0, 6)}`;
      const taskId = `blog-medium-${randomUUID()}`;
      const sections = [1, 2].map((i) => ({
        id: `s${i}`,
        heading: i === 1 ? 'Choosing a compost bin' : 'Keeping the pile healthy',
        keyPoints: ['green and brown material', 'turning the pile every two weeks'],
        targetWords: 150,
        references: [
          {
            title: 'Composting at home',
            url: 'https://example.org/compost',
            excerpt: 'A compost bin needs green material and brown material; turning the pile lets air in.',
          },
        ],
      }));
      const handle = await client.workflow.start(blogMediumWorkflow, {
        taskQueue,
        workflowId: taskId,
        args: [{ taskId, userId: user, request: { title: 'Composting at home', sections } }],
      });
      // Kill the worker while the model is streaming a section (some kilobytes through, not finished).
      const cut = await proxy.midStream(3000);
      expect(await worker.stop('SIGKILL')).toBe('SIGKILL');
      await new Promise((r) => setTimeout(r, 200));
      expect(cut.closed).toBe(true);
      expect(cut.done).toBe(false);
      worker = await startProcess('temporal-worker', env, false);

      const done = (await handle.result()) as { sections: { id: string; content: string }[] };
      expect(done.sections.map((x) => x.id)).toEqual(['s1', 's2']);
      for (const x of done.sections) {
        expect(x.content.length).toBeGreaterThan(100);
        expect(x.content.trimEnd()).toMatch(/[.!?…)"'”’\]*]$|\n/); // never cut mid-sentence
      }

      // One charge per logical call: each section's call (and any continuation of it) once, by its own key.
      const charges = (await s.db('es_events').where({ type: 'UsageRecorded' })).map((r) => r.data);
      const keys = charges.map((c) => c.idempotency_key as string);
      expect(new Set(keys).size).toBe(keys.length);
      const calls = new Set(keys.map((k) => k.split(':')[0])); // <call>, <call>:continue-1, <call>:repair, ...
      expect(calls.size).toBe(2);
      for (const c of charges) {
        expect(c.provider).toBe('vendor_a');
        expect(c.tokens_out).toBeGreaterThan(0);
      }
      const [quota] = await s
        .db('quota_usage')
        .where({ user_id: user, limit_key: 'vendor_a_calls' })
        .select(s.db.raw('sum(used) AS used, sum(reserved) AS reserved'));
      expect(Number(quota.used)).toBe(charges.length);
      expect(Number(quota.reserved)).toBe(0);
      // The cut generation was asked again: more streams went through the proxy than calls were charged.
      expect(proxy.connections.reduce((n, c) => n + c.streams, 0)).toBeGreaterThan(charges.length);

      // While the model wrote, the task's progress moved ("Writing blog.medium.section: N tokens so far").
      const progress = (await s.db('es_events').where({ stream_id: `task-${taskId}`, type: 'TaskProgressed' })).map(
        (r) => r.data.message as string,
      );
      expect(progress.some((m) => /^Writing blog\.medium\.section: \d+ tokens so far$/.test(m))).toBe(true);
    } finally {
      await connection.close();
    }
  });
});
