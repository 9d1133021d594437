/**
 * Sending with policy (Document 3: /outreach/send, /policy/validate, attempts
 * and follow-ups). A send executes `outreachSendWorkflow` and waits for its
 * outcome: refused by the policy → 403 `{detail: "Policy validation failed",
 * reason}`; delivery failed → generic 500 (logged in full); sent → the
 * attempt. Validate runs the same policy engine as a dry run.
 */
import { randomUUID } from 'node:crypto';
import { NotFoundError, PolicyError, ServiceUnavailableError, ValidationError } from '../../domain/errors';
import type { LegalBasis } from '../../domain/outreach/legal';
import type { Tone } from '../../domain/outreach/writer';
import { TONES } from '../../domain/outreach/writer';
import { getLead } from '../../projections/outreach';
import { getAttempt, listAttempts, listFollowUps } from '../../projections/outreach-activity-queries';
import { outreachSendWorkflow } from '../../workflows';
import { defineRoute, RouteDef } from '../kernel/registry';
import { userIdOf } from '../kernel/handler';
import { runWorkflow } from '../kernel/tasks';
import type { AppDeps } from '../kernel/types';
import { arr, str, text, uuid, withRequired } from '../kernel/schema';
import { ownCampaign } from './campaigns';
import { attemptSchema, BASE, email, followUpSchema, idParams, policyResultSchema, tags, workspaceId } from './schemas';

/** Workspace of sends and of the policy when none is given (Document 3). */
export const DEFAULT_SEND_WORKSPACE = 'default';

/** The outreach adapters, or 503 naming what to configure. */
export function outreachOf(deps: AppDeps, need: 'sending' | 'replies' | 'policy') {
  const o = deps.outreach;
  if (!o) throw new ServiceUnavailableError('Backlink outreach is not available in this API process', {});
  if (need !== 'policy' && !o[need].configured)
    throw new ServiceUnavailableError(
      `Outreach ${need === 'sending' ? 'sending' : 'reply polling'} is not configured: set ${o[need].missing.join(', ')}`,
      { missing: o[need].missing },
    );
  return o;
}

interface SendBody {
  campaign_id: string;
  lead_id: string;
  subject: string;
  body: string;
  workspace_id?: string;
  tone?: Tone;
}

