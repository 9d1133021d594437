/**
 * Activities of outreach sending (workflows/outreach-send.ts, outreach-follow-up.ts):
 * the policy reservation, the SMTP delivery and the events that record what
 * happened. Every event is appended with appendOnce under an id derived from
 * the attempt id, and lead status moves are idempotent by their cause, so a
 * retried activity never records twice.
 *
 * Never sending twice: `deliver` writes the send's intent (with its
 * Message-ID) to the ledger before handing the message to SMTP, and marks it
 * accepted after. A retry that finds only the intent (the worker died after
 * the server took the message, before the mark) looks for the message's copy
 * in the sender's mailbox: the copy went out as a blind copy in the same SMTP
 * transaction, so it is there exactly when the server accepted the message.
 * Found: recorded as sent (`recovered: true`), not sent again. Not found: sent.
 * A try that failed before handing the message over (no connection, the
 * server refused) is marked not_sent and simply tried again.
 * Without a mailbox to check, an unconfirmed earlier try is not repeated: the
 * send fails (500) rather than risk a second copy.
 */
import type { EventStore } from '../infra/eventstore';
import { uuidFromKey } from '../infra/eventstore/ids';
import { handleCommand } from '../infra/eventstore/command';
import type { Logger } from 'pino';
import type { MailIdentity, MailTransport, Mailbox, PolicyEngine, PolicyResult, SendLedger } from '../infra/outreach';
import { unsubscribeUrl } from '../infra/outreach/unsubscribe';
import { attemptStream, AttemptRef, campaignStream, followUpStream } from '../domain/events/outreach';
import { campaignDecider } from '../domain/outreach/campaign';
import { buildMessage, messageIdFor } from '../domain/outreach/message';
import { subjectKey } from '../domain/outreach/policy';
import type { LegalBasis } from '../domain/outreach/legal';
import { storableText } from '../domain/storable-text';
import { withHeartbeat } from './heartbeat';

export interface OutreachSendDeps {
  store: EventStore;
  policy: PolicyEngine;
  ledger: SendLedger;
  identity: MailIdentity;
  /** Absent: sending is not configured (the API refuses before starting a send). */
  transport?: MailTransport;
  /** Absent: an unconfirmed earlier try cannot be checked (see above). */
  mailbox?: Mailbox;
  logger?: Pick<Logger, 'warn' | 'info'>;
  now?: () => Date;
}

/** One send: a first email or a follow-up step. */
export interface SendInput {
  attemptId: string;
  userId: string;
  workspaceId: string;
  campaignId: string;
  leadId: string;
  recipient: string;
  subject: string;
  body: string;
  kind: 'initial' | 'follow_up';
  followUpOf: string | null;
  step: number | null;
  /** Message-ID of the first send (a follow-up answers in its thread). */
  inReplyTo?: string;
  legalBasis: LegalBasis;
}

export interface Delivered {
  messageId: string;
  sentAt: string;
  /** True when an earlier try had been accepted and this one only recorded it. */
  recovered: boolean;
}

export class DeliveryStateUnknownError extends Error {
  readonly code = 'VENDOR_REQUEST_REJECTED'; // not retryable: retrying could send a second copy
  constructor(key: string) {
    super(
      `an earlier try of send ${key} may have been accepted by the SMTP server and no mailbox is configured to check (OUTREACH_IMAP_URL): not sending again`,
    );
  }
}

