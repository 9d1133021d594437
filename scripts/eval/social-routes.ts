/**
 * The content evaluation's social routes (scripts/eval/routes.ts): the developer API's social post, the writers'
 * posts, and the calendar's generated post and series.
 */

import { call, Json, must } from './client';
import { EvalRoute, PLATFORM_LIMIT, sentenceCase, tomorrow } from './eval-route';

export const SOCIAL_ROUTES: EvalRoute[] = [
  {
    id: 'v1-social',
    family: 'developer',
    model: false,
    async run(c, b) {
      const j = must(
        await call(c, 'POST', '/v1/content/generate', {
          type: 'social_media',
          topic: b.topic,
          key_points: b.key_points,
          tone: b.tone,
          platform: b.platform,
          include_cta: Boolean(b.cta),
          include_hashtags: true,
        }),
        'v1 social',
      );
      const d = j.data as Json;
      const m = d.metadata as Json;
      return {
        pieces: [
          {
            text: d.content as string,
            hashtags: m.hashtags as string[],
            expects: { maxChars: PLATFORM_LIMIT[b.platform], keyPoints: true, cta: Boolean(b.cta) },
            metadata: m,
          },
        ],
      };
    },
  },
  {
    id: 'profnet-writer',
    family: 'general',
    model: false,
    async run(c, b) {
      const j = must(
        await call(c, 'POST', '/api/profnet-writer', {
          topic: b.topic,
          tone: b.tone,
          target_audience: b.audience,
          include_hashtags: true,
          content_type: 'post',
        }),
        'profnet-writer',
      );
      const d = j.data as Json;
      return {
        pieces: [
          {
            text: d.content as string,
            hashtags: d.hashtags as string[],
            expects: { maxChars: 3000, keyPoints: false },
            metadata: d.metadata,
          },
        ],
      };
    },
  },
  {
    id: 'profnet-post',
    family: 'writers',
    model: false,
    async run(c, b) {
      const j = must(
        await call(c, 'POST', '/api/profnet/generate-post', {
          topic: b.topic,
          audience: b.audience,
          tone: b.tone,
          content_type: b.format.kind === 'listicle' ? 'tips' : 'insight',
        }),
        'profnet post',
      );
      const content = j.content as Json;
      return {
        pieces: [
          {
            text: j.text as string,
            hashtags: content.hashtags as string[],
            expects: { maxChars: 3000, keyPoints: false },
            metadata: j.metadata,
          },
        ],
      };
    },
  },
  {
    id: 'socialnet-post',
    family: 'writers',
    model: false,
    async run(c, b) {
      const j = must(
        await call(c, 'POST', '/api/socialnet-writer/post/generate', {
          topic: b.topic,
          audience: b.audience,
          tone: b.tone,
          engagement_hooks: { add_cta: Boolean(b.cta) },
        }),
        'socialnet post',
      );
      const content = j.content as Json;
      return {
        pieces: [
          {
            text: j.text as string,
            hashtags: content.hashtags as string[],
            expects: { keyPoints: false, cta: Boolean(b.cta) },
            metadata: j.metadata,
          },
        ],
      };
    },
  },
  {
    id: 'calendar-post',
    family: 'calendar',
    model: false,
    async run(c, b, ctx) {
      const j = must(
        await call(c, 'POST', `/v1/calendar/calendars/${ctx.calendarId}/events/generate`, {
          topic: b.topic,
          audience: b.audience,
          tone: b.tone,
          platform: b.platform,
          include_cta: Boolean(b.cta),
          include_hashtags: true,
          scheduled_at: tomorrow(2).toISOString(),
        }),
        'calendar post',
      );
      const content = j.content as Json;
      return {
        pieces: [
          {
            text: (content.thread_content as string[]).join('\n\n'),
            hashtags: content.hashtags as string[],
            expects: { keyPoints: false, cta: Boolean(b.cta) },
            metadata: j.generation,
          },
        ],
      };
    },
  },
  {
    id: 'calendar-series',
    family: 'calendar',
    model: false,
    async run(c, b, ctx) {
      const j = must(
        await call(c, 'POST', `/v1/calendar/calendars/${ctx.calendarId}/series/generate`, {
          series_title: sentenceCase(b.topic),
          description: b.key_points.join('; '),
          content_types: ['social_post'],
          platforms: [b.platform],
          schedule: { frequency: 'weekly', start_date: tomorrow(3).toISOString().slice(0, 10), count: 5 },
          audience: b.audience,
          tone: b.tone,
        }),
        'calendar series',
      );
      const events = j.events as Array<{ content: { thread_content: string[]; hashtags: string[] } }>;
      const failed = (j.failed ?? []) as Array<{ series_index: number; error: { code: string; message: string } }>;
      return {
        failures: failed.map((f) => `post ${f.series_index + 1} of 5: ${f.error.code} ${f.error.message}`),
        // The series is judged as one piece: a sentence shared by two posts is a duplicate.
        pieces: [
          {
            text: events.map((e) => e.content.thread_content.join('\n\n')).join('\n\n'),
            hashtags: events.flatMap((e) => e.content.hashtags),
            expects: { keyPoints: true },
            metadata: j.generation,
          },
        ],
      };
    },
  },
];
