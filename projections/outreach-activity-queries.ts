/**
 * Read queries over the backlink outreach activity read model
 * (projections/outreach-activity.ts): send attempts, follow-up steps, replies,
 * suppression entries, and the counts of analytics, snapshot and CSV exports.
 */
import type { Knex } from 'knex';
import { A, F, R, S } from './outreach-activity';

const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string).toISOString());

export interface AttemptRecord {
  id: string;
  campaign_id: string;
  lead_id: string;
  workspace_id: string;
  kind: string;
  follow_up_of: string | null;
  step: number | null;
  recipient: string;
  sender: string;
  subject: string;
  status: string;
  reason: string | null;
  message_id: string | null;
  legal_basis: string | null;
  recovered: boolean;
  sent_at: string | null;
  created_at: string;
}

export const toAttempt = (r: Record<string, unknown>): AttemptRecord => ({
  id: r.attempt_id as string,
  campaign_id: r.campaign_id as string,
  lead_id: r.lead_id as string,
  workspace_id: r.workspace_id as string,
  kind: r.kind as string,
  follow_up_of: (r.follow_up_of as string | null) ?? null,
  step: r.step === null || r.step === undefined ? null : Number(r.step),
  recipient: r.recipient as string,
  sender: r.sender as string,
  subject: r.subject as string,
  status: r.status as string,
  reason: (r.reason as string | null) ?? null,
  message_id: (r.message_id as string | null) ?? null,
  legal_basis: (r.legal_basis as string | null) ?? null,
  recovered: Boolean(r.recovered),
  sent_at: iso(r.sent_at),
  created_at: iso(r.created_at)!,
});

export async function listAttempts(db: Knex, campaignId: string): Promise<AttemptRecord[]> {
  const rows = await db(A)
    .where({ campaign_id: campaignId })
    .orderBy([{ column: 'created_at' }, { column: 'attempt_id' }]);
  return rows.map(toAttempt);
}

export async function getAttempt(db: Knex, userId: string, attemptId: string): Promise<AttemptRecord | undefined> {
  const r = await db(A).where({ attempt_id: attemptId, user_id: userId }).first();
  return r ? toAttempt(r) : undefined;
}

export interface FollowUpRecord {
  id: string;
  follow_up_of: string;
  step: number;
  campaign_id: string;
  lead_id: string;
  due_at: string;
  status: string;
  attempt_id: string | null;
  reason: string | null;
  updated_at: string;
}

export async function listFollowUps(db: Knex, campaignId: string): Promise<FollowUpRecord[]> {
  const rows = await db(F)
    .where({ campaign_id: campaignId })
    .orderBy([{ column: 'due_at' }, { column: 'follow_up_id' }, { column: 'step' }]);
  return rows.map((r) => ({
    id: `${r.follow_up_id}:${r.step}`,
    follow_up_of: r.follow_up_id,
    step: Number(r.step),
    campaign_id: r.campaign_id,
    lead_id: r.lead_id,
    due_at: iso(r.due_at)!,
    status: r.status,
    attempt_id: r.attempt_id ?? null,
    reason: r.reason ?? null,
    updated_at: iso(r.updated_at)!,
  }));
}

/** Read query: first sends of these leads whose follow-ups still wait (to stop them on a manual status change). */
export async function waitingFollowUps(db: Knex, campaignId: string, leadIds: string[]): Promise<string[]> {
  if (!leadIds.length) return [];
  const rows = await db(F)
    .where({ campaign_id: campaignId, status: 'scheduled' })
    .whereIn('lead_id', leadIds)
    .distinct('follow_up_id');
  return rows.map((r) => r.follow_up_id as string);
}

/**
 * Follow-ups (ids) still waiting to send to a suppression entry of a user's workspace: to an address, or to any
 * address of an `@domain`. A follow-up's id is its first send's attempt id, which names the recipient.
 */
export async function waitingFollowUpsTo(
  db: Knex,
  userId: string,
  workspaceId: string,
  entry: string,
): Promise<string[]> {
  const e = entry.trim().toLowerCase();
  const q = db(`${F} as f`)
    .join(`${A} as a`, 'a.attempt_id', 'f.follow_up_id')
    .where({ 'f.user_id': userId, 'f.status': 'scheduled', 'a.user_id': userId, 'a.workspace_id': workspaceId })
    .distinct('f.follow_up_id');
  if (e.startsWith('@')) q.whereRaw('lower(a.recipient) like ?', [`%${e.replace(/[\\%_]/g, (c) => `\\${c}`)}`]);
  else q.whereRaw('lower(a.recipient) = ?', [e]);
  return (await q).map((r) => r.follow_up_id as string);
}

