/**
 * Failures that no retry can fix end a task at once, with a documented code
 * (domain/failures.ts) in the task record: a vendor that answers 401 is asked
 * exactly once, and data PostgreSQL cannot store fails the task on the first
 * attempt instead of being retried for minutes.
 */
import { randomUUID } from 'node:crypto';
import type { WorkflowHandle } from '@temporalio/client';
import { createEventStore } from '../../../infra/eventstore';
import { createOpenAiCompatibleClient } from '../../../infra/ai';
import { taskStatusProjection } from '../../../projections/task-status';
import { blogMediumWorkflow, blogResearchWorkflow } from '../../../workflows';
import { isolatedSchema, IsolatedSchema } from '../../support/schema';
import { testTemporal } from '../../support/env';
import { startBlogWorker } from '../../support/blog-worker';
import { startInProcessPipeline, InProcessPipeline } from '../../support/pipeline';
import { startFakeVendor, FakeVendor } from '../../support/fake-vendor';
import { projectedTask } from '../../support/wait';

jest.setTimeout(120000);

/** Attempts of each activity type in a workflow's history (from its ActivityTaskStarted events). */
async function attempts(handle: WorkflowHandle): Promise<Record<string, number>> {
  const history = await handle.fetchHistory();
  const names = new Map<string, string>();
  const out: Record<string, number> = {};
  for (const e of history.events ?? []) {
    const scheduled = e.activityTaskScheduledEventAttributes;
    if (scheduled) names.set(String(e.eventId), scheduled.activityType?.name ?? '?');
    const started = e.activityTaskStartedEventAttributes;
    if (started) {
      const name = names.get(String(started.scheduledEventId)) ?? '?';
      out[name] = Math.max(out[name] ?? 0, started.attempt ?? 1);
    }
  }
  return out;
}

describe('failures a retry cannot fix', () => {
  let s: IsolatedSchema;
  let pipeline: InProcessPipeline;
  let vendor: FakeVendor;
  let worker: Awaited<ReturnType<typeof startBlogWorker>>;
  let temporal: Awaited<ReturnType<typeof testTemporal>>;
  const user = `failing-${randomUUID().slice(0, 6)}`;

  beforeAll(async () => {
    s = await isolatedSchema();
    pipeline = await startInProcessPipeline(s, createEventStore(s.db), [taskStatusProjection], 1);
    vendor = await startFakeVendor([
      { status: 401, body: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } } },
    ]);
    // The HTTP client may retry up to 2 times on its own: a 401 must not use them either.
    const vendorA = createOpenAiCompatibleClient({
      provider: 'vendor_a',
      baseUrl: vendor.baseUrl,
      apiKey: 'wrong',
      model: 'gpt-test',
      timeoutMs: 5000,
      maxRetries: 2,
    });
    worker = await startBlogWorker(s.db, { vendors: { vendor_a: vendorA }, limits: { tokens: 10_000_000 } });
    temporal = await testTemporal();
  });

  afterAll(async () => {
    await temporal.connection.close();
    await worker.stop();
    await vendor.close();
    await pipeline.stop();
    await s.drop();
  });

  const failedTask = (taskId: string) => projectedTask(s.db, user, taskId, 'failed');

  it('a vendor answering 401 is called exactly once; the task fails with VENDOR_REQUEST_REJECTED', async () => {
    const taskId = `blog-research-${randomUUID()}`;
    const handle = await temporal.client.workflow.start(blogResearchWorkflow, {
      taskQueue: worker.taskQueue,
      workflowId: taskId,
      args: [
        {
          taskId,
          userId: user,
          request: {
            keywords: ['link building'],
            topic: 'Outreach',
            industry: '',
            target_audience: 'marketers',
            tone: 'professional',
            word_count_target: 1000,
          },
        },
      ],
    });
    await expect(handle.result()).rejects.toThrow();
    expect(vendor.requests).toHaveLength(1);
    expect((await attempts(handle)).analyzeResearch).toBe(1);
    const t = await failedTask(taskId);
    expect(t.error).toEqual({ code: 'VENDOR_REQUEST_REJECTED', message: expect.stringContaining('HTTP 401') });
  });

  it('an event PostgreSQL cannot store fails the task at once with DATA_REJECTED, not after 50 retries', async () => {
    const taskId = `blog-medium-${randomUUID()}`;
    const request = {
      title: 'A title',
      sections: [{ id: 's1', heading: 'Heading with a NUL \u0000 inside', keyPoints: [], targetWords: 100 }],
      globalTargetWords: 100,
    };
    const before = vendor.requests.length;
    const handle = await temporal.client.workflow.start(blogMediumWorkflow, {
      taskQueue: worker.taskQueue,
      workflowId: taskId,
      args: [{ taskId, userId: user, request }],
    });
    await expect(handle.result()).rejects.toThrow();
    // "At once" is the attempt count in the workflow's history, not a time budget (which a loaded machine can miss):
    // one attempt, where retrying would have made up to 50.
    expect((await attempts(handle)).reportProgress).toBe(1);
    expect(vendor.requests.length).toBe(before); // nothing was spent: the progress event failed before the first vendor call
    const t = await failedTask(taskId);
    expect(t.error).toEqual({ code: 'DATA_REJECTED', message: expect.stringContaining('NUL character') });
  });
});