export function createOutreachSendActivities(deps: OutreachSendDeps) {
  const now = deps.now ?? (() => new Date());
  const sender = () => deps.identity.from.address;
  const ref = (i: SendInput): AttemptRef => ({
    attempt_id: i.attemptId,
    user_id: i.userId,
    workspace_id: i.workspaceId,
    campaign_id: i.campaignId,
    lead_id: i.leadId,
    kind: i.kind,
    follow_up_of: i.followUpOf,
    step: i.step,
    recipient: i.recipient,
    sender: sender(),
    subject: i.subject,
  });
  const meta = (i: SendInput) => ({ user_id: i.userId, causation_id: i.attemptId });

  return {
    /** The policy decision of this send, counted once under its attempt id. */
    async outreachReservePolicy(i: SendInput): Promise<PolicyResult> {
      return deps.policy.reserve(
        {
          userId: i.userId,
          workspaceId: i.workspaceId,
          recipient: i.recipient,
          sender: sender(),
          subject: i.subject,
          // Follow-ups share "Re: <subject>": each step is its own claim.
          subjectKey: i.step ? `${subjectKey(i.subject)}#follow-up-${i.step}` : undefined,
          legalBasis: i.legalBasis,
        },
        i.attemptId,
      );
    },

    async outreachDeliver(i: SendInput): Promise<Delivered> {
      if (!deps.transport) throw new Error('outreach sending is not configured (OUTREACH_SMTP_URL)');
      const key = `outreach-send:${i.attemptId}`;
      const messageId = messageIdFor(i.attemptId, sender());
      const prior = await deps.ledger.begin({
        idempotency_key: key,
        message_id: messageId,
        attempt_id: i.attemptId,
        user_id: i.userId,
        workspace_id: i.workspaceId,
        campaign_id: i.campaignId,
        lead_id: i.leadId,
        recipient: i.recipient,
        sender: sender(),
      });
      if (prior?.status === 'accepted') return { messageId, sentAt: prior.accepted_at!, recovered: true };
      if (prior?.status === 'intent') {
        if (!deps.mailbox) throw new DeliveryStateUnknownError(key);
        if (await withHeartbeat(() => deps.mailbox!.hasMessageId(messageId))) {
          const at = now();
          await deps.ledger.accepted(key, 'found in the sender mailbox after an interrupted try', at);
          deps.logger?.info({ attempt_id: i.attemptId, message_id: messageId }, 'earlier try was accepted: not resent');
          return { messageId, sentAt: at.toISOString(), recovered: true };
        }
      }
      const message = buildMessage({
        attemptId: i.attemptId,
        from: deps.identity.from,
        to: i.recipient,
        subject: i.subject,
        body: i.body,
        postalAddress: deps.identity.postalAddress,
        unsubscribeUrl: unsubscribeUrl(deps.identity.publicBaseUrl, deps.identity.unsubscribeKey, i.attemptId),
        inReplyTo: i.inReplyTo,
      });
      let r: Awaited<ReturnType<MailTransport['send']>>;
      try {
        r = await withHeartbeat(() => deps.transport!.send(message, sender()));
      } catch (e) {
        if ((e as { definite?: boolean }).definite) await deps.ledger.notSent(key);
        throw e;
      }
      const at = now();
      await deps.ledger.accepted(key, r.response, at);
      return { messageId, sentAt: at.toISOString(), recovered: false };
    },

    /** OutreachEmailSent, then the lead's automatic move discovered → contacted. */
    async outreachRecordSent(a: { input: SendInput; delivered: Delivered; legalBasis: string }): Promise<void> {
      const i = a.input;
      await deps.store.appendOnce(
        attemptStream(i.attemptId),
        {
          type: 'OutreachEmailSent',
          eventId: uuidFromKey(`outreach-sent:${i.attemptId}`),
          data: {
            ...ref(i),
            message_id: a.delivered.messageId,
            body: storableText(i.body),
            legal_basis: a.legalBasis,
            sent_at: a.delivered.sentAt,
            recovered: a.delivered.recovered,
          },
        },
        meta(i),
      );
      await handleCommand(
        deps.store,
        campaignStream(i.campaignId),
        campaignDecider,
        { kind: 'auto_status', campaign_id: i.campaignId, lead_id: i.leadId, cause: 'send', cause_id: i.attemptId },
        { metadata: meta(i) },
      );
    },

    async outreachRecordRefused(a: { input: SendInput; reason: string }): Promise<void> {
      await deps.store.appendOnce(
        attemptStream(a.input.attemptId),
        {
          type: 'OutreachSendRefused',
          eventId: uuidFromKey(`outreach-refused:${a.input.attemptId}`),
          data: { ...ref(a.input), reason: a.reason },
        },
        meta(a.input),
      );
    },

    /** A delivery that failed for good: its policy counts are given back and the failure is recorded. */
    async outreachRecordFailed(a: { input: SendInput; error: string }): Promise<void> {
      await deps.policy.release(a.input.attemptId);
      await deps.store.appendOnce(
        attemptStream(a.input.attemptId),
        {
          type: 'OutreachSendFailed',
          eventId: uuidFromKey(`outreach-failed:${a.input.attemptId}`),
          data: { ...ref(a.input), error: storableText(a.error).slice(0, 2000) },
        },
        meta(a.input),
      );
    },

    /** Whether a follow-up may still go out: the lead is still `contacted`, its campaign live, its address not suppressed. */
    async outreachFollowUpGate(a: {
      userId: string;
      workspaceId: string;
      campaignId: string;
      leadId: string;
      recipient: string;
    }): Promise<{ ok: boolean; reason: string }> {
      const { state } = await deps.store.aggregateStream(
        campaignStream(a.campaignId),
        campaignDecider.evolve,
        campaignDecider.initialState,
      );
      if (!state.campaign || state.campaign.deleted) return { ok: false, reason: 'campaign deleted' };
      const lead = state.leads.get(a.leadId);
      if (!lead) return { ok: false, reason: 'lead not found' };
      if (lead.status !== 'contacted') return { ok: false, reason: `lead status is ${lead.status}` };
      if (await deps.policy.isSuppressed(a.userId, a.workspaceId, a.recipient))
        return { ok: false, reason: 'recipient is on the suppression list' };
      return { ok: true, reason: '' };
    },

    async outreachFollowUpsScheduled(a: {
      followUpId: string;
      userId: string;
      campaignId: string;
      leadId: string;
      steps: { step: number; due_at: string }[];
    }): Promise<void> {
      await deps.store.appendOnce(
        followUpStream(a.followUpId),
        {
          type: 'OutreachFollowUpScheduled',
          eventId: uuidFromKey(`outreach-follow-up-scheduled:${a.followUpId}`),
          data: {
            follow_up_id: a.followUpId,
            user_id: a.userId,
            campaign_id: a.campaignId,
            lead_id: a.leadId,
            steps: a.steps,
          },
        },
        { user_id: a.userId, causation_id: a.followUpId },
      );
    },

    async outreachFollowUpStepDone(a: {
      followUpId: string;
      userId: string;
      campaignId: string;
      step: number;
      outcome: 'sent' | 'refused' | 'failed';
      attemptId: string;
      reason: string | null;
    }): Promise<void> {
      await deps.store.appendOnce(
        followUpStream(a.followUpId),
        {
          type: 'OutreachFollowUpStepDone',
          eventId: uuidFromKey(`outreach-follow-up-step:${a.followUpId}:${a.step}`),
          data: {
            follow_up_id: a.followUpId,
            user_id: a.userId,
            campaign_id: a.campaignId,
            step: a.step,
            outcome: a.outcome,
            attempt_id: a.attemptId,
            reason: a.reason,
          },
        },
        { user_id: a.userId, causation_id: a.attemptId },
      );
    },

    async outreachFollowUpsStopped(a: {
      followUpId: string;
      userId: string;
      campaignId: string;
      steps: number[];
      reason: string;
    }): Promise<void> {
      await deps.store.appendOnce(
        followUpStream(a.followUpId),
        {
          type: 'OutreachFollowUpStopped',
          eventId: uuidFromKey(`outreach-follow-up-stopped:${a.followUpId}`),
          data: {
            follow_up_id: a.followUpId,
            user_id: a.userId,
            campaign_id: a.campaignId,
            steps: a.steps,
            reason: a.reason,
          },
        },
        { user_id: a.userId, causation_id: a.followUpId },
      );
    },
  };
}

export type OutreachSendActivities = ReturnType<typeof createOutreachSendActivities>;
