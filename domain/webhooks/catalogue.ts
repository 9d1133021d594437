/**
 * The webhook event catalogue: every event name a client may subscribe to,
 * and a declarative table of which domain events produce which names with
 * which data. Later areas add names by declaring them here (a name + a rule);
 * the dispatcher, the delivery workflow and the routes need no change.
 *
 * Pure: the dispatcher hands in the recorded event and the little context a
 * rule asks for (the task's type and owner for task events).
 */

import type { EventOfType, EventType } from '../events';
import { WRITER_CONTENT_TASK_TYPES } from '../writers/task-types';

/** Who registers for a name: the general `/api/webhooks` route, or the calendar's (Document 3). */
export type WebhookFamily = 'general' | 'calendar';

/** Shape of the body: `standard` = event_type/id/timestamp/data (Document 1); `calendar` = event/id/timestamp/data (Document 3). */
export type PayloadShape = 'standard' | 'calendar';

export interface WebhookName {
  family: WebhookFamily;
  shape: PayloadShape;
  /** "Emitted when" of the spec. */
  description: string;
}

/** Name of the test ping (POST /api/webhooks/{id}/test); sent regardless of the endpoint's subscriptions. */
export const TEST_EVENT = 'webhook.test';

export const WEBHOOK_NAMES: Record<string, WebhookName> = {
  // General family (Document 1, "Events").
  'content.generated': { family: 'general', shape: 'standard', description: 'content generation completed' },
  'seo.analysis.completed': { family: 'general', shape: 'standard', description: 'SEO analysis finished' },
  'strategy.updated': { family: 'general', shape: 'standard', description: 'a content strategy was updated' },
  'quota.warning': { family: 'general', shape: 'standard', description: 'usage approaches the quota limit' },
  // Integration routes (Document 1, "Events").
  content_generated: {
    family: 'general',
    shape: 'standard',
    description: 'content generation completed (carries `content`)',
  },
  seo_analysis_complete: { family: 'general', shape: 'standard', description: 'SEO analysis finished' },
  research_complete: { family: 'general', shape: 'standard', description: 'research phase completed' },
  user_action: { family: 'general', shape: 'standard', description: 'a user interacts with an integration' },
  [TEST_EVENT]: { family: 'general', shape: 'standard', description: 'test ping sent on request' },
  // Calendar family (Document 3, "Events"): registered with POST /v1/calendar/webhooks.
  'event.created': { family: 'calendar', shape: 'calendar', description: 'an event is created' },
  'event.updated': { family: 'calendar', shape: 'calendar', description: 'an event is updated' },
  'event.published': { family: 'calendar', shape: 'calendar', description: 'an event is published' },
  'event.performance_updated': {
    family: 'calendar',
    shape: 'calendar',
    description: 'performance figures of an event change',
  },
  'calendar.analytics_ready': {
    family: 'calendar',
    shape: 'calendar',
    description: "calendar analytics are ready: an event's first figures were recorded",
  },
};

/** Names a client of `family` may subscribe to (the test ping is not subscribable). */
export function subscribableNames(family: WebhookFamily): string[] {
  return Object.entries(WEBHOOK_NAMES)
    .filter(([n, d]) => d.family === family && n !== TEST_EVENT)
    .map(([n]) => n);
}

/** The part of a recorded event a rule reads (structurally the event store's RecordedEvent); narrows on `type`. */
export type SourceEvent<T extends EventType = EventType> = EventOfType<T> & {
  eventId: string;
  metadata: { user_id?: string; [k: string]: unknown };
  recordedAt: string;
};

/** Context a rule may ask the dispatcher for. */
export interface TaskContext {
  task_type: string;
  user_id: string;
}
export interface SourceContext {
  task?: TaskContext;
}

/** One webhook message produced by a domain event, before it is addressed to endpoints. */
export interface WebhookMessage {
  name: string;
  data: Record<string, unknown>;
  /** Only for `content_generated`: the generated text. */
  content?: string;
}

export interface WebhookRule<T extends EventType = EventType> {
  /** Domain event type the rule reads. */
  source: T;
  /** Context the dispatcher must load first. */
  needs?: 'task';
  /** Owner whose endpoints receive the messages; undefined = nobody. */
  user(e: SourceEvent<T>, ctx: SourceContext): string | undefined;
  /** Messages for this event ([] when the rule does not apply). */
  messages(e: SourceEvent<T>, ctx: SourceContext): WebhookMessage[];
}

const isOfType = <T extends EventType>(type: T, e: SourceEvent): e is SourceEvent<T> => e.type === type;

