/**
 * A podcast script's version is numbered when it is stored (activities/podcast.ts `appendScriptVersion`): two
 * scripts written at once for one project get two versions (once, both were numbered at request time and claimed
 * the same one), and a retried activity answers the version its event was stored with.
 */
import { randomUUID } from 'node:crypto';
import { MockActivityEnvironment } from '@temporalio/testing';
import { appendScriptVersion } from '../../../activities/podcast';
import { handleCommand } from '../../../infra/eventstore/command';
import { createEventStore } from '../../../infra/eventstore';
import { podcastStream } from '../../../domain/events/podcast';
import { podcastDecider } from '../../../domain/podcast/decide';
import type { PodcastScript } from '../../../domain/podcast/types';
import { isolatedSchema, IsolatedSchema } from '../../support/schema';

describe('podcast script versions', () => {
  let s: IsolatedSchema;
  beforeAll(async () => {
    s = await isolatedSchema();
  });
  afterAll(() => s.drop());

  it('two scripts written at once get two versions; a retried activity answers its own', async () => {
    const store = createEventStore(s.db);
    const projectId = randomUUID();
    await handleCommand(store, podcastStream(projectId), podcastDecider, {
      kind: 'create',
      project_id: projectId,
      user_id: 'u1',
      title: 'Mornings',
      idea: 'Why mornings matter',
      state: {},
    });
    const script = (line: string) =>
      ({
        title: 'Mornings',
        speakers: [{ name: 'Ann' }],
        scenes: [{ id: 'scene-1', lines: [{ speaker: 'Ann', text: line }] }],
      }) as unknown as PodcastScript;
    const write = (activityId: string, taskId: string, line: string) =>
      new MockActivityEnvironment({ workflowExecution: { workflowId: taskId, runId: 'run' }, activityId }).run(
        appendScriptVersion,
        store,
        projectId,
        'u1',
        taskId,
        script(line),
      );
    const [a, b, c] = [
      `podcast-script-${randomUUID()}`,
      `podcast-script-${randomUUID()}`,
      `podcast-script-${randomUUID()}`,
    ];
    const versions = await Promise.all([write('1', a, 'first'), write('1', b, 'second'), write('1', c, 'third')]);
    expect([...versions].sort()).toEqual([1, 2, 3]);
    // The retry of a's activity stores nothing new and answers a's version.
    expect(await write('1', a, 'first')).toBe(versions[0]);
    const { state, events } = await store.aggregateStream(
      podcastStream(projectId),
      podcastDecider.evolve,
      podcastDecider.initialState,
    );
    const written = events
      .filter((e) => e.type === 'PodcastScriptWritten')
      .map((e) => (e.data as { version: number }).version);
    expect(written).toEqual([1, 2, 3]);
    expect(state.project?.script_version).toBe(3);
  });
});
