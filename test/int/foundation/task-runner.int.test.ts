/**
 * The task frame (workflows/task-runner.ts) on the real Temporal server: a cancel that arrives once the work is done
 * (its result being recorded) does not turn the task into a cancelled one with its result left behind — the task
 * ends completed, with exactly one terminal event. A cancel during the work still cancels. And what a task wrote is
 * found by its workflow id (EventStore.writtenBy, read by the kernel's settleWrittenBy): every append its activities
 * made carries the id without being told, and its children's (ids `<task id>-...`) are found with it. A history the
 * task frame recorded replays on the current code.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { Context } from '@temporalio/activity';
import type { WorkflowHandle } from '@temporalio/client';
import { createTaskActivities } from '../../../activities/tasks';
import { createEventStore } from '../../../infra/eventstore';
import { taskStream } from '../../../domain/events/tasks';
import { startTestWorker, testTemporal } from '../../support/env';
import { isolatedSchema, IsolatedSchema } from '../../support/schema';
import { BUNDLE_PATH } from '../../support/global-setup';
import { waitFor } from '../../support/wait';

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
  const cancelSeen = (handle: WorkflowHandle) =>
    waitFor(
      'the workflow to process the cancel request',
      async () => {
        const events = (await handle.fetchHistory()).events ?? [];
        const requested = events.findIndex((e) => e.workflowExecutionCancelRequestedEventAttributes);
        return requested >= 0 && events.slice(requested).some((e) => e.workflowTaskCompletedEventAttributes);
      },
      60000,
      50,
    );
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

  it("a task's appends carry its workflow id; writtenBy finds them and its children's, and nothing else", async () => {
    finishWork = Promise.resolve();
    finishRecording = Promise.resolve();
    recording = () => undefined;
    workStarted = () => undefined;
    const store = createEventStore(schema.db);
    const taskId = `podcast-idea-${randomUUID()}`;
    await (await start(taskId)).result();
    const stamped = await store.readStream(taskStream(taskId));
    expect(stamped.length).toBeGreaterThan(0);
    expect(stamped.every((e) => e.metadata.workflow_id === taskId)).toBe(true);
    // A child's write (`<task id>-image`), another task whose id only starts like this one, and a write outside any
    // workflow (a request's own append: no workflow id).
    const child = `${taskId}-image`;
    await store.append(
      taskStream(child),
      [{ type: 'TaskStarted', data: { task_id: child, user_id: 'u', task_type: 'podcast_idea', workflow_id: child } }],
      'any',
      { workflow_id: child },
    );
    const lookalike = `${taskId}x`;
    await store.append(
      taskStream(lookalike),
      [
        {
          type: 'TaskStarted',
          data: { task_id: lookalike, user_id: 'u', task_type: 'podcast_idea', workflow_id: lookalike },
        },
      ],
      'any',
      { workflow_id: lookalike },
    );
    await store.append(
      taskStream(`${taskId}-request`),
      [{ type: 'TaskStarted', data: { task_id: 'r', user_id: 'u', task_type: 'podcast_idea', workflow_id: 'r' } }],
      'any',
    );
    const written = await store.writtenBy(taskId);
    const last = stamped[stamped.length - 1];
    expect(written).toContainEqual({
      streamId: taskStream(taskId),
      type: last.type,
      streamPosition: last.streamPosition,
    });
    expect(written).toContainEqual({ streamId: taskStream(child), type: 'TaskStarted', streamPosition: 0 });
    expect(new Set(written.map((w) => w.streamId))).toEqual(new Set([taskStream(taskId), taskStream(child)]));
  });
});

describe('a history the task frame recorded', () => {
  it('replays on the current code: a change to the commands the frame issues keeps older workflows running', async () => {
    // The history of a podcastAudioWorkflow (TaskStarted, one progress message, the work, TaskCompleted: four regular
    // activities), encoded as the server sends it (`History` protobuf; the SDK's JSON reader, historyFromJSON, fails in
    // this install: @temporalio/common and @temporalio/proto each carry their own protobufjs). A deployed worker
    // replays the histories of the tasks that were running: a frame that issued other commands (local activities
    // instead of regular ones, say) without `patched` fails every one of them. Shown failing with local activities.
    const history = temporal.api.history.v1.History.decode(
      readFileSync(path.join(__dirname, 'fixtures/task-history-regular-activities.bin')),
    );
    const scheduled = (history.events ?? []).filter((e) => e.activityTaskScheduledEventAttributes).length;
    expect(scheduled).toBe(4);
    await expect(
      Worker.runReplayHistory({ workflowBundle: { codePath: BUNDLE_PATH } }, history),
    ).resolves.toBeUndefined();
  });
});