export interface ReplyRecord {
  id: string;
  campaign_id: string;
  lead_id: string;
  attempt_id: string;
  message_id: string;
  from: string;
  subject: string;
  kind: string;
  classification: string;
  confidence: number;
  signals: string[];
  snippet: string;
  bounce_status: string | null;
  received_at: string;
}

export async function listReplies(db: Knex, campaignId: string): Promise<ReplyRecord[]> {
  const rows = await db(R)
    .where({ campaign_id: campaignId })
    .orderBy([{ column: 'received_at' }, { column: 'reply_id' }]);
  return rows.map((r) => ({
    id: r.reply_id,
    campaign_id: r.campaign_id,
    lead_id: r.lead_id,
    attempt_id: r.attempt_id,
    message_id: r.message_id,
    from: r.from_address,
    subject: r.subject,
    kind: r.kind,
    classification: r.classification,
    confidence: Number(r.confidence),
    signals: r.signals,
    snippet: r.snippet,
    bounce_status: r.bounce_status ?? null,
    received_at: iso(r.received_at)!,
  }));
}

export interface SuppressionRecord {
  email: string;
  kind: string;
  workspace_id: string;
  reason: string | null;
  source: string;
  created_at: string;
}

export async function listSuppressions(db: Knex, userId: string, workspaceId: string): Promise<SuppressionRecord[]> {
  const rows = await db(S)
    .where({ user_id: userId, workspace_id: workspaceId })
    .orderBy([{ column: 'created_at' }, { column: 'entry' }]);
  return rows.map((r) => ({
    email: r.entry,
    kind: r.kind,
    workspace_id: r.workspace_id,
    reason: r.reason ?? null,
    source: r.source,
    created_at: iso(r.created_at)!,
  }));
}

/** Sends per UTC day (status sent) of these campaigns since `since` (analytics). */
export async function dailySends(db: Knex, campaignIds: string[], since: Date): Promise<Record<string, number>> {
  if (!campaignIds.length) return {};
  const rows = await db(A)
    .whereIn('campaign_id', campaignIds)
    .andWhere({ status: 'sent' })
    .andWhere('sent_at', '>=', since.toISOString())
    .select(db.raw(`to_char(sent_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day`))
    .count({ n: '*' })
    .groupByRaw('1');
  return Object.fromEntries((rows as Record<string, unknown>[]).map((r) => [r.day as string, Number(r.n)]));
}

/** Attempts by status and replies by classification of these campaigns since `since` (analytics, snapshot). */
export async function activityCounts(
  db: Knex,
  campaignIds: string[],
  since?: Date,
): Promise<{
  attempts: Record<string, number>;
  replies: Record<string, number>;
  repliedLeads: number;
  emailedLeads: number;
}> {
  if (!campaignIds.length) return { attempts: {}, replies: {}, repliedLeads: 0, emailedLeads: 0 };
  const a = db(A).whereIn('campaign_id', campaignIds);
  const r = db(R).whereIn('campaign_id', campaignIds);
  if (since) {
    a.andWhere('created_at', '>=', since.toISOString());
    r.andWhere('received_at', '>=', since.toISOString());
  }
  const [attempts, replies, replied, emailed] = await Promise.all([
    a.clone().select('status').count({ n: '*' }).groupBy('status'),
    r.clone().select('classification').count({ n: '*' }).groupBy('classification'),
    r.clone().where({ kind: 'reply' }).countDistinct({ n: 'lead_id' }),
    a.clone().where({ status: 'sent' }).countDistinct({ n: 'lead_id' }),
  ]);
  return {
    attempts: Object.fromEntries((attempts as Record<string, unknown>[]).map((x) => [x.status as string, Number(x.n)])),
    replies: Object.fromEntries(
      (replies as Record<string, unknown>[]).map((x) => [x.classification as string, Number(x.n)]),
    ),
    repliedLeads: Number(replied[0]?.n ?? 0),
    emailedLeads: Number(emailed[0]?.n ?? 0),
  };
}

/** Rows of a table for a campaign export, oldest first (attempts or replies). */
export async function exportRows(db: Knex, table: 'attempts' | 'replies', campaignId: string) {
  if (table === 'attempts') return listAttempts(db, campaignId);
  return listReplies(db, campaignId);
}