/**
 * Declares a rule typed by its source event, for the table of rules of every type: it answers an event of its own
 * type (the only kind it is called with, rulesFor) and nothing for any other.
 */
const rule = <T extends EventType>(r: WebhookRule<T>): WebhookRule => ({
  source: r.source,
  ...(r.needs ? { needs: r.needs } : {}),
  user: (e, ctx) => (isOfType(r.source, e) ? r.user(e, ctx) : undefined),
  messages: (e, ctx) => (isOfType(r.source, e) ? r.messages(e, ctx) : []),
});

/** Task types normalised: `blog-medium` and `blog_medium` are the same type. */
export const normaliseTaskType = (t: string) => t.toLowerCase().replace(/-/g, '_');

const RESEARCH_TASKS = new Set(['blog_research', 'research', 'blog_writer_research']);
const NON_CONTENT_TASKS = new Set(['blog_outline', 'blog_research', 'research']);
/**
 * Tasks of the generating routes of Document 1 (docs/content.md) whose type the prefix rules below do not catch:
 * each completes with content.generated too (research also with research_complete, strategy with strategy.updated).
 */
const GENERATING_TASKS = new Set([
  'blog_writer_research',
  'profnet_writer',
  'keyword_research',
  'content_strategy',
  'content_personas',
  'content_batch',
]);

/** Content-producing tasks: every `blog_*` task but research and outline, the generic content tasks, the generating routes and the writers' generations. */
export function isContentTask(taskType: string): boolean {
  const t = normaliseTaskType(taskType);
  if (GENERATING_TASKS.has(t)) return true;
  if (NON_CONTENT_TASKS.has(t)) return false;
  if (WRITER_CONTENT_TASK_TYPES.has(t)) return true;
  return t.startsWith('blog_') || t === 'content_generation' || t.endsWith('_post');
}

/** The generated text of a task result, wherever the task put it. */
export function contentOf(result: Record<string, unknown>): string | undefined {
  const candidates: unknown[] = [result.content, result.markdown, result.text];
  for (const k of ['blog_post', 'article', 'post', 'data']) {
    const v = result[k];
    if (v && typeof v === 'object')
      candidates.push((v as Record<string, unknown>).content, (v as Record<string, unknown>).markdown);
  }
  return candidates.find((c): c is string => typeof c === 'string' && c.length > 0);
}

const taskOwner = (e: SourceEvent<'TaskCompleted'>, ctx: SourceContext) => ctx.task?.user_id ?? e.metadata.user_id;

/** The declarative mapping. Add a rule to make a domain event produce a name. */
export const WEBHOOK_RULES: WebhookRule[] = [
  rule({
    source: 'TaskCompleted',
    needs: 'task',
    user: taskOwner,
    messages(e, ctx) {
      if (!ctx.task) return [];
      const t = normaliseTaskType(ctx.task.task_type);
      const result = e.data.result ?? {};
      const data = { task_id: e.data.task_id, task_type: t, result };
      const out: WebhookMessage[] = [];
      if (RESEARCH_TASKS.has(t)) out.push({ name: 'research_complete', data });
      if (isContentTask(t)) {
        const content = contentOf(result);
        out.push(
          { name: 'content.generated', data },
          { name: 'content_generated', data, ...(content !== undefined ? { content } : {}) },
        );
      }
      if (t === 'seo_analysis')
        out.push({ name: 'seo.analysis.completed', data }, { name: 'seo_analysis_complete', data });
      if (t === 'content_strategy') out.push({ name: 'strategy.updated', data });
      return out;
    },
  }),
  rule({
    source: 'SeoAnalysisCompleted',
    user: (e) => e.data.user_id,
    messages(e) {
      const { analysis_id, route, seo_score, keywords, word_count, recommendations } = e.data;
      const data = { analysis_id, route, seo_score, keywords, word_count, recommendations };
      return [
        { name: 'seo.analysis.completed', data },
        { name: 'seo_analysis_complete', data },
      ];
    },
  }),
  rule({
    source: 'IntegrationActionRecorded',
    user: (e) => e.data.user_id,
    messages(e) {
      const { action_id, integration, action, route, details } = e.data;
      return [{ name: 'user_action', data: { action_id, integration, action, route, details } }];
    },
  }),
  rule({
    source: 'AlertRaised',
    user: (e) => e.data.user_id,
    messages(e) {
      const t = e.data.alert_type;
      if (t !== 'usage_threshold' && t !== 'cost_threshold') return [];
      const { alert_key, title, message, severity, alert_type, billing_period } = e.data;
      return [{ name: 'quota.warning', data: { alert_key, title, message, severity, alert_type, billing_period } }];
    },
  }),
];

