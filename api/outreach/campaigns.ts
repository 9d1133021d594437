/**
 * Campaigns and leads (Document 3, backlink outreach table rows 1-8). Writes
 * are decided on the campaign's stream; reads come from the `outreach`
 * projection after the write settled. Identity is the session's user; another
 * user's campaign is 404.
 */
import { randomUUID } from 'node:crypto';
import { ConflictError, NotFoundError, ValidationError } from '../../domain/errors';
import type { LeadStatus } from '../../domain/events/outreach';
import { parseLead } from '../../domain/outreach/leads';
import type { NewLead } from '../../domain/outreach/campaign';
import { leadKey } from '../../domain/outreach/normalize';
import { getCampaign, getLead, listCampaigns, listLeads, CampaignRecord } from '../../projections/outreach';
import { waitingFollowUps } from '../../projections/outreach-activity-queries';
import { defineRoute, RouteDef } from '../kernel/registry';
import { requestMeta, settle, userIdOf } from '../kernel/handler';
import { cancelWorkflow } from '../kernel/workflows';
import type { RouteCtx } from '../kernel/types';
import { allRequired, arr, int, withRequired } from '../kernel/schema';
import { runCampaignCommand } from './commands';
import {
  BASE,
  campaignBody,
  campaignIdParams,
  campaignSchema,
  campaignWithLeads,
  idParams,
  leadBody,
  leadParams,
  leadSchema,
  leadStatus,
  tags,
  workspaceId,
} from './schemas';

/** Follow-up schedule of a campaign that does not name one: day 3 and day 7 after the first send. */
export const DEFAULT_FOLLOW_UP_DAYS = [3, 7];
/** Largest bulk add. */
export const MAX_BULK_LEADS = 1000;

type Ctx = RouteCtx;

export const campaignView = (c: CampaignRecord) => ({
  id: c.id,
  user_id: c.user_id,
  workspace_id: c.workspace_id,
  name: c.name,
  description: c.description,
  keywords: c.keywords,
  follow_up_days: c.follow_up_days,
  status: 'active' as const,
  leads_count: c.leads_count,
  created_at: c.created_at,
  updated_at: c.updated_at,
});

/** The caller's campaign from the projection, or 404. */
export async function ownCampaign(ctx: Ctx, campaignId: string): Promise<CampaignRecord> {
  const c = await getCampaign(ctx.deps.db, userIdOf(ctx), campaignId);
  if (!c) throw new NotFoundError('Campaign not found');
  return c;
}

/**
 * Stops the waiting follow-ups of these leads at once (a manual status change or a deleted campaign): their
 * workflows are cancelled and record why. Best effort: a follow-up also checks the lead before each send.
 */
async function stopFollowUps(ctx: Ctx, campaignId: string, leadIds: string[]): Promise<void> {
  if (!ctx.deps.workflows) return;
  await cancelFollowUps(ctx, await waitingFollowUps(ctx.deps.db, campaignId, leadIds));
}

/** Cancels these follow-up workflows (each records why it stopped). Best effort, like stopFollowUps. */
export async function cancelFollowUps(ctx: Ctx, followUpIds: string[]): Promise<void> {
  if (!ctx.deps.workflows) return;
  for (const id of followUpIds) {
    await cancelWorkflow(ctx.deps, `outreach-followup-${id}`).catch((e) =>
      ctx.req.log?.warn({ err: e, follow_up_id: id }, 'could not stop follow-up workflow'),
    );
  }
}

const leadView = (l: Awaited<ReturnType<typeof getLead>>) => l!;

