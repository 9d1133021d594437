/**
 * Backlink outreach read model, part 1: campaigns, their leads and email
 * templates. Campaign and lead rows are written only by the events of the
 * campaign's stream, template rows by the template's stream. Serves the
 * campaign, lead and template routes of /api/v1/backlink-outreach.
 */
import type { Knex } from 'knex';
import type { LeadStatus } from '../domain/events/outreach';
import { Change, defineProjection } from './framework';

const C = 'outreach_campaigns';
const L = 'outreach_leads';
const T = 'outreach_templates';

export const outreachProjection = defineProjection({
  name: 'outreach',
  migrationName: '0120_projection_outreach',
  areas: ['outreach'],
  tables: [C, L, T],
  keys: { [C]: ['campaign_id'], [L]: ['lead_id'], [T]: ['template_id'] },
  async createTables(knex, name) {
    await knex.schema.createTable(name(C), (t) => {
      t.text('campaign_id').primary();
      t.text('user_id').notNullable();
      t.text('workspace_id').notNullable();
      t.text('name').notNullable();
      t.text('description');
      t.jsonb('keywords').notNullable();
      t.jsonb('follow_up_days').notNullable();
      t.boolean('deleted').notNullable().defaultTo(false);
      t.integer('leads_count').notNullable().defaultTo(0);
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.index(['user_id', 'workspace_id']);
    });
    await knex.schema.createTable(name(L), (t) => {
      t.text('lead_id').primary();
      t.text('campaign_id').notNullable().index();
      t.text('user_id').notNullable();
      t.text('website_url').notNullable();
      t.text('normalized_url').notNullable();
      t.text('website_title');
      t.text('contact_email');
      t.double('quality_score');
      t.double('relevance_score');
      t.double('guest_post_likelihood');
      t.text('source').notNullable();
      t.text('legal_basis').notNullable();
      // Position of the lead in its campaign's stream: leads added together keep the order they were sent in.
      t.integer('seq').notNullable();
      t.text('status').notNullable();
      t.timestamp('status_changed_at', { useTz: true }).notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
    });
    await knex.schema.createTable(name(T), (t) => {
      t.text('template_id').primary();
      t.text('user_id').notNullable().index();
      t.text('name').notNullable();
      t.text('subject').notNullable();
      t.text('body').notNullable();
      t.text('category');
      t.jsonb('placeholders').notNullable();
      t.boolean('deleted').notNullable().defaultTo(false);
      t.timestamp('created_at', { useTz: true }).notNullable();
    });
  },
  handlers: {
    OutreachCampaignCreated: (e) => [
      {
        op: 'upsert',
        table: C,
        key: { campaign_id: e.data.campaign_id },
        insert: {
          user_id: e.data.user_id,
          workspace_id: e.data.workspace_id,
          name: e.data.name,
          description: e.data.description,
          keywords: e.data.keywords,
          follow_up_days: e.data.follow_up_days,
          created_at: e.recordedAt,
          updated_at: e.recordedAt,
        },
      },
    ],
    OutreachCampaignDeleted: (e) => [
      {
        op: 'update',
        table: C,
        key: { campaign_id: e.data.campaign_id },
        set: { deleted: true, updated_at: e.recordedAt },
      },
    ],
    OutreachLeadAdded: (e): Change[] => [
      {
        op: 'upsert',
        table: L,
        key: { lead_id: e.data.lead_id },
        insert: {
          campaign_id: e.data.campaign_id,
          user_id: e.data.user_id,
          website_url: e.data.website_url,
          normalized_url: e.data.normalized_url,
          website_title: e.data.website_title,
          contact_email: e.data.contact_email,
          quality_score: e.data.quality_score,
          relevance_score: e.data.relevance_score,
          guest_post_likelihood: e.data.guest_post_likelihood,
          source: e.data.source,
          legal_basis: e.data.legal_basis,
          seq: e.streamPosition,
          status: 'discovered',
          status_changed_at: e.recordedAt,
          created_at: e.recordedAt,
        },
      },
      {
        op: 'update',
        table: C,
        key: { campaign_id: e.data.campaign_id },
        set: { leads_count: { $inc: 1 }, updated_at: e.recordedAt },
      },
    ],
    OutreachLeadStatusChanged: (e) => [
      {
        op: 'update',
        table: L,
        key: { lead_id: e.data.lead_id },
        set: { status: e.data.to, status_changed_at: e.recordedAt },
      },
    ],
    OutreachTemplateCreated: (e) => [
      {
        op: 'upsert',
        table: T,
        key: { template_id: e.data.template_id },
        insert: {
          user_id: e.data.user_id,
          name: e.data.name,
          subject: e.data.subject,
          body: e.data.body,
          category: e.data.category,
          placeholders: e.data.placeholders,
          created_at: e.recordedAt,
        },
      },
    ],
    OutreachTemplateDeleted: (e) => [
      { op: 'update', table: T, key: { template_id: e.data.template_id }, set: { deleted: true } },
    ],
  },
});

