/**
 * The content evaluation's spoken and outreach routes (scripts/eval/routes.ts): the podcast script, the video
 * plan's narration, and the backlink outreach email.
 */

import { call, Json, must } from './client';
import { EvalRoute, sentenceCase, TONES } from './eval-route';

export const SCRIPT_ROUTES: EvalRoute[] = [
  {
    id: 'podcast-script',
    family: 'podcast',
    model: false,
    async run(c, b) {
      const j = must(
        await call(c, 'POST', '/api/podcast/script', {
          idea: b.topic,
          duration_minutes: 1,
          tone: b.tone,
          speakers: [
            { name: 'Maya', role: 'host' },
            { name: 'Sam', role: 'guest' },
          ],
          analysis: JSON.stringify({
            audience: b.audience,
            tone: b.tone,
            segment_outline: b.key_points.map((p) => ({ title: sentenceCase(p), minutes: 0.3 })),
          }),
        }),
        'podcast script',
      );
      const script = ((j.data as Json | undefined)?.script ?? j.script) as {
        title: string;
        scenes: Array<{ title: string; lines: Array<{ speaker: string; text: string }> }>;
      };
      const text = script.scenes.map((s) => s.lines.map((l) => l.text).join('\n\n')).join('\n\n');
      return { pieces: [{ text, expects: { keyPoints: true, words: 150 }, metadata: script }] };
    },
  },
  {
    id: 'video-plan',
    family: 'video',
    model: false,
    async run(c, b) {
      const j = must(
        await call(c, 'POST', '/api/videonet/plan', {
          topic: b.topic,
          key_points: b.key_points,
          audience: b.audience,
          tone: b.tone,
          format: 'short',
          duration_seconds: 45,
        }),
        'video plan',
      );
      const scenes = j.scenes as Array<{ narration: string }>;
      return {
        pieces: [
          {
            text: scenes.map((s) => s.narration).join('\n\n'),
            expects: { keyPoints: true },
            metadata: { provider: j.provider, model: j.model, offline: j.offline },
          },
        ],
      };
    },
  },
  {
    id: 'outreach-email',
    family: 'outreach',
    model: false,
    async run(c, b) {
      const j = must(
        await call(
          c,
          'POST',
          '/api/v1/backlink-outreach/emails/generate',
          { topic: b.topic, tone: TONES[b.tone] ?? 'professional' },
          'session',
        ),
        'outreach email',
      );
      return {
        pieces: [
          {
            text: `${j.subject as string}\n\n${j.body as string}`,
            expects: { keyPoints: false },
            metadata: j.metadata,
          },
        ],
      };
    },
  },
];
