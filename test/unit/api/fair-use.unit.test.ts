/**
 * Fair use of heavy work: which task types are heavy and of which class, the plans' bounds and their overrides,
 * the decision, the refusal as each family answers it, the task queues, and which held slots are checked against
 * Temporal before a refusal.
 */
import {
  ConcurrentTaskLimitError,
  HEAVY_TASK_TYPES,
  heavyClassOf,
  mayStartHeavyTask,
  RETRY_AFTER_SECONDS,
  taskQueueOf,
} from '../../../domain/fair-use';
import { concurrentTaskLimit, HEAVY_TASK_CLASSES, PLAN_NAMES, PLANS } from '../../../domain/plans';
import { parseConcurrencyOverrides } from '../../../api/kernel/deps';
import { ENVELOPES } from '../../../api/kernel/envelopes';
import { slotsToVerify, VERIFY_AFTER_SECONDS, VERIFY_EVERY_SECONDS } from '../../../api/kernel/fair-use';
import { RENDER_TASK_TYPE } from '../../../api/video/render';
import { DUB_TASK } from '../../../api/podcast/dub';
import { workerQueues } from '../../../infra/temporal';
import { writerBatchTaskType, writerTaskType } from '../../../domain/writers/task-types';
import { RateLimitError } from '../../../domain/errors';

describe('heavy task classes', () => {
  it('renders, podcast media and dubbing are `render`; long generations and batches are `generation`', () => {
    for (const t of [
      RENDER_TASK_TYPE,
      DUB_TASK,
      'podcast_audio',
      'podcast_audio_upload',
      'podcast_combine_audio',
      'podcast_video',
      'podcast_combine_videos',
      writerTaskType('profnet', 'video_post'),
    ])
      expect([t, heavyClassOf(t)]).toEqual([t, 'render']);
    for (const t of [
      'blog_medium',
      'blog_writer',
      'content_generation',
      'content_batch',
      'podcast_script',
      writerTaskType('profnet', 'article'),
      writerBatchTaskType('profnet'),
      writerBatchTaskType('socialnet'),
    ])
      expect([t, heavyClassOf(t)]).toEqual([t, 'generation']);
  });

  it('short tasks stay light', () => {
    for (const t of [
      'blog_research',
      'blog_outline',
      'blog_writer_research',
      'keyword_research',
      'content_strategy',
      'content_personas',
      'profnet_post',
      'socialnet_ad_copy',
      'podcast_idea',
      'podcast_research',
      'performance_sync',
      'sitebuilder_publish',
      'no_such_type',
    ])
      expect([t, heavyClassOf(t)]).toEqual([t, undefined]);
  });

  it('a task type belongs to one class at most', () => {
    const all = Object.values(HEAVY_TASK_TYPES).flat();
    expect(new Set(all).size).toBe(all.length);
  });

  it('heavy tasks run on their class queue, light ones on the platform queue; workers poll all three', () => {
    expect(taskQueueOf('cp', RENDER_TASK_TYPE)).toBe('cp-render');
    expect(taskQueueOf('cp', 'content_batch')).toBe('cp-generation');
    expect(taskQueueOf('cp', 'blog_research')).toBe('cp');
    expect(taskQueueOf('cp', undefined)).toBe('cp');
    expect(workerQueues('cp', { render: 2, generation: 8 })).toEqual([
      { taskQueue: 'cp' },
      { taskQueue: 'cp-render', maxConcurrentActivityTaskExecutions: 2 },
      { taskQueue: 'cp-generation', maxConcurrentActivityTaskExecutions: 8 },
    ]);
  });
});

