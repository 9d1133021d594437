/**
 * Backlink outreach (Document 3, /api/v1/backlink-outreach). Streams:
 * - `outreachcampaign-<campaign_id>`: the campaign, its leads and every lead status move (one stream, so duplicate
 *   checks and status moves are decided on one consistent state);
 * - `outreachtemplate-<template_id>`: an email template;
 * - `outreachsuppression-<user_id>:<workspace_id>`: the workspace's suppression list;
 * - `outreachattempt-<attempt_id>`: the outcome of one send (sent, refused by policy, or failed);
 * - `outreachfollowup-<attempt_id>`: the follow-ups of a first send;
 * - `outreachreply-<reply_id>`: one message read from the mailbox and matched to a send.
 */
import { EventDefinitions, openAllRequired } from './types';
import { anyString, arr, bool, int, iso, nonEmptyString, num } from '../schema';

export const LEAD_STATES = ['discovered', 'contacted', 'replied', 'placed', 'bounced', 'lost'] as const;
export type LeadStatus = (typeof LEAD_STATES)[number];
export type StatusCause = 'manual' | 'send' | 'reply' | 'bounce';
export type ReplyKind = 'reply' | 'auto_reply' | 'bounce';
export const REPLY_CLASSES = [
  'interested',
  'not_interested',
  'unsubscribe',
  'referral',
  'question',
  'auto_reply',
  'bounce',
] as const;
export type ReplyClass = (typeof REPLY_CLASSES)[number];
export type SendKind = 'initial' | 'follow_up';
export type SuppressionSource = 'manual' | 'unsubscribe_reply' | 'unsubscribe_link' | 'bounce';

export interface LeadData {
  campaign_id: string;
  user_id: string;
  lead_id: string;
  website_url: string;
  normalized_url: string;
  website_title: string | null;
  contact_email: string | null;
  quality_score: number | null;
  relevance_score: number | null;
  guest_post_likelihood: number | null;
  source: string;
  legal_basis: string;
}

/** What every attempt event says about the send it records. */
export interface AttemptRef {
  attempt_id: string;
  user_id: string;
  workspace_id: string;
  campaign_id: string;
  lead_id: string;
  kind: SendKind;
  /** For a follow-up: the first send it follows, and its step (1, 2, ...). */
  follow_up_of: string | null;
  step: number | null;
  recipient: string;
  sender: string;
  subject: string;
}

