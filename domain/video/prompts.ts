/** The prompt a text vendor gets for a video plan (pure); it asks for the JSON the offline planner returns. */
import type { ChatTurn as ChatMessage } from '../ai/chat';
import { NARRATION_WORDS_PER_SECOND } from '../media/narration';
import { FORMAT_RULES } from './formats';
import type { PlanInput } from './types';

export function videoPlanPrompt(p: PlanInput): ChatMessage[] {
  const rule = FORMAT_RULES[p.format];
  const words = Math.round(p.duration_seconds * NARRATION_WORDS_PER_SECOND * 0.85);
  return [
    {
      role: 'system',
      content: 'You are a video producer who writes narrated slideshow scripts. Answer with one JSON object only.',
    },
    {
      role: 'user',
      content:
        `Plan a ${p.format} video (${rule.aspect_ratio}) of exactly ${p.duration_seconds} seconds in ${p.scene_count} scenes.\n` +
        `Topic: ${p.topic}\nKey points: ${p.key_points.join('; ') || '(your choice)'}\nAudience: ${p.audience ?? ''}\n` +
        `Tone: ${p.tone ?? ''}\nVisual style: ${p.style ?? ''}\n\n` +
        `The narration is read aloud at about ${NARRATION_WORDS_PER_SECOND} words per second: about ${words} words in all, ` +
        `spread over the scenes in proportion to their durations. Plain sentences only (no markdown, no stage directions).\n` +
        `Return JSON {title: string, scenes: [{heading: string, narration: string, visual_description: string (what ` +
        `the picture shows), duration_seconds: number}]}; durations must sum to ${p.duration_seconds}.`,
    },
  ];
}
