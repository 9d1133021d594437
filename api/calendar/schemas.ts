/**
 * JSON Schemas of the calendar routes' requests and responses (Document 3
 * field names). Every string and array is bounded; every URL is httpUrl().
 */
import {
  allRequired,
  anyString,
  arr,
  bool,
  httpUrl,
  int,
  iso,
  mapOf,
  num,
  orNull,
  str,
  strings,
  text,
  uuid,
  withRequired,
} from '../kernel/schema';
import { EVENT_STATUSES } from '../../domain/calendar/states';
import { PERMISSION_NAMES } from '../../domain/calendar/permissions';

export const PLATFORMS = ['profnet', 'socialnet', 'photonet', 'microblog', 'videonet', 'adnet_ads', 'multi'];
export const CONTENT_TYPES = [
  'social_post',
  'carousel_post',
  'thread',
  'blog_post',
  'social_thread',
  'video_script',
  'feed_post',
  'story',
  'carousel',
  'video',
];

export const platform = { type: 'string', enum: PLATFORMS };
export const contentType = { type: 'string', enum: CONTENT_TYPES };
export const eventStatus = { type: 'string', enum: EVENT_STATUSES };
const hhmm = { type: 'string', pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' };
export const dateOnly = { type: 'string', format: 'date' };

export const settingsIn = withRequired(
  {
    default_platform: platform,
    working_hours: withRequired({ start: hhmm, end: hhmm }, []),
    auto_publish: bool,
    approval_workflow: bool,
  },
  [],
);
export const settingsOut = allRequired({
  default_platform: { type: 'string' },
  working_hours: allRequired({ start: { type: 'string' }, end: { type: 'string' } }),
  auto_publish: bool,
  approval_workflow: bool,
});

export const calendarParams = allRequired({ calendar_id: uuid });
export const eventParams = allRequired({ calendar_id: uuid, event_id: uuid });
export const campaignParams = allRequired({ calendar_id: uuid, campaign_id: uuid });

export const contentIn = withRequired(
  {
    caption: str(5000),
    media_urls: arr(httpUrl(), { maxItems: 20 }),
    hashtags: strings(50, 100),
    tags: strings(50, 100),
    location: str(300),
    title: str(300),
    thread_content: strings(25, 2000),
  },
  [],
);
export const metadataIn = withRequired(
  {
    priority: { type: 'string', enum: ['low', 'medium', 'high', 'urgent'] },
    campaign_id: str(100),
    assigned_to: str(100),
    approval_required: bool,
    ai_generated: bool,
  },
  [],
);

export const eventCreateBody = withRequired(
  {
    title: text(300),
    description: str(5000),
    content_type: contentType,
    platform,
    scheduled_at: iso,
    duration: { type: 'integer', minimum: 0, maximum: 10080 },
    content: contentIn,
    metadata: metadataIn,
    status: { type: 'string', enum: ['draft', 'scheduled'] },
  },
  ['title', 'content_type', 'platform'],
);

export const eventPatchBody = withRequired(
  {
    title: text(300),
    description: str(5000),
    content_type: contentType,
    platform,
    scheduled_at: orNull(iso),
    duration: { type: 'integer', minimum: 0, maximum: 10080 },
    content: contentIn,
    metadata: metadataIn,
    status: eventStatus,
  },
  [],
);

const strArray = arr(anyString);
const nullableString = { type: ['string', 'null'] };

/**
 * An event's last approval decision (POST .../approve, or PATCH status approved). Its time is decided_at in the
 * projection's answer; an answer folded from the event's stream (the projection not caught up yet) names it at.
 */
export const approvalOut = withRequired(
  {
    approved: bool,
    comments: anyString,
    approver_id: anyString,
    approver_label: { ...nullableString, description: 'The free-text approved_by the client sent, if any' },
    decided_at: { ...iso, description: 'When the decision was recorded' },
  },
  ['approved', 'comments', 'approver_id', 'approver_label', 'decided_at'],
);
/** How a published event was published (null until published). */
export const publicationOut = allRequired({
  mode: {
    type: 'string',
    enum: ['local', 'platform'],
    description: 'local: no platform adapter configured, marked published here; platform: sent through its adapter',
  },
  external_id: { ...nullableString, description: "The post's id on the platform (platform mode)" },
  published_by: { type: 'string', description: 'timer, or the user id of a manual publish' },
  schedule_id: { ...nullableString, description: 'The timer that published it (null for a manual publish)' },
});
/**
 * Why the last publication failed for good (null unless the event is failed). Its time is failed_at in the
 * projection's answer; an answer folded from the event's stream names it at.
 */
export const failureOut = withRequired(
  {
    code: anyString,
    reason: anyString,
    failed_at: { ...iso, description: 'When the failure was recorded' },
  },
  ['code', 'reason', 'failed_at'],
);

/** A campaign's budget as the client set it (platforms only when given). */
export const budgetOut = withRequired({ amount: num, currency: anyString, platforms: arr(platform) }, [
  'amount',
  'currency',
]);
const milestoneOut = allRequired({ date: dateOnly, name: anyString });
/** A campaign's timeline as the client set it (milestones [] when the client gave none). */
export const timelineOut = allRequired({ start_date: dateOnly, end_date: dateOnly, milestones: arr(milestoneOut) });
/** A campaign's content strategy as the client set it (each field only when given). */
export const contentStrategyOut = withRequired(
  {
    pillars: strArray,
    content_mix: mapOf(num, { description: 'Target share (%) by content type' }),
  },
  [],
);

/** The five permission flags of a member (all of them, each true or false). */
export const permissionsOut = allRequired(Object.fromEntries(PERMISSION_NAMES.map((p) => [p, bool])));

/** What an estimate of the timing model rests on (api/calendar/model.ts basisOf). */
export const basisOut = withRequired(
  {
    model: anyString,
    description: anyString,
    platform: anyString,
    slot: allRequired({ day_of_week: anyString, hour: int, timezone: anyString }),
    audience_timezones: {
      type: ['object', 'null'],
      additionalProperties: { type: 'number' },
      description: "recorded audience zones (shares) the hour prior followed; null: the calendar's zone",
    },
    observations: int,
    prior_weight: num,
    confidence: num,
  },
  ['model', 'description', 'platform', 'slot', 'observations', 'prior_weight', 'confidence'],
);
/** estimated_performance of a generated post: the timing model's expectation for its slot. */
export const estimatedOut = allRequired({
  engagement_rate: num,
  reach_potential: { type: 'string', enum: ['low', 'medium', 'high'] },
  expected_reach: int,
  basis: basisOut,
});

/**
 * An event's content: the fields the client sent (contentIn), and for generated events title, thread_content,
 * hashtags, caption (the thread joined) and estimated_performance. Empty for events smart scheduling created.
 */
export const contentOut = withRequired(
  {
    caption: anyString,
    media_urls: strArray,
    hashtags: strArray,
    tags: strArray,
    location: anyString,
    title: anyString,
    thread_content: strArray,
    estimated_performance: estimatedOut,
  },
  [],
);

/**
 * An event's metadata: the fields the client sent (metadataIn; PATCH merges them), and what the platform adds to the
 * events it creates: generation (AI events), series_id, series_title, series_index (series), smart_scheduled and
 * original_id (smart scheduling with apply).
 */
export const metadataOut = withRequired(
  {
    priority: anyString,
    campaign_id: anyString,
    assigned_to: anyString,
    approval_required: bool,
    ai_generated: bool,
    generation: allRequired({ provider: anyString, model: anyString, offline: bool }),
    series_id: anyString,
    series_title: anyString,
    series_index: int,
    smart_scheduled: bool,
    original_id: anyString,
  },
  [],
);

const perResult = { type: ['number', 'null'], description: 'null without a recorded result' };
/** Campaign performance's budget: the budget amount per recorded result (spend is not tracked). */
export const budgetPerformanceOut = allRequired({
  amount: num,
  currency: anyString,
  per_engagement: perResult,
  per_click: perResult,
  per_thousand_impressions: perResult,
  basis: anyString,
});
/** Campaign performance's timeline: elapsed share (local dates of the calendar's zone) against published share. */
export const timelinePerformanceOut = allRequired({
  start_date: dateOnly,
  end_date: dateOnly,
  days_total: int,
  days_elapsed: num,
  elapsed_fraction: num,
  published_fraction: num,
  pacing: { type: 'string', enum: ['not_started', 'ended', 'ahead', 'on_track', 'behind'] },
  milestones: arr(
    allRequired({
      date: dateOnly,
      name: anyString,
      status: { type: 'string', enum: ['passed', 'today', 'upcoming'] },
      events_due_before: { ...int, description: 'Events not cancelled scheduled on or before the milestone date' },
    }),
  ),
});

export const eventOut = allRequired({
  id: { type: 'string' },
  calendar_id: { type: 'string' },
  title: { type: 'string' },
  description: { type: 'string' },
  content_type: { type: 'string' },
  platform: { type: 'string' },
  status: { type: 'string' },
  scheduled_at: { type: ['string', 'null'], format: 'date-time' },
  duration: int,
  content: contentOut,
  metadata: metadataOut,
  performance: orNull(allRequired({ impressions: int, engagements: int, clicks: int })),
  approval: orNull(approvalOut),
  published_at: { type: ['string', 'null'], format: 'date-time' },
  publication: orNull(publicationOut),
  failure: orNull(failureOut),
  created_by: { type: 'string' },
  created_at: iso,
  updated_at: iso,
});

export const calendarOut = allRequired({
  id: { type: 'string' },
  name: { type: 'string' },
  description: { type: 'string' },
  timezone: { type: 'string' },
  owner_id: { type: 'string' },
  team_id: { type: ['string', 'null'] },
  settings: settingsOut,
  status: { type: 'string', enum: ['active', 'archived'] },
  events_count: int,
  upcoming_events: int,
  role: { type: 'string' },
  permissions: permissionsOut,
  created_at: iso,
  updated_at: iso,
});

export const paging = (max: number, dflt: number) => ({
  limit: { type: 'integer', minimum: 1, maximum: max, default: dflt },
  offset: { type: 'integer', minimum: 0, maximum: 1000000, default: 0 },
});

export const listOut = (key: string, item: Record<string, unknown>) =>
  allRequired({ [key]: arr(item), total: int, limit: int, offset: int });

export const performanceIn = withRequired(
  {
    impressions: { type: 'integer', minimum: 0, maximum: 1e12 },
    reach: { type: 'integer', minimum: 0, maximum: 1e12 },
    engagements: { type: 'integer', minimum: 0, maximum: 1e12 },
    likes: { type: 'integer', minimum: 0, maximum: 1e12 },
    comments: { type: 'integer', minimum: 0, maximum: 1e12 },
    shares: { type: 'integer', minimum: 0, maximum: 1e12 },
    saves: { type: 'integer', minimum: 0, maximum: 1e12 },
    clicks: { type: 'integer', minimum: 0, maximum: 1e12 },
    measured_at: iso,
    audience_segment: str(100),
    audience: withRequired(
      {
        demographics: {
          type: 'object',
          additionalProperties: { type: 'number', minimum: 0, maximum: 1 },
          maxProperties: 50,
        },
        top_cities: arr(allRequired({ city: text(100), share: { type: 'number', minimum: 0, maximum: 1 } }), {
          maxItems: 20,
        }),
        timezones: {
          type: 'object',
          additionalProperties: { type: 'number', minimum: 0, maximum: 1 },
          maxProperties: 50,
        },
      },
      [],
    ),
  },
  ['impressions'],
);
