/**
 * Every task type the platform runs, named once. A task type is the name a task is recorded under (TaskStarted, the
 * task-status projection, the TaskType search attribute, the webhook catalogue, fair use): the workflow runs it under
 * that name (workflows/task-runner.ts `runTask`) and the route that starts it declares it with its result
 * (api/kernel/task-catalogue.ts). Both take a `TaskType`, so a name misspelt in either does not compile, and a unit
 * test checks that the catalogue declares exactly these (test/unit/api/task-catalogue.unit.test.ts).
 */
import type { WriterKind, WriterPlatform } from './writers/types';

export const TASK_TYPES = [
  'blog_research',
  'blog_outline',
  'blog_medium',
  'blog_writer',
  'blog_writer_research',
  'content_strategy',
  'content_personas',
  'content_generation',
  'content_batch',
  'keyword_research',
  'performance_sync',
  'podcast_idea',
  'podcast_analysis',
  'podcast_queries',
  'podcast_research',
  'podcast_script',
  'podcast_audio',
  'podcast_audio_upload',
  'podcast_combine_audio',
  'podcast_video',
  'podcast_combine_videos',
  'podcast_dub',
  'podcast_voice_clone',
  'profnet_writer',
  'sitebuilder_publish',
  'video_render',
] as const;

/** A task type of the platform's own routes. */
export type PlatformTaskType = (typeof TASK_TYPES)[number];
/** A writer's task type: `<platform>_<kind>` (profnet_post, socialnet_ad_copy) or `<platform>_batch`. */
export type WriterTaskType = `${WriterPlatform}_${WriterKind | 'batch'}`;
export type TaskType = PlatformTaskType | WriterTaskType;