export type OutreachEvent =
  | {
      type: 'OutreachCampaignCreated';
      data: {
        campaign_id: string;
        user_id: string;
        workspace_id: string;
        name: string;
        description: string | null;
        keywords: string[];
        follow_up_days: number[];
      };
    }
  | { type: 'OutreachCampaignDeleted'; data: { campaign_id: string; user_id: string } }
  | { type: 'OutreachLeadAdded'; data: LeadData }
  | {
      type: 'OutreachLeadStatusChanged';
      data: {
        campaign_id: string;
        user_id: string;
        lead_id: string;
        from: LeadStatus;
        to: LeadStatus;
        cause: StatusCause;
        /** The attempt or reply that caused an automatic move (null for manual ones). */
        cause_id: string | null;
      };
    }
  | {
      type: 'OutreachTemplateCreated';
      data: {
        template_id: string;
        user_id: string;
        name: string;
        subject: string;
        body: string;
        category: string | null;
        placeholders: string[];
      };
    }
  | { type: 'OutreachTemplateDeleted'; data: { template_id: string; user_id: string } }
  | {
      type: 'OutreachSuppressionAdded';
      data: {
        user_id: string;
        workspace_id: string;
        /** A lower-case address, or `@domain` for a whole domain. */
        entry: string;
        kind: 'address' | 'domain';
        reason: string | null;
        source: SuppressionSource;
      };
    }
  | { type: 'OutreachSendRefused'; data: AttemptRef & { reason: string } }
  | {
      type: 'OutreachEmailSent';
      data: AttemptRef & {
        message_id: string;
        body: string;
        legal_basis: string;
        sent_at: string;
        /** True when a retry found the message already accepted (mailbox copy) and did not send it again. */
        recovered: boolean;
      };
    }
  | { type: 'OutreachSendFailed'; data: AttemptRef & { error: string } }
  | {
      type: 'OutreachFollowUpScheduled';
      data: {
        follow_up_id: string;
        user_id: string;
        campaign_id: string;
        lead_id: string;
        steps: { step: number; due_at: string }[];
      };
    }
  | {
      type: 'OutreachFollowUpStepDone';
      data: {
        follow_up_id: string;
        user_id: string;
        campaign_id: string;
        step: number;
        outcome: 'sent' | 'refused' | 'failed';
        attempt_id: string;
        reason: string | null;
      };
    }
  | {
      type: 'OutreachFollowUpStopped';
      /** `steps`: the steps still waiting, which will not be sent. */
      data: { follow_up_id: string; user_id: string; campaign_id: string; steps: number[]; reason: string };
    }
  | {
      type: 'OutreachReplyReceived';
      data: {
        reply_id: string;
        user_id: string;
        workspace_id: string;
        campaign_id: string;
        lead_id: string;
        attempt_id: string;
        message_id: string;
        from: string;
        subject: string;
        received_at: string;
        kind: ReplyKind;
        classification: ReplyClass;
        confidence: number;
        signals: string[];
        snippet: string;
        /** Delivery status code of a bounce (`5.1.1`), else null. */
        bounce_status: string | null;
      };
    };

const nullableStr = { type: ['string', 'null'] };
const nullableNum = { type: ['number', 'null'] };
const nullableInt = { type: ['integer', 'null'] };
const status = { enum: [...LEAD_STATES] };
const attemptRef = {
  attempt_id: nonEmptyString,
  user_id: nonEmptyString,
  workspace_id: nonEmptyString,
  campaign_id: nonEmptyString,
  lead_id: nonEmptyString,
  kind: { enum: ['initial', 'follow_up'] },
  follow_up_of: nullableStr,
  step: nullableInt,
  recipient: nonEmptyString,
  sender: nonEmptyString,
  subject: anyString,
};