export const campaignRoutes: RouteDef[] = [
  defineRoute<{
    name: string;
    description?: string;
    keywords?: string[];
    workspace_id?: string;
    follow_up_days?: number[];
  }>({
    method: 'post',
    path: `${BASE}/campaigns`,
    auth: 'user',
    tags,
    successBody: 'bare',
    summary: 'Create an outreach campaign',
    description:
      "A campaign groups leads under a workspace (`workspace_id`, default the caller's user id; a workspace never crosses users). `follow_up_days` (default [3, 7], fractions allowed, [] for none) are the days after each first send when a follow-up goes out while the lead is still `contacted`. Keywords are trimmed and de-duplicated; they also steer discovery relevance. Add leads with POST /campaigns/{id}/leads or /leads/bulk.",
    request: { body: campaignBody },
    responses: { 201: { description: 'The campaign', data: campaignSchema } },
    handler: async (ctx) => {
      const userId = userIdOf(ctx);
      const id = randomUUID();
      const b = ctx.body;
      const r = await runCampaignCommand(
        ctx.deps.store,
        {
          kind: 'create',
          campaign_id: id,
          user_id: userId,
          workspace_id: b.workspace_id ?? userId,
          name: b.name.trim(),
          description: b.description?.trim() || null,
          keywords: [...new Set((b.keywords ?? []).map((k) => k.trim()).filter(Boolean))],
          follow_up_days: [...new Set(b.follow_up_days ?? DEFAULT_FOLLOW_UP_DAYS)].sort((x, y) => x - y),
        },
        requestMeta(ctx),
      );
      await settle(ctx, 'outreach', r.events);
      return { status: 201, data: campaignView(await ownCampaign(ctx, id)) };
    },
  }),
  defineRoute<unknown, { workspace_id?: string }>({
    method: 'get',
    path: `${BASE}/campaigns`,
    auth: 'user',
    tags,
    successBody: 'bare',
    summary: "List the caller's campaigns of a workspace (default workspace: the caller's user id)",
    description:
      "The caller's campaigns of one workspace, newest first, each with its `leads_count` (not its leads: GET /campaigns/{campaign_id}). Deleted campaigns are not listed; a workspace without campaigns gives an empty list.",
    request: { query: withRequired({ workspace_id: workspaceId }, []) },
    responses: { 200: { description: 'Campaigns, newest first', data: arr(campaignSchema) } },
    handler: async (ctx) => {
      const userId = userIdOf(ctx);
      const rows = await listCampaigns(ctx.deps.db, userId, ctx.query.workspace_id ?? userId);
      return { data: rows.map(campaignView) };
    },
  }),
  defineRoute<unknown, unknown, { campaign_id: string }>({
    method: 'get',
    path: `${BASE}/campaigns/{campaign_id}`,
    auth: 'user',
    tags,
    successBody: 'bare',
    summary: 'One campaign with its leads',
    description:
      "The campaign and all its leads in the order they were added, each with its status, contact, scores and source. Another user's, a deleted or an unknown campaign is 404.",
    request: { params: campaignIdParams },
    responses: { 200: { description: 'The campaign and its leads (oldest first)', data: campaignWithLeads } },
    handler: async (ctx) => {
      const c = await ownCampaign(ctx, ctx.params.campaign_id);
      return { data: { ...campaignView(c), leads: await listLeads(ctx.deps.db, c.id) } };
    },
  }),
  defineRoute<unknown, unknown, { campaign_id: string }>({
    method: 'delete',
    path: `${BASE}/campaigns/{campaign_id}`,
    auth: 'user',
    tags,
    summary: 'Delete a campaign (its waiting follow-ups stop)',
    description:
      "The campaign and its leads are 404 from then on and no longer listed; the waiting follow-ups of its leads are cancelled at once (each records why), and a follow-up that was about to send checks the campaign first. Suppression entries (kept per send workspace) stay. Another user's or an already deleted campaign is 404.",
    request: { params: campaignIdParams },
    responses: { 204: { description: 'Deleted' } },
    handler: async (ctx) => {
      const id = ctx.params.campaign_id;
      const r = await runCampaignCommand(
        ctx.deps.store,
        { kind: 'delete', campaign_id: id, user_id: userIdOf(ctx) },
        requestMeta(ctx),
      );
      await settle(ctx, 'outreach', r.events);
      await stopFollowUps(ctx, id, [...r.state.leads.keys()]);
      return { status: 204 };
    },
  }),
  defineRoute<Record<string, unknown>, unknown, { id: string }>({
    method: 'post',
    path: `${BASE}/campaigns/{id}/leads`,
    auth: 'user',
    tags,
    successBody: 'bare',
    summary: 'Add a lead to a campaign',
    description: 'A lead with the same normalised website URL and contact email as one in the campaign is 409.',
    request: { params: idParams, body: leadBody },
    responses: { 201: { description: 'The lead (status discovered)', data: leadSchema } },
    errors: { 409: 'The campaign already has this lead (same normalised URL and email)' },
    handler: async (ctx) => {
      const p = parseLead(ctx.body, randomUUID);
      if (!p.ok) throw new ValidationError([{ location: 'body', path: '', kind: 'constraint', message: p.reason }]);
      const r = await runCampaignCommand(
        ctx.deps.store,
        { kind: 'add_leads', campaign_id: ctx.params.id, user_id: userIdOf(ctx), leads: [p.lead] },
        requestMeta(ctx),
      );
      if (r.events.length === 0)
        throw new ConflictError('The campaign already has a lead with this website and email', {
          key: leadKey(p.lead.normalized_url, p.lead.contact_email),
        });
      await settle(ctx, 'outreach', r.events);
      return { status: 201, data: leadView(await getLead(ctx.deps.db, ctx.params.id, p.lead.lead_id)) };
    },
  }),
  defineRoute<unknown[], unknown, { id: string }>({
    method: 'post',
    path: `${BASE}/campaigns/{id}/leads/bulk`,
    auth: 'user',
    tags,
    successBody: 'bare',
    summary: 'Add many leads; duplicates are skipped, bad entries fail alone',
    description: `At most ${MAX_BULK_LEADS} leads. skipped: duplicates (normalised URL + email) of the campaign or of an earlier entry; failed: entries that are not valid leads, with their index and reason.`,
    request: { params: idParams, body: { type: 'array', items: { type: 'object' }, maxItems: MAX_BULK_LEADS } },
    responses: {
      200: {
        description: 'What was added, skipped and failed',
        data: allRequired({
          added: int,
          skipped: int,
          failed: arr(
            allRequired({ index: int, website_url: { type: ['string', 'null'] }, reason: { type: 'string' } }),
          ),
          lead_ids: arr(),
        }),
      },
    },
    handler: async (ctx) => {
      const failed: { index: number; website_url: string | null; reason: string }[] = [];
      const good: NewLead[] = [];
      ctx.body.forEach((raw, index) => {
        const p = parseLead(raw, randomUUID);
        if (p.ok) good.push(p.lead);
        else {
          const url = (raw as { website_url?: unknown })?.website_url;
          failed.push({ index, website_url: typeof url === 'string' ? url.slice(0, 2048) : null, reason: p.reason });
        }
      });
      const r = await runCampaignCommand(
        ctx.deps.store,
        { kind: 'add_leads', campaign_id: ctx.params.id, user_id: userIdOf(ctx), leads: good },
        requestMeta(ctx),
      );
      await settle(ctx, 'outreach', r.events);
      const ids = r.events.flatMap((e) => (e.type === 'OutreachLeadAdded' ? [e.data.lead_id] : []));
      return { data: { added: ids.length, skipped: good.length - ids.length, failed, lead_ids: ids } };
    },
  }),
  defineRoute<{ status: LeadStatus }, unknown, { id: string; lead_id: string }>({
    method: 'patch',
    path: `${BASE}/campaigns/{id}/leads/{lead_id}/status`,
    auth: 'user',
    tags,
    successBody: 'bare',
    summary: 'Set a lead status (moves allowed: docs/outreach.md)',
    description:
      'Manual moves: discovered → contacted, replied, lost; contacted → replied, placed, bounced, lost; replied → contacted, placed, lost; placed → lost; bounced → discovered, lost; lost → discovered. Another move is 409 naming both states; setting the status the lead has changes nothing. Moving a lead away from `contacted` cancels its waiting follow-ups. An unknown lead is 404.',
    request: { params: leadParams, body: allRequired({ status: leadStatus }) },
    responses: { 200: { description: 'The lead', data: leadSchema } },
    errors: { 409: 'This status move is not allowed from the lead status' },
    handler: async (ctx) => {
      const { id, lead_id } = ctx.params;
      const r = await runCampaignCommand(
        ctx.deps.store,
        {
          kind: 'set_status',
          campaign_id: id,
          user_id: userIdOf(ctx),
          lead_ids: [lead_id],
          to: ctx.body.status,
          bulk: false,
        },
        requestMeta(ctx),
      );
      await settle(ctx, 'outreach', r.events);
      if (r.events.length && ctx.body.status !== 'contacted') await stopFollowUps(ctx, id, [lead_id]);
      return { data: leadView(await getLead(ctx.deps.db, id, lead_id)) };
    },
  }),
  defineRoute<{ lead_ids: string[]; status: LeadStatus }, unknown, { id: string }>({
    method: 'patch',
    path: `${BASE}/campaigns/{id}/leads/bulk-status`,
    auth: 'user',
    tags,
    successBody: 'bare',
    summary: 'Set the status of many leads; unknown leads and moves not allowed are listed in failed',
    description:
      'The moves of PATCH /campaigns/{id}/leads/{lead_id}/status for up to 1000 lead ids (repeats counted once). A lead already in the status counts as updated; an unknown lead or a move not allowed does not stop the others and is listed in `failed`. Leads moved away from `contacted` have their waiting follow-ups cancelled. An unknown campaign is 404.',
    request: {
      params: idParams,
      body: allRequired({
        lead_ids: { type: 'array', items: { type: 'string', maxLength: 100 }, maxItems: 1000 },
        status: leadStatus,
      }),
    },
    responses: {
      200: {
        description: 'How many leads have the status now, and which could not move',
        data: allRequired({ updated: int, failed: arr() }),
      },
    },
    handler: async (ctx) => {
      const { id } = ctx.params;
      const to = ctx.body.status;
      const r = await runCampaignCommand(
        ctx.deps.store,
        { kind: 'set_status', campaign_id: id, user_id: userIdOf(ctx), lead_ids: ctx.body.lead_ids, to, bulk: true },
        requestMeta(ctx),
      );
      await settle(ctx, 'outreach', r.events);
      const ids = [...new Set(ctx.body.lead_ids)];
      const failed = ids.filter((l) => {
        const lead = r.state.leads.get(l);
        return (
          !lead ||
          (lead.status !== to && !r.events.some((e) => e.type === 'OutreachLeadStatusChanged' && e.data.lead_id === l))
        );
      });
      if (to !== 'contacted')
        await stopFollowUps(
          ctx,
          id,
          r.events.flatMap((e) => (e.type === 'OutreachLeadStatusChanged' ? [e.data.lead_id] : [])),
        );
      return { data: { updated: ids.length - failed.length, failed } };
    },
  }),
];