const iso = (v: unknown) => new Date(v as string).toISOString();
const numOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

export interface CampaignRecord {
  id: string;
  user_id: string;
  workspace_id: string;
  name: string;
  description: string | null;
  keywords: string[];
  follow_up_days: number[];
  leads_count: number;
  created_at: string;
  updated_at: string;
}

export interface LeadRecord {
  id: string;
  campaign_id: string;
  website_url: string;
  website_title: string | null;
  contact_email: string | null;
  quality_score: number | null;
  relevance_score: number | null;
  guest_post_likelihood: number | null;
  source: string;
  legal_basis: string;
  status: LeadStatus;
  status_changed_at: string;
  created_at: string;
}

export interface TemplateRecord {
  id: string;
  name: string;
  subject: string;
  body: string;
  category: string | null;
  placeholders: string[];
  created_at: string;
}

const toCampaign = (r: Record<string, unknown>): CampaignRecord => ({
  id: r.campaign_id as string,
  user_id: r.user_id as string,
  workspace_id: r.workspace_id as string,
  name: r.name as string,
  description: (r.description as string | null) ?? null,
  keywords: r.keywords as string[],
  follow_up_days: r.follow_up_days as number[],
  leads_count: Number(r.leads_count),
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
});

export const toLead = (r: Record<string, unknown>): LeadRecord => ({
  id: r.lead_id as string,
  campaign_id: r.campaign_id as string,
  website_url: r.website_url as string,
  website_title: (r.website_title as string | null) ?? null,
  contact_email: (r.contact_email as string | null) ?? null,
  quality_score: numOrNull(r.quality_score),
  relevance_score: numOrNull(r.relevance_score),
  guest_post_likelihood: numOrNull(r.guest_post_likelihood),
  source: r.source as string,
  legal_basis: r.legal_basis as string,
  status: r.status as LeadStatus,
  status_changed_at: iso(r.status_changed_at),
  created_at: iso(r.created_at),
});

const toTemplate = (r: Record<string, unknown>): TemplateRecord => ({
  id: r.template_id as string,
  name: r.name as string,
  subject: r.subject as string,
  body: r.body as string,
  category: (r.category as string | null) ?? null,
  placeholders: r.placeholders as string[],
  created_at: iso(r.created_at),
});

/** Read query: the user's live campaigns of a workspace, newest first. */
export async function listCampaigns(db: Knex, userId: string, workspaceId: string): Promise<CampaignRecord[]> {
  const rows = await db(C)
    .where({ user_id: userId, workspace_id: workspaceId, deleted: false })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'campaign_id', order: 'asc' },
    ]);
  return rows.map(toCampaign);
}

/** Read query: one live campaign of the user, or undefined (another user's campaign is the same as none). */
export async function getCampaign(db: Knex, userId: string, campaignId: string): Promise<CampaignRecord | undefined> {
  const r = await db(C).where({ campaign_id: campaignId, user_id: userId, deleted: false }).first();
  return r ? toCampaign(r) : undefined;
}

/** Read query: the leads of a campaign, oldest first. */
export async function listLeads(db: Knex, campaignId: string): Promise<LeadRecord[]> {
  const rows = await db(L)
    .where({ campaign_id: campaignId })
    .orderBy([{ column: 'seq' }]);
  return rows.map(toLead);
}

export async function getLead(db: Knex, campaignId: string, leadId: string): Promise<LeadRecord | undefined> {
  const r = await db(L).where({ campaign_id: campaignId, lead_id: leadId }).first();
  return r ? toLead(r) : undefined;
}

/** Read query: leads by status of a campaign (analytics). */
export async function leadsByStatus(db: Knex, campaignIds: string[]): Promise<Record<string, number>> {
  const rows = campaignIds.length
    ? await db(L).whereIn('campaign_id', campaignIds).select('status').count({ n: '*' }).groupBy('status')
    : [];
  return Object.fromEntries((rows as Record<string, unknown>[]).map((r) => [r.status as string, Number(r.n)]));
}

/** Read query: every live campaign id of the user (all workspaces). */
export async function campaignIdsOf(db: Knex, userId: string): Promise<string[]> {
  return (await db(C).where({ user_id: userId, deleted: false }).select('campaign_id')).map((r) => r.campaign_id);
}

export async function listTemplates(db: Knex, userId: string): Promise<TemplateRecord[]> {
  const rows = await db(T)
    .where({ user_id: userId, deleted: false })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'template_id', order: 'asc' },
    ]);
  return rows.map(toTemplate);
}

export async function getTemplate(db: Knex, userId: string, templateId: string): Promise<TemplateRecord | undefined> {
  const r = await db(T).where({ template_id: templateId, user_id: userId, deleted: false }).first();
  return r ? toTemplate(r) : undefined;
}
