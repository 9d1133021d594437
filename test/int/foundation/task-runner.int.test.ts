/**
 * The task frame (workflows/task-runner.ts) on the real Temporal server: a cancel that arrives once the work is done
 * (its result being recorded) does not turn the task into a cancelled one with its result left behind — the task
 * ends completed, with exactly one terminal event. A cancel during the work still cancels.
 */
import { randomUUID } from 'node:crypto';
import { Context } from '@temporalio/activity';
import type { WorkflowHandle } from '@temporalio/client';
import { createTaskActivities } from '../../../activities/tasks';
import { createEventStore } from '../../../infra/eventstore';
import { taskStream } from '../../../domain/events/tasks';
import { startTestWorker, testTemporal } from '../../support/env';
import { isolatedSchema, IsolatedSchema } from '../../support/schema';

const TERMINAL = ['TaskCompleted', 'TaskFailed', 'TaskCancelled'];

describe('task frame and late cancels', () => {
  let schema: IsolatedSchema;
  let temporal: Awaited<ReturnType<typeof testTemporal>>;
  let worker: Awaited<ReturnType<typeof startTestWorker>>;
  // Test hooks: the work and the recording of its result wait until the test lets them go.
  let workStarted: () => void = () => undefined;
  let finishWork: Promise<void> = Promise.resolve();
  let recording: () => void = () => undefined;
  let finishRecording: Promise<void> = Promise.resolve();

  beforeAll(async () => {
    schema = await isolatedSchema();
    const store = createEventStore(schema.db);
    const tasks = createTaskActivities({ store });
    temporal = await testTemporal();
    worker = await startTestWorker({
      ...tasks,
      async completeTask(t: Parameters<typeof tasks.completeTask>[0]) {
        recording();
        await finishRecording;
        return tasks.completeTask(t);
      },
      // Heartbeats like the platform's activities, so a cancel reaches it (Context.cancelled rejects).
      async podcastText() {
        workStarted();
        const ctx = Context.current();
        const beat = setInterval(() => ctx.heartbeat(), 100);
        try {
          await Promise.race([finishWork, ctx.cancelled]);
        } finally {
          clearInterval(beat);
        }
        return { text: 'the work is done' };
      },
    });
  });
  afterAll(async () => {
    await worker?.stop();
    await temporal?.connection.close();
    await schema?.drop();
  });

  const gate = () => {
    let open: () => void = () => undefined;
    const p = new Promise<void>((r) => (open = r));
    return { p, open };
  };
  const start = (taskId: string) =>
    temporal.client.workflow.start('podcastTextWorkflow', {
      taskQueue: worker.taskQueue,
      workflowId: taskId,
      args: [{ taskId, userId: randomUUID(), request: { kind: 'enhance', idea: 'x' } }],
    });
  /** Resolves once the workflow has processed a cancel request: a workflow task completed after the request. */
  const cancelSeen = async (handle: WorkflowHandle) => {
    for (const deadline = Date.now() + 60000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
      const events = (await handle.fetchHistory()).events ?? [];
      const requested = events.findIndex((e) => e.workflowExecutionCancelRequestedEventAttributes);
      if (requested >= 0 && events.slice(requested).some((e) => e.workflowTaskCompletedEventAttributes)) return;
    }
    throw new Error('the workflow did not process the cancel request');
  };
  const eventsOf = async (taskId: string) =>
    (await createEventStore(schema.db).readStream(taskStream(taskId))).map((e) => e.type);

  it('a cancel while the result is being recorded: the task ends completed, once', async () => {
    const work = gate();
    const record = gate();
    const reached = gate();
    finishWork = work.p;
    finishRecording = record.p;
    recording = reached.open;
    const taskId = `podcast-idea-${randomUUID()}`;
    const handle = await start(taskId);
    work.open();
    await reached.p; // completeTask is running
    await handle.cancel();
    // The cancel reached the workflow: its history holds the request and a workflow task completed after it (a fixed
    // pause can be too short on a loaded machine, and then the test would not test a late cancel at all).
    await cancelSeen(handle);
    record.open();
    await expect(handle.result()).resolves.toMatchObject({ text: 'the work is done' });
    const types = await eventsOf(taskId);
    expect(types.filter((t) => TERMINAL.includes(t))).toEqual(['TaskCompleted']);
  });

  it('a cancel during the work: the task ends cancelled, once', async () => {
    const work = gate();
    const started = gate();
    finishWork = work.p;
    finishRecording = Promise.resolve();
    recording = () => undefined;
    workStarted = started.open;
    const taskId = `podcast-idea-${randomUUID()}`;
    const handle = await start(taskId);
    await started.p;
    await handle.cancel();
    await expect(handle.result()).rejects.toThrow();
    work.open();
    const types = await eventsOf(taskId);
    expect(types.filter((t) => TERMINAL.includes(t))).toEqual(['TaskCancelled']);
  });
});