export const sendingRoutes: RouteDef[] = [
  defineRoute<SendBody>({
    method: 'post',
    path: `${BASE}/outreach/send`,
    auth: 'user',
    tags,
    successBody: 'bare',
    summary: "Send an outreach email to a lead's contact address, subject to the policy",
    description:
      "Checked atomically against suppression (address and domain), the sender and recipient-domain daily caps, the warm-up ramp and the idempotency window (docs/outreach.md); the contact's legal basis is recorded. A first send starts the campaign's follow-ups. The message carries RFC 8058 one-click unsubscribe headers, the postal address footer and a Message-ID replies are matched by.",
    request: {
      body: withRequired(
        {
          campaign_id: uuid,
          lead_id: uuid,
          subject: text(500),
          body: text(50000),
          workspace_id: {
            ...workspaceId,
            description: 'workspace of the policy (suppression, caps); default "default"',
          },
          tone: { enum: TONES, description: 'tone of the follow-ups written for this send (default professional)' },
        },
        ['campaign_id', 'lead_id', 'subject', 'body'],
      ),
    },
    responses: { 200: { description: 'The attempt (status sent)', data: attemptSchema } },
    errors: {
      403: 'Policy validation failed: {detail, reason}',
      404: "No such campaign or lead (or not the caller's)",
      409: 'Work id already in use; retry',
      503: 'Sending is not configured (names the variables) or background work is unavailable',
    },
    handler: async (ctx) => {
      const o = outreachOf(ctx.deps, 'policy');
      const b = ctx.body;
      const userId = userIdOf(ctx);
      const c = await ownCampaign(ctx, b.campaign_id);
      const lead = await getLead(ctx.deps.db, c.id, b.lead_id);
      if (!lead) throw new NotFoundError('Lead not found');
      if (!lead.contact_email)
        throw new ValidationError([
          {
            location: 'body',
            path: 'lead_id',
            kind: 'constraint',
            message: 'the lead has no contact_email to send to',
          },
        ]);
      const workspace = b.workspace_id ?? DEFAULT_SEND_WORKSPACE;
      if (!o.sending.configured) {
        // A send the policy refuses whatever the mail setup is answered as such (403) before "not configured" (503).
        // With sending configured the engine decides it in the workflow, atomically with the caps, and the refused
        // attempt is recorded.
        const suppressed = await o.policy.suppressionOf(userId, workspace, lead.contact_email);
        if (suppressed) throw new PolicyError(suppressed, {});
        outreachOf(ctx.deps, 'sending');
      }
      const attemptId = randomUUID();
      // The answer waits until the attempt and the lead's status move are in the projections (runWorkflow).
      const out = await runWorkflow(ctx, outreachSendWorkflow, {
        workflowId: `outreach-send-${attemptId}`,
        userId: userIdOf(ctx),
        args: [
          {
            attemptId,
            userId,
            workspaceId: workspace,
            campaignId: c.id,
            leadId: lead.id,
            recipient: lead.contact_email,
            subject: b.subject,
            body: b.body,
            kind: 'initial',
            followUpOf: null,
            step: null,
            legalBasis: lead.legal_basis as LegalBasis,
            followUpDays: c.follow_up_days,
            tone: b.tone,
          },
        ],
      });
      if (out.status === 'refused') throw new PolicyError(out.reason, { attempt_id: attemptId });
      if (out.status === 'failed') throw new Error(`outreach delivery of attempt ${attemptId} failed: ${out.error}`);
      const attempt = await getAttempt(ctx.deps.db, userId, attemptId);
      if (!attempt) throw new Error(`attempt ${attemptId} was sent but is not in the read model yet`);
      return { data: attempt };
    },
  }),
  defineRoute<{ recipient_email: string; sender_email: string; subject?: string; workspace_id?: string }>({
    method: 'post',
    path: `${BASE}/policy/validate`,
    auth: 'user',
    tags,
    successBody: 'bare',
    summary: 'Check a send against the policy without sending (the same engine, rolled back)',
    description:
      "allowed=false carries the reason. counts are today's sends before this one; limits the caps that apply (with the warm-up day of a new sender). subject enables the idempotency check.",
    request: {
      body: withRequired(
        {
          recipient_email: email,
          sender_email: email,
          subject: str(500),
          workspace_id: { ...workspaceId, description: 'default "default", like sends' },
        },
        ['recipient_email', 'sender_email'],
      ),
    },
    responses: { 200: { description: 'Policy validation result', data: policyResultSchema } },
    errors: { 503: 'Outreach is not available in this API process' },
    handler: async (ctx) => {
      const o = outreachOf(ctx.deps, 'policy');
      const b = ctx.body;
      return {
        data: await o.policy.evaluate({
          userId: userIdOf(ctx),
          workspaceId: b.workspace_id ?? DEFAULT_SEND_WORKSPACE,
          recipient: b.recipient_email,
          sender: b.sender_email,
          subject: b.subject || undefined,
        }),
      };
    },
  }),
  defineRoute<unknown, unknown, { id: string }>({
    method: 'get',
    path: `${BASE}/campaigns/{id}/attempts`,
    auth: 'user',
    tags,
    successBody: 'bare',
    summary: 'Send attempts of a campaign (sent, refused with reason, failed), oldest first',
    description:
      "Every attempt of the campaign's first sends and follow-ups: `sent` (with its Message-ID and send time; `recovered` when an interrupted send was found in the sender mailbox), `refused` by the send policy (with the reason) or `failed` delivery (with the SMTP error), each with the legal basis recorded for the contact (null when none was). Another user's or an unknown campaign is 404.",
    request: { params: idParams },
    responses: { 200: { description: 'Attempts', data: arr(attemptSchema) } },
    handler: async (ctx) => ({ data: await listAttempts(ctx.deps.db, (await ownCampaign(ctx, ctx.params.id)).id) }),
  }),
  defineRoute<unknown, unknown, { id: string }>({
    method: 'get',
    path: `${BASE}/campaigns/{id}/follow-ups`,
    auth: 'user',
    tags,
    successBody: 'bare',
    summary: 'Follow-up steps of a campaign (scheduled, sent, refused, failed, stopped with reason), by due time',
    description:
      "One entry per follow-up step of each first send, by `due_at`: `scheduled` until due, then `sent` (with its `attempt_id`), `refused` or `failed`, or `stopped` with the reason (the lead left `contacted`, the campaign was deleted, the address was suppressed). Another user's or an unknown campaign is 404.",
    request: { params: idParams },
    responses: { 200: { description: 'Follow-ups', data: arr(followUpSchema) } },
    handler: async (ctx) => ({ data: await listFollowUps(ctx.deps.db, (await ownCampaign(ctx, ctx.params.id)).id) }),
  }),
];