export const outreachEvents: EventDefinitions<OutreachEvent['type']> = {
  OutreachCampaignCreated: {
    area: 'outreach',
    version: 1,
    schema: openAllRequired({
      campaign_id: nonEmptyString,
      user_id: nonEmptyString,
      workspace_id: nonEmptyString,
      name: nonEmptyString,
      description: nullableStr,
      keywords: arr(anyString),
      follow_up_days: { type: 'array', items: num },
    }),
  },
  OutreachCampaignDeleted: {
    area: 'outreach',
    version: 1,
    schema: openAllRequired({ campaign_id: nonEmptyString, user_id: nonEmptyString }),
  },
  OutreachLeadAdded: {
    area: 'outreach',
    version: 1,
    schema: openAllRequired({
      campaign_id: nonEmptyString,
      user_id: nonEmptyString,
      lead_id: nonEmptyString,
      website_url: nonEmptyString,
      normalized_url: nonEmptyString,
      website_title: nullableStr,
      contact_email: nullableStr,
      quality_score: nullableNum,
      relevance_score: nullableNum,
      guest_post_likelihood: nullableNum,
      source: anyString,
      legal_basis: nonEmptyString,
    }),
  },
  OutreachLeadStatusChanged: {
    area: 'outreach',
    version: 1,
    schema: openAllRequired({
      campaign_id: nonEmptyString,
      user_id: nonEmptyString,
      lead_id: nonEmptyString,
      from: status,
      to: status,
      cause: { enum: ['manual', 'send', 'reply', 'bounce'] },
      cause_id: nullableStr,
    }),
  },
  OutreachTemplateCreated: {
    area: 'outreach',
    version: 1,
    schema: openAllRequired({
      template_id: nonEmptyString,
      user_id: nonEmptyString,
      name: anyString,
      subject: anyString,
      body: nonEmptyString,
      category: nullableStr,
      placeholders: arr(anyString),
    }),
  },
  OutreachTemplateDeleted: {
    area: 'outreach',
    version: 1,
    schema: openAllRequired({ template_id: nonEmptyString, user_id: nonEmptyString }),
  },
  OutreachSuppressionAdded: {
    area: 'outreach',
    version: 1,
    schema: openAllRequired({
      user_id: nonEmptyString,
      workspace_id: nonEmptyString,
      entry: nonEmptyString,
      kind: { enum: ['address', 'domain'] },
      reason: nullableStr,
      source: { enum: ['manual', 'unsubscribe_reply', 'unsubscribe_link', 'bounce'] },
    }),
  },
  OutreachSendRefused: {
    area: 'outreach',
    version: 1,
    schema: openAllRequired({ ...attemptRef, reason: nonEmptyString }),
  },
  OutreachEmailSent: {
    area: 'outreach',
    version: 1,
    schema: openAllRequired({
      ...attemptRef,
      message_id: nonEmptyString,
      body: anyString,
      legal_basis: nonEmptyString,
      sent_at: iso,
      recovered: bool,
    }),
  },
  OutreachSendFailed: { area: 'outreach', version: 1, schema: openAllRequired({ ...attemptRef, error: anyString }) },
  OutreachFollowUpScheduled: {
    area: 'outreach',
    version: 1,
    schema: openAllRequired({
      follow_up_id: nonEmptyString,
      user_id: nonEmptyString,
      campaign_id: nonEmptyString,
      lead_id: nonEmptyString,
      steps: { type: 'array', items: openAllRequired({ step: int, due_at: iso }) },
    }),
  },
  OutreachFollowUpStepDone: {
    area: 'outreach',
    version: 1,
    schema: openAllRequired({
      follow_up_id: nonEmptyString,
      user_id: nonEmptyString,
      campaign_id: nonEmptyString,
      step: int,
      outcome: { enum: ['sent', 'refused', 'failed'] },
      attempt_id: nonEmptyString,
      reason: nullableStr,
    }),
  },
  OutreachFollowUpStopped: {
    area: 'outreach',
    version: 1,
    schema: openAllRequired({
      follow_up_id: nonEmptyString,
      user_id: nonEmptyString,
      campaign_id: nonEmptyString,
      steps: { type: 'array', items: int },
      reason: nonEmptyString,
    }),
  },
  OutreachReplyReceived: {
    area: 'outreach',
    version: 1,
    schema: openAllRequired({
      reply_id: nonEmptyString,
      user_id: nonEmptyString,
      workspace_id: nonEmptyString,
      campaign_id: nonEmptyString,
      lead_id: nonEmptyString,
      attempt_id: nonEmptyString,
      message_id: nonEmptyString,
      from: anyString,
      subject: anyString,
      received_at: iso,
      kind: { enum: ['reply', 'auto_reply', 'bounce'] },
      classification: { enum: [...REPLY_CLASSES] },
      confidence: num,
      signals: arr(anyString),
      snippet: anyString,
      bounce_status: nullableStr,
    }),
  },
};

export const campaignStream = (campaignId: string) => `outreachcampaign-${campaignId}`;
export const templateStream = (templateId: string) => `outreachtemplate-${templateId}`;
export const suppressionStream = (userId: string, workspaceId: string) =>
  `outreachsuppression-${userId}:${workspaceId}`;
export const attemptStream = (attemptId: string) => `outreachattempt-${attemptId}`;
export const followUpStream = (followUpId: string) => `outreachfollowup-${followUpId}`;
export const replyStream = (replyId: string) => `outreachreply-${replyId}`;
