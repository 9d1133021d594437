/**
 * Replies (Document 3: POST /replies/poll, GET /campaigns/{id}/replies). A
 * poll executes `outreachReplyPollWorkflow` (IMAP) and answers with what it
 * found for the caller: `replies_found` counts the caller's replies recorded by
 * this poll (of `campaign_id` when given), `failed` the messages of this poll
 * that could not be read. The mailbox is the platform's sender mailbox, read
 * for every user: a poll also records other users' replies (they see them in
 * their own reads). The same workflow runs on a Temporal Schedule.
 */
import { randomUUID } from 'node:crypto';
import { campaignStream, replyStream } from '../../domain/events/outreach';
import { listReplies } from '../../projections/outreach-activity-queries';
import { outreachReplyPollWorkflow } from '../../workflows';
import { defineRoute, RouteDef } from '../kernel/registry';
import { settle, userIdOf } from '../kernel/handler';
import { executeWorkflow } from '../kernel/workflows';
import { allRequired, arr, int, uuid, withRequired } from '../kernel/schema';
import { ownCampaign } from './campaigns';
import { BASE, idParams, replySchema, tags } from './schemas';
import { outreachOf } from './sending';

export const replyRoutes: RouteDef[] = [
  defineRoute<{ campaign_id?: string }>({
    method: 'post',
    path: `${BASE}/replies/poll`,
    auth: 'user',
    tags,
    successBody: 'bare',
    summary: 'Read the outreach mailbox now: match, classify and act on replies, auto-replies and bounces',
    description:
      "Reads the platform's sender mailbox (IMAP) from its checkpoint and matches each new message to a send by its Message-ID references. A human reply moves the lead to `replied` (an unsubscribe request also suppresses the address); an auto-reply is recorded only; a permanent bounce moves the lead to `bounced` and suppresses the address. The poll records every user's replies but counts the caller's (of `campaign_id` when given); the same poll also runs on a schedule. 503 when reply polling is not configured (the message names the settings to set, e.g. OUTREACH_IMAP_URL).",
    request: { body: withRequired({ campaign_id: uuid }, []) },
    responses: {
      200: {
        description: 'What this poll found for the caller; `failed`: messages of this poll that could not be read',
        data: allRequired({
          replies_found: int,
          failed: int,
          auto_replies: int,
          bounces: int,
          scanned: int,
          unmatched: int,
        }),
      },
    },
    errors: {
      404: "No such campaign (or not the caller's)",
      409: 'Work id already in use; retry',
      502: 'The mailbox could not be read',
      503: 'Reply polling is not configured (names the variables) or background work is unavailable',
    },
    handler: async (ctx) => {
      outreachOf(ctx.deps, 'replies');
      const userId = userIdOf(ctx);
      const campaignId = ctx.body?.campaign_id;
      if (campaignId) await ownCampaign(ctx, campaignId);
      const r = await executeWorkflow(ctx.deps, outreachReplyPollWorkflow, {
        workflowId: `outreach-replies-${randomUUID()}`,
        userId: userIdOf(ctx),
        args: [],
      });
      const mine = r.replies.filter((x) => x.userId === userId && (!campaignId || x.campaignId === campaignId));
      await settle(
        ctx,
        'outreach-activity',
        mine.map((x) => ({ streamId: replyStream(x.replyId), streamPosition: 0 })),
      );
      for (const c of new Set(mine.map((x) => x.campaignId))) {
        const v = (await ctx.deps.store.streamVersions([campaignStream(c)])).get(campaignStream(c));
        if (v !== undefined) await settle(ctx, 'outreach', [{ streamId: campaignStream(c), streamPosition: v }]);
      }
      return {
        data: {
          replies_found: mine.filter((x) => x.kind === 'reply').length,
          failed: r.failed,
          auto_replies: mine.filter((x) => x.kind === 'auto_reply').length,
          bounces: mine.filter((x) => x.kind === 'bounce').length,
          scanned: r.scanned,
          unmatched: r.unmatched,
        },
      };
    },
  }),
  defineRoute<unknown, unknown, { id: string }>({
    method: 'get',
    path: `${BASE}/campaigns/{id}/replies`,
    auth: 'user',
    tags,
    successBody: 'bare',
    summary: 'Replies of a campaign with their classification (replies, auto-replies, bounces), oldest first',
    description:
      "Every message matched to the campaign's sends: `kind` reply, auto_reply or bounce; a human reply's `classification` (interested, question, referral, not_interested, unsubscribe) with its rule `confidence` and the `signals` (phrases) found. Another user's or an unknown campaign is 404.",
    request: { params: idParams },
    responses: { 200: { description: 'Replies', data: arr(replySchema) } },
    handler: async (ctx) => ({ data: await listReplies(ctx.deps.db, (await ownCampaign(ctx, ctx.params.id)).id) }),
  }),
];
