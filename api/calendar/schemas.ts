/**
 * JSON Schemas of the calendar routes' requests and responses (Document 3
 * field names). Every string and array is bounded; every URL is httpUrl().
 */
import { arr, bool, httpUrl, int, iso, num, obj, str, strings, text, uuid } from '../kernel/schema';
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
export const nullable = (s: object) => ({ anyOf: [s, { type: 'null' }] });

export const settingsIn = obj(
  {
    default_platform: platform,
    working_hours: obj({ start: hhmm, end: hhmm }, []),
    auto_publish: bool,
    approval_workflow: bool,
  },
  [],
);
export const settingsOut = obj({
  default_platform: { type: 'string' },
  working_hours: obj({ start: { type: 'string' }, end: { type: 'string' } }),
  auto_publish: bool,
  approval_workflow: bool,
});

export const calendarParams = obj({ calendar_id: uuid });
export const eventParams = obj({ calendar_id: uuid, event_id: uuid });
export const campaignParams = obj({ calendar_id: uuid, campaign_id: uuid });

export const contentIn = obj(
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
export const metadataIn = obj(
  {
    priority: { type: 'string', enum: ['low', 'medium', 'high', 'urgent'] },
    campaign_id: str(100),
    assigned_to: str(100),
    approval_required: bool,
    ai_generated: bool,
  },
  [],
);

export const eventCreateBody = obj(
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

export const eventPatchBody = obj(
  {
    title: text(300),
    description: str(5000),
    content_type: contentType,
    platform,
    scheduled_at: nullable(iso),
    duration: { type: 'integer', minimum: 0, maximum: 10080 },
    content: contentIn,
    metadata: metadataIn,
    status: eventStatus,
  },
  [],
);

const anyObject = { type: 'object' };
const nullableObject = { type: ['object', 'null'] };

export const eventOut = obj({
  id: { type: 'string' },
  calendar_id: { type: 'string' },
  title: { type: 'string' },
  description: { type: 'string' },
  content_type: { type: 'string' },
  platform: { type: 'string' },
  status: { type: 'string' },
  scheduled_at: { type: ['string', 'null'], format: 'date-time' },
  duration: int,
  content: anyObject,
  metadata: anyObject,
  performance: nullable(obj({ impressions: int, engagements: int, clicks: int })),
  approval: nullableObject,
  published_at: { type: ['string', 'null'], format: 'date-time' },
  publication: nullableObject,
  failure: nullableObject,
  created_by: { type: 'string' },
  created_at: iso,
  updated_at: iso,
});

export const calendarOut = obj({
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
  permissions: obj(Object.fromEntries(PERMISSION_NAMES.map((p) => [p, bool]))),
  created_at: iso,
  updated_at: iso,
});

export const paging = (max: number, dflt: number) => ({
  limit: { type: 'integer', minimum: 1, maximum: max, default: dflt },
  offset: { type: 'integer', minimum: 0, maximum: 1000000, default: 0 },
});

export const listOut = (key: string, item: Record<string, unknown>) =>
  obj({ [key]: arr(item), total: int, limit: int, offset: int });

export const performanceIn = obj(
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
    audience: obj(
      {
        demographics: {
          type: 'object',
          additionalProperties: { type: 'number', minimum: 0, maximum: 1 },
          maxProperties: 50,
        },
        top_cities: arr(obj({ city: text(100), share: { type: 'number', minimum: 0, maximum: 1 } }), { maxItems: 20 }),
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

export { num, uuid, text, str, strings, obj, arr, bool, int, iso, httpUrl };
