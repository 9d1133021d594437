/**
 * Deep discovery (Document 3: POST /discover/deep): executes
 * `outreachDiscoverWorkflow` (sample sites, research corpus, web-search vendor
 * when configured) and, with save_to_campaign, adds the results to the
 * campaign as leads (duplicates skipped, like a bulk add). Scores are in 0-1,
 * formulas in domain/outreach/discovery.ts and docs/outreach.md.
 */
import { randomUUID } from 'node:crypto';
import { ValidationError } from '../../domain/errors';
import type { NewLead } from '../../domain/outreach/campaign';
import { parseLead } from '../../domain/outreach/leads';
import { outreachDiscoverWorkflow } from '../../workflows';
import { defineRoute, RouteDef } from '../kernel/registry';
import { requestMeta, settle, userIdOf } from '../kernel/handler';
import { executeWorkflow } from '../kernel/workflows';
import { allRequired, arr, int, num, text, uuid, withRequired } from '../kernel/schema';
import { ownCampaign } from './campaigns';
import { runCampaignCommand } from './commands';
import { BASE, tags } from './schemas';

const result = allRequired({
  website_url: { type: 'string' },
  website_title: { type: 'string' },
  contact_email: { type: ['string', 'null'] },
  contact_emails: arr(),
  quality_score: num,
  relevance_score: num,
  guest_post_likelihood: num,
  signals: arr(),
  source: { type: 'string' },
});

export const discoveryRoutes: RouteDef[] = [
  defineRoute<{ keyword: string; campaign_id?: string; max_results: number; save_to_campaign: boolean }>({
    method: 'post',
    path: `${BASE}/discover/deep`,
    auth: 'user',
    tags,
    successBody: 'bare',
    summary: 'Find sites for a keyword that accept guest posts or link out, with contact emails and scores',
    description:
      'Searches the sample sites of offline discovery and the research corpus, and the web-search vendor when one is configured. With campaign_id the campaign keywords join the relevance query; save_to_campaign (needs campaign_id) adds the results as leads.',
    request: {
      body: withRequired(
        {
          keyword: text(200),
          campaign_id: uuid,
          max_results: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
          save_to_campaign: { type: 'boolean', default: false },
        },
        ['keyword'],
      ),
    },
    responses: {
      200: {
        description: 'Results (best first), how many were saved, skipped as duplicates or could not be saved',
        data: allRequired({
          results: arr(result),
          saved_to_campaign: int,
          save_failed: int,
          save_skipped: int,
          sources: arr(),
        }),
      },
    },
    errors: {
      404: "No such campaign (or not the caller's)",
      409: 'Work id already in use; retry',
      502: 'The web-search vendor failed',
      503: 'Background work is unavailable',
    },
    handler: async (ctx) => {
      const b = ctx.body;
      if (b.save_to_campaign && !b.campaign_id)
        throw new ValidationError([
          {
            location: 'body',
            path: 'campaign_id',
            kind: 'missing',
            message: 'campaign_id is required to save to a campaign',
          },
        ]);
      const userId = userIdOf(ctx);
      const campaign = b.campaign_id ? await ownCampaign(ctx, b.campaign_id) : undefined;
      const { results, sources } = await executeWorkflow(ctx.deps, outreachDiscoverWorkflow, {
        workflowId: `outreach-discover-${randomUUID()}`,
        userId: userIdOf(ctx),
        args: [{ keyword: b.keyword, keywords: campaign?.keywords ?? [], maxResults: b.max_results }],
      });
      let saved = 0;
      let failed = 0;
      let skipped = 0;
      if (b.save_to_campaign && campaign) {
        const leads: NewLead[] = [];
        for (const r of results) {
          const p = parseLead(
            {
              website_url: r.website_url,
              website_title: r.website_title,
              contact_email: r.contact_email ?? undefined,
              quality_score: r.quality_score,
              relevance_score: r.relevance_score,
              guest_post_likelihood: r.guest_post_likelihood,
              source: `discovery:${r.source}`,
            },
            randomUUID,
          );
          if (p.ok) leads.push(p.lead);
          else failed++;
        }
        const w = await runCampaignCommand(
          ctx.deps.store,
          { kind: 'add_leads', campaign_id: campaign.id, user_id: userId, leads },
          requestMeta(ctx),
        );
        await settle(ctx, 'outreach', w.events);
        saved = w.events.length;
        skipped = leads.length - saved;
      }
      return { data: { results, saved_to_campaign: saved, save_failed: failed, save_skipped: skipped, sources } };
    },
  }),
];