/**
 * The calendar payload's `data` (Document 3): calendar_id, event_id, platform,
 * published_at, performance_initial {impressions, engagements} (null until an
 * event's first figures are recorded), plus `status` where the event says it.
 */
const calendarData = (
  d: { calendar_id: string; event_id: string; platform: string; published_at: string | null },
  performance_initial: { impressions: number; engagements: number } | null = null,
  extra: Record<string, unknown> = {},
) => ({
  calendar_id: d.calendar_id,
  event_id: d.event_id,
  platform: d.platform,
  published_at: d.published_at,
  performance_initial,
  ...extra,
});

WEBHOOK_RULES.push(
  rule({
    source: 'CalendarEventCreated',
    user: (e) => e.data.owner_id,
    messages: (e) => [
      { name: 'event.created', data: calendarData({ ...e.data, published_at: null }, null, { status: e.data.status }) },
    ],
  }),
  rule({
    source: 'CalendarEventUpdated',
    user: (e) => e.data.owner_id,
    messages: (e) => [
      {
        name: 'event.updated',
        data: calendarData(e.data, null, {
          changed: Object.keys(e.data.changes),
          ...(e.data.status ? { status: e.data.status.to, previous_status: e.data.status.from } : {}),
        }),
      },
    ],
  }),
  rule({
    source: 'CalendarEventApprovalRecorded',
    user: (e) => e.data.owner_id,
    messages: (e) => [
      {
        name: 'event.updated',
        data: calendarData(e.data, null, {
          status: e.data.to,
          previous_status: e.data.from,
          approved: e.data.approved,
        }),
      },
    ],
  }),
  rule({
    source: 'CalendarEventPublishFailed',
    user: (e) => e.data.owner_id,
    messages: (e) => [
      { name: 'event.updated', data: calendarData(e.data, null, { status: 'failed', failure_code: e.data.code }) },
    ],
  }),
  rule({
    source: 'CalendarEventPublished',
    user: (e) => e.data.owner_id,
    messages: (e) => [{ name: 'event.published', data: calendarData(e.data, null, { mode: e.data.mode }) }],
  }),
  rule({
    source: 'CalendarEventPerformanceRecorded',
    user: (e) => e.data.owner_id,
    messages: (e) => {
      const data = calendarData(e.data, e.data.performance_initial, { measured_at: e.data.measured_at });
      return [
        { name: 'event.performance_updated', data },
        ...(e.data.first ? [{ name: 'calendar.analytics_ready', data }] : []),
      ];
    },
  }),
);

/** Domain event types any rule reads. */
export const WEBHOOK_SOURCE_TYPES: EventType[] = [...new Set(WEBHOOK_RULES.map((r) => r.source))];

export const rulesFor = (type: EventType): WebhookRule[] => WEBHOOK_RULES.filter((r) => r.source === type);

/** What one domain event produces: its owner and messages, or undefined when nothing. */
export function webhookMessagesFor(
  e: SourceEvent,
  ctx: SourceContext,
): { userId: string; messages: WebhookMessage[] } | undefined {
  const out: WebhookMessage[] = [];
  let userId: string | undefined;
  for (const r of rulesFor(e.type)) {
    const u = r.user(e, ctx);
    const m = r.messages(e, ctx);
    if (!u || m.length === 0) continue;
    userId = u;
    out.push(...m);
  }
  return userId && out.length ? { userId, messages: out } : undefined;
}

/**
 * The body delivered for a message. `standard`: event_type, id (the delivery
 * id, also the `webhook-id` header), timestamp (when the domain event was
 * recorded, ISO 8601), data, and `content` for content_generated.
 * `calendar`: event, id, timestamp, data.
 */
export function buildPayload(m: WebhookMessage, deliveryId: string, timestamp: string): Record<string, unknown> {
  const shape = WEBHOOK_NAMES[m.name]?.shape ?? 'standard';
  if (shape === 'calendar') return { event: m.name, id: deliveryId, timestamp, data: m.data };
  return {
    event_type: m.name,
    id: deliveryId,
    timestamp,
    data: m.data,
    ...(m.content !== undefined ? { content: m.content } : {}),
  };
}

/** The payload of a redelivery: the same body under a new delivery id. */
export function withDeliveryId(payload: Record<string, unknown>, deliveryId: string): Record<string, unknown> {
  return { ...payload, id: deliveryId };
}
