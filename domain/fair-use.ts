/**
 * Fair use of heavy work (docs/api.md, "Fair use of heavy work"). Plan limits
 * count calls and cost; they do not stop one user from starting dozens of
 * renders at once and filling the workers every other user shares. So:
 *
 * - Task types whose work is heavy belong to a class (this catalogue, the one
 *   place that says which): `render` — media made with ffmpeg and speech
 *   (video renders, podcast audio and video, dubbing, uploads converted,
 *   video posts rendered); `generation` — long text (blog posts, articles,
 *   podcast scripts, developer content) and batches of generations. Every
 *   other task is light: short, and run as before.
 * - A user may have at most the plan's `concurrent_tasks[class]` tasks of a
 *   class running (domain/plans.ts); one more is refused with 429 and
 *   `Retry-After` until one of them finishes (api/kernel/fair-use.ts holds
 *   the count atomically in PostgreSQL).
 * - Each class runs on its own task queue (`<queue>-render`,
 *   `<queue>-generation`) whose worker runs a bounded number of activities at
 *   once (WORKER_RENDER_SLOTS, WORKER_GENERATION_SLOTS), so light tasks
 *   on the platform's queue never wait behind a burst of heavy ones.
 *
 * Pure: no I/O.
 */
import type { TaskType } from './task-types';
import { RateLimitError } from './errors';
import { HeavyTaskClass, PLANS, PlanName } from './plans';
import { WRITER_KINDS, WriterPlatform } from './writers/types';
import { writerBatchTaskType, writerTaskType } from './writers/task-types';

export type { HeavyTaskClass } from './plans';

const WRITER_PLATFORMS = Object.keys(WRITER_KINDS) as WriterPlatform[];

/**
 * The heavy task types by class. A type not listed is light. Classes are by type, not by request: a type whose
 * requests are sometimes short (a social post through `content_generation`) counts as its longest kind would.
 */
export const HEAVY_TASK_TYPES: Record<HeavyTaskClass, readonly TaskType[]> = {
  render: [
    'video_render',
    'podcast_audio', // speech of a scene, every sentence measured with ffprobe
    'podcast_audio_upload', // an uploaded file of up to an hour converted with ffmpeg
    'podcast_combine_audio',
    'podcast_video',
    'podcast_combine_videos',
    'podcast_dub', // translation, speech, re-timing and mixing
    // A video post the writers render through the video studio (a child `video_render` of the same queue).
    ...WRITER_PLATFORMS.filter((p) => WRITER_KINDS[p].includes('video_post')).map((p) =>
      writerTaskType(p, 'video_post'),
    ),
  ],
  generation: [
    'blog_medium',
    'blog_writer',
    'content_generation', // blog posts up to 2,500 words
    'content_batch',
    'podcast_script',
    ...WRITER_PLATFORMS.filter((p) => WRITER_KINDS[p].includes('article')).map((p) => writerTaskType(p, 'article')),
    ...WRITER_PLATFORMS.map(writerBatchTaskType),
  ],
};

const CLASS_OF = new Map<string, HeavyTaskClass>(
  (Object.entries(HEAVY_TASK_TYPES) as [HeavyTaskClass, readonly string[]][]).flatMap(([c, types]) =>
    types.map((t) => [t, c] as [string, HeavyTaskClass]),
  ),
);

/** The heavy class of a task type, or undefined for light work. */
export const heavyClassOf = (taskType: string): HeavyTaskClass | undefined => CLASS_OF.get(taskType);

/**
 * The task queue a task of `taskType` runs on: its class's own queue for heavy work (`<queue>-render`), the
 * platform's queue (`queue`) for everything else. The API starts workflows there; workers poll all of them.
 */
export function taskQueueOf(queue: string, taskType: string | undefined): string {
  const c = taskType === undefined ? undefined : heavyClassOf(taskType);
  return c ? heavyTaskQueue(queue, c) : queue;
}

export const heavyTaskQueue = (queue: string, taskClass: HeavyTaskClass) => `${queue}-${taskClass}`;

/**
 * `Retry-After` of a refusal (seconds): when a task of the class typically frees its place. A short render or a
 * long generation takes tens of seconds; the client learns the real moment only by retrying (or by polling the
 * running task it was told about), so this is a polling pace that keeps retries cheap, not a promise.
 */
export const RETRY_AFTER_SECONDS: Record<HeavyTaskClass, number> = { render: 30, generation: 15 };

/** A user's running tasks of a class against the plan's bound: what the decision reads and a refusal reports. */
export interface RunningHeavyTasks {
  plan: PlanName;
  taskClass: HeavyTaskClass;
  limit: number;
  /** The user's tasks of the class that count as running (at least `limit`). */
  running: string[];
}

/**
 * One more heavy task of a class than the plan runs at once: 429 RATE_LIMIT_EXCEEDED in the family's envelope, with
 * `Retry-After` (a rate limit on concurrency rather than on requests per window).
 */
export class ConcurrentTaskLimitError extends RateLimitError {
  constructor(r: RunningHeavyTasks) {
    const what = `${r.taskClass} task${r.limit === 1 ? '' : 's'}`;
    super(
      RETRY_AFTER_SECONDS[r.taskClass],
      `Too many ${r.taskClass} tasks at once: the ${PLANS[r.plan].name} plan runs at most ${r.limit} ${what} at a time and ${r.running.length} ${r.running.length === 1 ? 'is' : 'are'} running; a place frees up when one of them finishes (retry after ${RETRY_AFTER_SECONDS[r.taskClass]} s)`,
      {
        limit_type: 'concurrent_tasks',
        task_class: r.taskClass,
        plan: r.plan,
        limit: r.limit,
        running: r.running.length,
        running_task_ids: r.running,
      },
    );
  }
}

/**
 * The decision: one more task of a class may start while fewer than the plan's `limit` of the user's tasks of that
 * class are running.
 */
export const mayStartHeavyTask = (limit: number, running: number): boolean => running < limit;
