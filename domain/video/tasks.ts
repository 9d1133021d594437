/**
 * The video studio's AI task (domain/ai/task.ts), declared once: a plan's vendor prompt, the offline planner's
 * task and the shape of a valid answer. The plan activity (activities/video.ts) calls it through the gateway's
 * `run` and gets the draft typed.
 */
import { defineAiTask, faultOf } from '../ai/task';
import { scenesFromDraft } from './plan';
import { videoPlanPrompt } from './prompts';
import type { PlanDraft, PlanInput } from './types';

/** A video plan: JSON {title, scenes: [{heading, narration, visual_description, duration_seconds}]}. */
export const VIDEO_PLAN = defineAiTask<PlanInput, PlanDraft>({
  purpose: 'video.plan',
  answer: 'json',
  prompt: videoPlanPrompt,
  local: (input) => ({ kind: 'video_plan', input }),
  output: {
    type: 'object',
    required: ['title', 'scenes'],
    properties: {
      title: { type: 'string' },
      scenes: {
        type: 'array',
        minItems: 1,
        items: {
          type: 'object',
          required: ['narration'],
          properties: {
            heading: { type: 'string' },
            narration: { type: 'string' },
            visual_description: { type: 'string' },
            duration_seconds: { type: 'number' },
          },
        },
      },
    },
  },
  // Scenes whose narration is empty once made plain cannot be voiced: no such scene at all is asked again.
  usable: (draft, input) => faultOf(() => scenesFromDraft(draft, input)),
  maxTokens: (p) => Math.min(8000, 400 + Math.ceil(p.duration_seconds * 6)),
});
