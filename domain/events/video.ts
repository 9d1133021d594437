/**
 * Events of the video studio.
 * - Plans and their scenes: stream `videoplan-<plan_id>` (VideoPlanCreated, VideoScenesBuilt, VideoSceneUpdated),
 *   decided by domain/video/decide.ts.
 * - Renders: stream `videorender-<task_id>`, written by the render workflow's activities: VideoRenderStarted,
 *   VideoRenderProgressed (percent and current scene, per finished step), VideoRendered (the files, which the
 *   API serves to their owner only) and VideoRenderDiscarded (files of a cancelled or failed render removed).
 * The task itself (status, progress messages, result) is the task stream's (domain/events/tasks.ts).
 */
import { EventDefinitions, openAllRequired, openWithRequired } from './types';
import { int, nonEmptyString, num } from '../schema';
import type { VideoPlan, VideoScene } from '../video/types';

export interface MediaFileEntry {
  filename: string;
  /** `video`, `subtitles_srt`, `subtitles_vtt`, `audio`. */
  kind: string;
  content_type: string;
  size: number;
}

export type VideoEvent =
  | { type: 'VideoPlanCreated'; data: { plan_id: string; user_id: string; plan: VideoPlan } }
  | {
      type: 'VideoScenesBuilt';
      data: { plan_id: string; user_id: string; scenes: VideoScene[]; replaced_scene_ids: string[] };
    }
  | { type: 'VideoSceneUpdated'; data: { plan_id: string; user_id: string; scene: VideoScene; changed: string[] } }
  | {
      type: 'VideoRenderStarted';
      data: {
        task_id: string;
        user_id: string;
        plan_id: string;
        resolution: string;
        width: number;
        height: number;
        fps: number;
        total_scenes: number;
        planned_seconds: number;
      };
    }
  | {
      type: 'VideoRenderProgressed';
      data: { task_id: string; user_id: string; percent: number; scene_index: number; step: string };
    }
  | {
      type: 'VideoRendered';
      data: { task_id: string; user_id: string; plan_id: string; duration_seconds: number; files: MediaFileEntry[] };
    }
  | { type: 'VideoRenderDiscarded'; data: { task_id: string; user_id: string; reason: string; removed: number } };

const ids = { plan_id: nonEmptyString, user_id: nonEmptyString };
const scene = openAllRequired({
  scene_id: nonEmptyString,
  plan_id: nonEmptyString,
  index: int,
  heading: { type: 'string' },
  narration: { type: 'string' },
  visual_description: { type: 'string' },
  duration_seconds: num,
  visual: openAllRequired({
    kind: nonEmptyString,
    colors: { type: 'array', items: nonEmptyString },
    motion: nonEmptyString,
  }),
  voice: { type: 'object' },
});
const file = openAllRequired({
  filename: nonEmptyString,
  kind: nonEmptyString,
  content_type: nonEmptyString,
  size: int,
});

export const videoEvents: EventDefinitions<VideoEvent['type']> = {
  VideoPlanCreated: {
    area: 'video',
    version: 1,
    schema: openAllRequired({
      ...ids,
      plan: openWithRequired(
        {
          plan_id: nonEmptyString,
          user_id: nonEmptyString,
          title: { type: 'string' },
          format: { enum: ['short', 'standard', 'long'] },
          target_duration_seconds: num,
          scenes: { type: 'array', minItems: 1 },
        },
        ['plan_id', 'user_id', 'title', 'format', 'target_duration_seconds', 'scenes'],
      ),
    }),
  },
  VideoScenesBuilt: {
    area: 'video',
    version: 1,
    schema: openAllRequired({ ...ids, scenes: { type: 'array', items: scene }, replaced_scene_ids: { type: 'array' } }),
  },
  VideoSceneUpdated: {
    area: 'video',
    version: 1,
    schema: openAllRequired({ ...ids, scene, changed: { type: 'array', items: nonEmptyString } }),
  },
  VideoRenderStarted: {
    area: 'video',
    version: 1,
    schema: openAllRequired({
      task_id: nonEmptyString,
      ...ids,
      resolution: nonEmptyString,
      width: int,
      height: int,
      fps: int,
      total_scenes: int,
      planned_seconds: num,
    }),
  },
  VideoRenderProgressed: {
    area: 'video',
    version: 1,
    schema: openAllRequired({
      task_id: nonEmptyString,
      user_id: nonEmptyString,
      percent: { ...int, minimum: 0, maximum: 100 },
      scene_index: int,
      step: nonEmptyString,
    }),
  },
  VideoRendered: {
    area: 'video',
    version: 1,
    schema: openAllRequired({
      task_id: nonEmptyString,
      ...ids,
      duration_seconds: num,
      files: { type: 'array', items: file },
    }),
  },
  VideoRenderDiscarded: {
    area: 'video',
    version: 1,
    schema: openAllRequired({
      task_id: nonEmptyString,
      user_id: nonEmptyString,
      reason: { type: 'string' },
      removed: int,
    }),
  },
};

export const videoPlanStream = (planId: string) => `videoplan-${planId}`;
export const videoRenderStream = (taskId: string) => `videorender-${taskId}`;
