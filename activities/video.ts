/**
 * Video studio activities around the render (plan drafting, render records,
 * metering, clean-up). The render's heavy steps are in activities/video-render.ts.
 * Every AI call goes through the gateway with the activity's idempotency key;
 * every event is appended once (event id from workflow id + activity id).
 */
import type { AiGateway } from '../infra/ai/completion';
import { VendorBadResponseError } from '../infra/ai/errors';
import type { EventStore, NewEvent } from '../infra/eventstore';
import { uuidFromKey } from '../infra/eventstore/ids';
import type { MediaStorage } from '../infra/storage/port';
import type { MediaMeter, MediaReservation } from '../infra/media/meter';
import { renderMinutes } from '../infra/media/meter';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { videoRenderStream } from '../domain/events/video';
import { storableText } from '../domain/storable-text';
import { planInput, scenesFromDraft } from '../domain/video/plan';
import { VIDEO_PLAN } from '../domain/video/tasks';
import type { PlanRequest, PlanScene } from '../domain/video/types';
import type { Coverage } from '../domain/generation';
import type { RenderJob } from '../domain/video/render';
import { activityKey, currentWorkflowId } from './tasks';
import { ask, takeCoverage } from './ai-call';

export interface VideoActivityDeps {
  store: EventStore;
  gateway: AiGateway;
  storage: MediaStorage;
  /** Scratch folder of renders (MEDIA_WORK_DIR): `<workDir>/<task_id>/...`. */
  workDir: string;
  meter: MediaMeter;
}

export interface DraftedPlan {
  title: string;
  scenes: PlanScene[];
  provider: string;
  model: string;
  /** The offline planner's account of the brief (compose.ts); absent when a vendor wrote the plan. */
  coverage?: Coverage;
}

/** Appends one event of a render's stream, once (its id from the activity key and `suffix`). */
export async function appendRenderEvent(
  store: EventStore,
  taskId: string,
  userId: string,
  event: NewEvent,
  suffix: string,
) {
  const key = activityKey(suffix);
  await store.appendOnce(
    videoRenderStream(taskId),
    { ...event, eventId: uuidFromKey(`videorender:${key}`) },
    { user_id: userId, workflow_id: currentWorkflowId(), causation_id: key },
  );
}

export function createVideoActivities(deps: VideoActivityDeps) {
  return {
    /** One metered AI call: the plan's title and scenes, durations fitted to the target exactly. */
    async draftVideoPlan(a: { userId: string; request: PlanRequest }): Promise<DraftedPlan> {
      const input = planInput(a.request);
      const { output: draft, response: resp } = await ask(deps.gateway, VIDEO_PLAN, input, {
        userId: a.userId,
        provider: a.request.provider,
        idempotencyKey: activityKey(),
      });
      const coverage = takeCoverage(resp, draft);
      let scenes: PlanScene[];
      try {
        scenes = scenesFromDraft(draft, input);
      } catch (e) {
        throw new VendorBadResponseError(resp.provider, `unusable video plan: ${(e as Error).message}`);
      }
      return {
        title: storableText(draft.title).trim() || input.topic,
        scenes,
        provider: resp.provider,
        model: resp.model,
        ...(coverage ? { coverage } : {}),
      };
    },

    async recordRenderStarted(a: { taskId: string; userId: string; job: RenderJob }): Promise<void> {
      const j = a.job;
      await appendRenderEvent(
        deps.store,
        a.taskId,
        a.userId,
        {
          type: 'VideoRenderStarted',
          data: {
            task_id: a.taskId,
            user_id: a.userId,
            plan_id: j.plan_id,
            resolution: j.resolution,
            width: j.width,
            height: j.height,
            fps: j.fps,
            total_scenes: j.scenes.length,
            planned_seconds: j.scenes.reduce((s, x) => s + x.duration_seconds, 0),
          },
        },
        '',
      );
    },

    /** Reserves the render's minutes against the plan (refused at once when a limit is reached). */
    async reserveRender(a: { taskId: string; userId: string; seconds: number }): Promise<MediaReservation> {
      return deps.meter.reserve({
        userId: a.userId,
        provider: 'render',
        units: renderMinutes(a.seconds),
        idempotencyKey: `${a.taskId}/render`,
      });
    },

    async settleRender(a: { reservation: MediaReservation; model: string }): Promise<void> {
      await deps.meter.settle(a.reservation, a.model);
    },

    async releaseRender(a: { reservation: MediaReservation }): Promise<void> {
      await deps.meter.release(a.reservation);
    },

    /** Removes a finished render's scratch folder (after the assembly, so a retried assembly still finds the scenes). */
    async removeScratch(a: { taskId: string }): Promise<void> {
      await rm(path.join(deps.workDir, a.taskId), { recursive: true, force: true });
    },

    /**
     * Removes everything a render left (scratch folder, stored files) after it
     * failed or was cancelled, and records it, so its files are no longer served.
     */
    async discardRender(a: { taskId: string; userId: string; reason: string }): Promise<number> {
      await rm(path.join(deps.workDir, a.taskId), { recursive: true, force: true });
      const removed = await deps.storage.removePrefix(`videos/${a.taskId}.`);
      await appendRenderEvent(
        deps.store,
        a.taskId,
        a.userId,
        { type: 'VideoRenderDiscarded', data: { task_id: a.taskId, user_id: a.userId, reason: a.reason, removed } },
        '',
      );
      return removed;
    },
  };
}

export type VideoActivities = ReturnType<typeof createVideoActivities>;
