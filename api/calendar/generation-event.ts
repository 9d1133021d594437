/**
 * POST /v1/calendar/calendars/{calendar_id}/events/generate: one event written by AI, stored with status
 * `generated` (what the calendar's generation routes share: generation.ts).
 */
import { requireActive } from '../../domain/calendar/calendar';
import { pastSchedule } from '../../domain/calendar/errors';
import { getEventRow } from '../../projections/calendar-queries';
import { clock, requestMeta, settle, userIdOf } from '../kernel/handler';
import { defineRoute, RouteDef } from '../kernel/registry';
import { calendarFor } from './access';
import { BASE, tags } from './calendars';
import { createEvents } from './commands';
import { calendarModel, estimatedPerformance } from './model';
import { iso, str, text, withRequired } from '../kernel/schema';
import { calendarParams, contentType, eventOut, platform } from './schemas';
import { eventView } from './views';
import { checkRoom, contentOf, generatedContent, generateOne, generationOut, generationSummary } from './generation';

interface GenerateBody {
  topic: string;
  content_type: string;
  platform?: string;
  tone?: string;
  audience?: string;
  word_count: number;
  include_hashtags: boolean;
  include_cta: boolean;
  scheduled_at?: string;
}

export const eventGenerationRoutes: RouteDef[] = [
  defineRoute<GenerateBody, unknown, { calendar_id: string }>({
    method: 'post',
    path: `${BASE}/calendars/{calendar_id}/events/generate`,
    auth: 'user',
    scope: 'calendar:generate',
    tags,
    summary: 'Generate one event with AI (status generated): title, thread_content, hashtags, estimated_performance',
    description:
      'Needs create_events on an active calendar. The post is written by one metered AI call in a Temporal workflow (the offline local writer when no vendor is configured; generation says which) and stored as an event with status generated and metadata.ai_generated. Room under the event limit is checked before anything is spent (402 CALENDAR_FULL) and a given scheduled_at must be in the future (400); a used-up plan is 429, no Temporal connection 503, a vendor answer that stays unusable 502 VENDOR_BAD_RESPONSE, and nothing is created then. event is absent when the read model had not caught up within the consistency bound.',
    request: {
      params: calendarParams,
      body: withRequired(
        {
          topic: text(500),
          content_type: { ...contentType, default: 'social_post' },
          platform,
          tone: str(100),
          audience: str(300),
          word_count: { type: 'integer', minimum: 10, maximum: 1000, default: 60 },
          include_hashtags: { type: 'boolean', default: true },
          include_cta: { type: 'boolean', default: false },
          scheduled_at: iso,
        },
        ['topic'],
      ),
    },
    responses: {
      201: {
        description: 'The generated event',
        data: withRequired(
          {
            event_id: { type: 'string' },
            status: { const: 'generated' },
            content: generatedContent,
            event: { ...eventOut, description: 'The event as stored; absent when the read model had not caught up' },
            generation: generationOut,
          },
          ['event_id', 'status', 'content', 'generation'],
        ),
      },
    },
    errors: { 503: 'Generation is unavailable (no Temporal connection or worker)' },
    handler: async (ctx) => {
      const cal = await calendarFor(ctx, ctx.params.calendar_id, 'create_events');
      requireActive(cal.calendar);
      const b = ctx.body;
      const now = clock(ctx.deps);
      if (b.scheduled_at && Date.parse(b.scheduled_at) <= now.getTime())
        throw pastSchedule('scheduled_at', b.scheduled_at, now);
      await checkRoom(ctx, cal, 1);
      const plat = b.platform ?? cal.calendar.settings.default_platform;
      const post = await generateOne(ctx, {
        topic: b.topic,
        content_type: b.content_type,
        platform: plat,
        tone: b.tone,
        audience: b.audience,
        word_count: b.word_count,
        include_hashtags: b.include_hashtags,
        include_cta: b.include_cta,
      });
      const model = await calendarModel(ctx.deps.db, cal.calendar.calendar_id, cal.calendar.timezone, {
        platform: plat,
      });
      const estimated = estimatedPerformance(model, b.scheduled_at);
      const gen = generationSummary([post]);
      const r = await createEvents(
        ctx.deps,
        cal,
        userIdOf(ctx),
        [
          {
            status: 'generated',
            fields: {
              title: post.title,
              description: b.topic,
              content_type: b.content_type,
              platform: plat,
              scheduled_at: b.scheduled_at,
              content: contentOf(post, estimated),
              metadata: {
                ai_generated: true,
                generation: { provider: gen.provider, model: gen.model, offline: gen.offline },
              },
            },
          },
        ],
        now,
        requestMeta(ctx),
      );
      await settle(ctx, 'calendars', r.events);
      const row = await getEventRow(ctx.deps.db, cal.calendar.calendar_id, r.ids[0]);
      return {
        status: 201,
        data: {
          event_id: r.ids[0],
          status: 'generated',
          content: {
            title: post.title,
            thread_content: post.thread_content,
            hashtags: post.hashtags,
            estimated_performance: estimated,
          },
          ...(row ? { event: eventView(row) } : {}),
          generation: { ...gen, ...(post.coverage ? { coverage: post.coverage } : {}) },
        },
      };
    },
  }),
];
