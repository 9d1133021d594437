/** JSON Schemas of the backlink outreach routes (requests and responses), one place for the area. */
import { LEAD_STATES, REPLY_CLASSES } from '../../domain/events/outreach';
import { LEGAL_BASES } from '../../domain/outreach/legal';
import {
  allRequired,
  arr,
  bool,
  httpUrl,
  int,
  iso,
  nullableIso,
  num,
  params,
  str,
  strings,
  text,
  uuid,
  withRequired,
} from '../kernel/schema';

export const BASE = '/api/v1/backlink-outreach';
export const tags = ['backlink outreach'];

export const workspaceId = str(100, { pattern: '^[A-Za-z0-9._:@-]+$', minLength: 1 });
const score = { type: 'number', minimum: 0, maximum: 1 };
const nullableScore = { type: ['number', 'null'], minimum: 0, maximum: 1 };
const nullableStr = { type: ['string', 'null'] };
export const email = str(254, { format: 'email' });
export const leadStatus = { enum: [...LEAD_STATES] };

export const campaignIdParams = params({ campaign_id: uuid });
export const idParams = params({ id: uuid });
export const leadParams = params({ id: uuid, lead_id: uuid });
export const templateParams = params({ template_id: uuid });

/** A name that is stored trimmed: at least one character that is not white space. */
const nameText = text(200, { pattern: '\\S' });

export const campaignBody = withRequired(
  {
    name: nameText,
    description: str(2000),
    keywords: strings(50, 200),
    workspace_id: { ...workspaceId, description: 'default: the caller’s user id' },
    follow_up_days: {
      type: 'array',
      items: { type: 'number', exclusiveMinimum: 0, maximum: 90 },
      maxItems: 5,
      description:
        'Days after the first send when a follow-up goes out while the lead is still `contacted` (default [3, 7]; fractions allowed, e.g. 0.5 = 12 h; [] = no follow-ups)',
    },
  },
  ['name'],
);

export const campaignSchema = allRequired({
  id: { type: 'string' },
  user_id: { type: 'string' },
  workspace_id: { type: 'string' },
  name: { type: 'string' },
  description: nullableStr,
  keywords: arr(),
  follow_up_days: arr(num),
  status: { const: 'active' },
  leads_count: int,
  created_at: iso,
  updated_at: iso,
});

export const leadBody = withRequired(
  {
    website_url: httpUrl(),
    website_title: str(500),
    contact_email: email,
    quality_score: score,
    relevance_score: score,
    guest_post_likelihood: score,
    source: str(100),
    legal_basis: {
      enum: Object.keys(LEGAL_BASES),
      description: 'GDPR Art. 6 basis of contacting this lead (default legitimate_interest)',
    },
  },
  ['website_url'],
);

export const leadSchema = allRequired({
  id: { type: 'string' },
  campaign_id: { type: 'string' },
  website_url: { type: 'string' },
  website_title: nullableStr,
  contact_email: nullableStr,
  quality_score: nullableScore,
  relevance_score: nullableScore,
  guest_post_likelihood: nullableScore,
  source: { type: 'string' },
  legal_basis: { type: 'string' },
  status: leadStatus,
  status_changed_at: iso,
  created_at: iso,
});

export const campaignWithLeads = allRequired({ ...campaignSchema.properties, leads: arr(leadSchema) });

export const templateBody = withRequired(
  { name: nameText, subject: text(500), body: text(20000), category: str(100) },
  ['name', 'subject', 'body'],
);
export const templateSchema = allRequired({
  id: { type: 'string' },
  name: { type: 'string' },
  subject: { type: 'string' },
  body: { type: 'string' },
  category: nullableStr,
  placeholders: arr(),
  created_at: iso,
});

export const attemptSchema = allRequired({
  id: { type: 'string' },
  campaign_id: { type: 'string' },
  lead_id: { type: 'string' },
  workspace_id: { type: 'string' },
  kind: { enum: ['initial', 'follow_up'] },
  follow_up_of: nullableStr,
  step: { type: ['integer', 'null'] },
  recipient: { type: 'string' },
  sender: { type: 'string' },
  subject: { type: 'string' },
  status: { enum: ['sent', 'refused', 'failed'] },
  reason: nullableStr,
  message_id: nullableStr,
  legal_basis: nullableStr,
  recovered: bool,
  sent_at: nullableIso,
  created_at: iso,
});

export const followUpSchema = allRequired({
  id: { type: 'string' },
  follow_up_of: { type: 'string' },
  step: int,
  campaign_id: { type: 'string' },
  lead_id: { type: 'string' },
  due_at: iso,
  status: { enum: ['scheduled', 'sent', 'refused', 'failed', 'stopped'] },
  attempt_id: nullableStr,
  reason: nullableStr,
  updated_at: iso,
});

export const replySchema = allRequired({
  id: { type: 'string' },
  campaign_id: { type: 'string' },
  lead_id: { type: 'string' },
  attempt_id: { type: 'string' },
  message_id: { type: 'string' },
  from: { type: 'string' },
  subject: { type: 'string' },
  kind: { enum: ['reply', 'auto_reply', 'bounce'] },
  classification: { enum: [...REPLY_CLASSES] },
  confidence: num,
  signals: arr(),
  snippet: { type: 'string' },
  bounce_status: nullableStr,
  received_at: iso,
});

export const suppressionSchema = allRequired({
  email: { type: 'string', description: 'an address, or @domain for a whole domain' },
  kind: { enum: ['address', 'domain'] },
  workspace_id: { type: 'string' },
  reason: nullableStr,
  source: { enum: ['manual', 'unsubscribe_reply', 'unsubscribe_link', 'bounce'] },
  created_at: iso,
});

const counts = allRequired({
  sender_today: int,
  recipient_domain_today: int,
  same_subject_in_window: int,
});
const limits = allRequired({
  sender_daily_cap: int,
  recipient_domain_daily_cap: int,
  warmup_day: { type: ['integer', 'null'] },
  idempotency_window_hours: num,
});
export const policyResultSchema = allRequired({
  allowed: bool,
  reason: nullableStr,
  legal_basis: { type: 'string' },
  counts,
  limits,
});

/** AI metadata of the email writing routes: which provider wrote the text and whether it was offline. */
export const writingMetadata = withRequired(
  {
    provider: { type: 'string' },
    model: { type: 'string' },
    offline: bool,
    method: { type: 'string' },
  },
  ['provider', 'model', 'offline', 'method'],
);
