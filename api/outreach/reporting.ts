/**
 * Reporting (Document 3: campaign analytics, reporting snapshot, CSV exports
 * of leads, attempts and replies). Figures come from the outreach read models;
 * rates are defined in domain/outreach/analytics.ts. CSV is written with
 * csv-stringify and every cell passes safeCell (no spreadsheet formulas).
 */
import { stringify } from 'csv-stringify/sync';
import { leadsByStatus as countLeads, listLeads, campaignIdsOf } from '../../projections/outreach';
import { activityCounts, dailySends, listAttempts, listReplies } from '../../projections/outreach-activity-queries';
import { dailySeries, leadsByStatus, rates, repliesByClassification } from '../../domain/outreach/analytics';
import { safeCell } from '../../domain/outreach/csv';
import { defineRoute, RouteDef } from '../kernel/registry';
import { clock, userIdOf } from '../kernel/handler';
import { allRequired, arr, int, iso, num, withRequired } from '../kernel/schema';
import { ownCampaign } from './campaigns';
import { BASE, idParams, tags } from './schemas';

const counts = { type: 'object', additionalProperties: { type: 'integer' } };
const rateSchema = allRequired({
  contact_rate: num,
  reply_rate: num,
  bounce_rate: num,
  refusal_rate: num,
  placement_rate: num,
});
const DAY = 86_400_000;

type Db = Parameters<typeof listLeads>[0];

/** One CSV export of a campaign: its columns (fields of the records it lists) and the CSV text. */
interface Export {
  columns: string[];
  csv(db: Db, campaignId: string): Promise<string>;
}

const csvExport = <T>(columns: (keyof T & string)[], rows: (db: Db, campaignId: string) => Promise<T[]>): Export => ({
  columns,
  csv: async (db, campaignId) =>
    stringify(
      (await rows(db, campaignId)).map((r) => columns.map((c) => safeCell(r[c]))),
      { header: true, columns, record_delimiter: 'windows' },
    ),
});

const EXPORTS: Record<string, Export> = {
  leads: csvExport(
    [
      'id',
      'website_url',
      'website_title',
      'contact_email',
      'status',
      'quality_score',
      'relevance_score',
      'guest_post_likelihood',
      'source',
      'legal_basis',
      'created_at',
      'status_changed_at',
    ],
    listLeads,
  ),
  attempts: csvExport(
    [
      'id',
      'lead_id',
      'kind',
      'step',
      'recipient',
      'sender',
      'subject',
      'status',
      'reason',
      'message_id',
      'legal_basis',
      'sent_at',
      'created_at',
    ],
    listAttempts,
  ),
  replies: csvExport(
    [
      'id',
      'lead_id',
      'attempt_id',
      'from',
      'subject',
      'kind',
      'classification',
      'confidence',
      'signals',
      'bounce_status',
      'snippet',
      'received_at',
    ],
    listReplies,
  ),
};

export const reportingRoutes: RouteDef[] = [
  defineRoute<unknown, { days: number }, { id: string }>({
    method: 'get',
    path: `${BASE}/campaigns/{id}/analytics`,
    auth: 'user',
    tags,
    successBody: 'bare',
    summary: 'Campaign analytics over the last `days` days (default 30): leads by status, replies, rates, daily sends',
    description:
      'leads_by_status is the current state of every lead; replies, attempts, rates and daily_send_volume cover the window.',
    request: {
      params: idParams,
      query: withRequired({ days: { type: 'integer', minimum: 1, maximum: 365, default: 30 } }, []),
    },
    responses: {
      200: {
        description: 'Campaign analytics',
        data: allRequired({
          campaign_id: { type: 'string' },
          days: int,
          since: iso,
          leads_by_status: counts,
          replies_by_classification: counts,
          attempts_by_status: counts,
          rates: rateSchema,
          daily_send_volume: arr(allRequired({ date: { type: 'string', format: 'date' }, sent: int })),
        }),
      },
    },
    handler: async (ctx) => {
      const c = await ownCampaign(ctx, ctx.params.id);
      const now = clock(ctx.deps);
      const days = ctx.query.days;
      const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - (days - 1) * DAY);
      const db = ctx.deps.db;
      const [leads, activity, daily] = await Promise.all([
        countLeads(db, [c.id]),
        activityCounts(db, [c.id], since),
        dailySends(db, [c.id], since),
      ]);
      return {
        data: {
          campaign_id: c.id,
          days,
          since: since.toISOString(),
          leads_by_status: leadsByStatus(leads),
          replies_by_classification: repliesByClassification(activity.replies),
          attempts_by_status: { sent: 0, refused: 0, failed: 0, ...activity.attempts },
          rates: rates({ leadsByStatus: leads, ...activity }),
          daily_send_volume: dailySeries(daily, days, now),
        },
      };
    },
  }),
  defineRoute({
    method: 'get',
    path: `${BASE}/reporting/snapshot`,
    auth: 'user',
    tags,
    successBody: 'bare',
    summary: "Totals and rates across all the caller's campaigns (all time)",
    description:
      'The totals of GET /campaigns/{id}/analytics over every live campaign of the caller and all time: campaigns, leads (by current status), send attempts by status, replies by classification, and the rates (reply, bounce, refusal, placement, contact; 0 when there is nothing to divide by). `generated_at` is the time of the answer.',
    responses: {
      200: {
        description: 'Reporting snapshot',
        data: allRequired({
          campaigns: int,
          leads: int,
          leads_by_status: counts,
          attempts_by_status: counts,
          replies_by_classification: counts,
          rates: rateSchema,
          generated_at: iso,
        }),
      },
    },
    handler: async (ctx) => {
      const db = ctx.deps.db;
      const ids = await campaignIdsOf(db, userIdOf(ctx));
      const [leads, activity] = await Promise.all([countLeads(db, ids), activityCounts(db, ids)]);
      return {
        data: {
          campaigns: ids.length,
          leads: Object.values(leads).reduce((a, b) => a + b, 0),
          leads_by_status: leadsByStatus(leads),
          attempts_by_status: { sent: 0, refused: 0, failed: 0, ...activity.attempts },
          replies_by_classification: repliesByClassification(activity.replies),
          rates: rates({ leadsByStatus: leads, ...activity }),
          generated_at: clock(ctx.deps).toISOString(),
        },
      };
    },
  }),
  ...Object.entries(EXPORTS).map(([kind, e]) =>
    defineRoute<unknown, unknown, { id: string }>({
      method: 'get',
      path: `${BASE}/campaigns/{id}/export/${kind}`,
      auth: 'user',
      tags,
      summary: `CSV download of the campaign's ${kind} (formula-safe cells)`,
      description: `Columns: ${e.columns.join(', ')}. Cells starting with = + - @ are prefixed with ' so spreadsheets show them as text.`,
      request: { params: idParams },
      responses: {
        200: {
          description: 'CSV (RFC 4180, CRLF lines, header row)',
          contentType: 'text/csv',
          data: { type: 'string' },
        },
      },
      handler: async (ctx) => {
        const c = await ownCampaign(ctx, ctx.params.id);
        const body = await e.csv(ctx.deps.db, c.id);
        ctx.res.setHeader('Content-Disposition', `attachment; filename="campaign-${c.id}-${kind}.csv"`);
        return { raw: { contentType: 'text/csv; charset=utf-8', body } };
      },
    }),
  ),
];