describe('concurrent task bounds of the plans', () => {
  it('every plan bounds every class; Free is the smallest and each plan allows at least the one below', () => {
    for (const c of HEAVY_TASK_CLASSES) {
      const bounds = PLAN_NAMES.map((p) => PLANS[p].concurrent_tasks[c]);
      expect(bounds.every((n) => Number.isInteger(n) && n >= 1)).toBe(true);
      expect([...bounds].sort((a, b) => a - b)).toEqual(bounds);
      expect(bounds[0]).toBeLessThan(bounds[bounds.length - 1]);
    }
    expect(PLANS.free.concurrent_tasks).toEqual({ render: 1, generation: 2 });
    expect(PLANS.enterprise.concurrent_tasks).toEqual({ render: 10, generation: 20 });
  });

  it('overrides apply per plan before `*`; TASK_CONCURRENCY_OVERRIDES is validated', () => {
    const o = parseConcurrencyOverrides('{"*":{"render":3},"enterprise":{"render":25}}');
    expect(concurrentTaskLimit('free', 'render', { concurrentTasks: o })).toBe(3);
    expect(concurrentTaskLimit('enterprise', 'render', { concurrentTasks: o })).toBe(25);
    expect(concurrentTaskLimit('enterprise', 'generation', { concurrentTasks: o })).toBe(20);
    expect(concurrentTaskLimit('pro', 'generation')).toBe(PLANS.pro.concurrent_tasks.generation);
    expect(parseConcurrencyOverrides('')).toEqual({});
    expect(() => parseConcurrencyOverrides('{"gold":{}}')).toThrow(/TASK_CONCURRENCY_OVERRIDES/);
    expect(() => parseConcurrencyOverrides('{"free":{"upload":1}}')).toThrow(/TASK_CONCURRENCY_OVERRIDES/);
    expect(() => parseConcurrencyOverrides('{"free":{"render":0}}')).toThrow(/TASK_CONCURRENCY_OVERRIDES/);
    expect(() => parseConcurrencyOverrides('{')).toThrow(/not JSON/);
  });

  it('one more task starts only below the bound', () => {
    expect(mayStartHeavyTask(1, 0)).toBe(true);
    expect(mayStartHeavyTask(1, 1)).toBe(false);
    expect(mayStartHeavyTask(4, 3)).toBe(true);
    expect(mayStartHeavyTask(4, 4)).toBe(false);
    expect(mayStartHeavyTask(4, 5)).toBe(false); // a bound lowered below what already runs
  });
});

describe('the refusal', () => {
  const e = new ConcurrentTaskLimitError({
    plan: 'free',
    taskClass: 'render',
    limit: 1,
    running: ['video-render-1'],
  });

  it('is a rate limit with Retry-After; its message names the bound, the plan, what runs and when it frees', () => {
    expect(e).toBeInstanceOf(RateLimitError);
    expect(e.retryAfter).toBe(RETRY_AFTER_SECONDS.render);
    expect(e.message).toBe(
      'Too many render tasks at once: the Free plan runs at most 1 render task at a time and 1 is running; a place frees up when one of them finishes (retry after 30 s)',
    );
    expect(e.details).toEqual({
      limit_type: 'concurrent_tasks',
      task_class: 'render',
      plan: 'free',
      limit: 1,
      running: 1,
      running_task_ids: ['video-render-1'],
    });
    const pro = new ConcurrentTaskLimitError({ plan: 'pro', taskClass: 'generation', limit: 8, running: ['a', 'b'] });
    expect(pro.message).toContain('the Pro plan runs at most 8 generation tasks at a time and 2 are running');
  });

  it('answers 429 in the general and developer envelopes with the details', () => {
    const ctx = { requestId: 'req-1', timestamp: '2026-11-22T10:00:00.000Z' };
    const general = ENVELOPES.general.error(e, ctx);
    expect(general.status).toBe(429);
    expect(general.body).toMatchObject({
      success: false,
      error: {
        code: 'RATE_LIMIT_EXCEEDED',
        message: e.message,
        details: { task_class: 'render', limit: 1, running: 1, retry_after: 30 },
      },
    });
    const developer = ENVELOPES.developer.error(e, ctx);
    expect(developer.status).toBe(429);
    expect(JSON.stringify(developer.body)).toContain('"task_class":"render"');
  });
});

describe('slots checked against Temporal before a refusal', () => {
  const slot = (task_id: string, age_seconds: number, checked_seconds_ago: number | null) => ({
    task_id,
    task_type: 'video_render',
    age_seconds,
    checked_seconds_ago,
  });
  it('only slots old enough (a start in progress is never taken for a lost one), and not checked lately', () => {
    expect(
      slotsToVerify([
        slot('young', VERIFY_AFTER_SECONDS - 1, null),
        slot('old-unchecked', VERIFY_AFTER_SECONDS + 1, null),
        slot('old-just-checked', 600, VERIFY_EVERY_SECONDS - 1),
        slot('old-checked-long-ago', 600, VERIFY_EVERY_SECONDS + 1),
      ]),
    ).toEqual(['old-unchecked', 'old-checked-long-ago']);
  });
});
