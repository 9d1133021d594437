/**
 * The outreach adapters (built once per process in workers/adapters.ts):
 * the policy engine, the send ledger, the SMTP transport, the IMAP mailbox
 * and the settings of outgoing mail. What is missing from the configuration
 * is named, so routes can answer 503 saying what to set.
 */
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Config } from '../config';
import { publicBaseUrl } from '../config';
import { DEFAULT_POLICY, parseRamp, PolicySettings } from '../../domain/outreach/policy';
import { PolicyEngine, PostgresPolicyEngine } from './policy';
import { SendLedger } from './ledger';
import { createSmtpTransport, MailTransport } from './smtp';
import { createImapMailbox, Mailbox } from './imap';
import { unsubscribeKey } from './unsubscribe';

export { PostgresPolicyEngine, isSuppressed } from './policy';
export type { PolicyEngine, PolicyRequest, PolicyResult } from './policy';
export { SendLedger } from './ledger';
export type { LedgerEntry } from './ledger';
export { addSuppression } from './suppression';
export type { MailTransport } from './smtp';
export type { Mailbox, MailboxMessage } from './imap';

/** What outgoing mail says about its sender, and where its unsubscribe links point. */
export interface MailIdentity {
  from: { address: string; name: string };
  postalAddress: string;
  /** Base of unsubscribe links (OUTREACH_PUBLIC_BASE_URL, else PUBLIC_BASE_URL). */
  publicBaseUrl: string;
  unsubscribeKey: Buffer;
}

/** Configured, or the variables to set. */
export interface Readiness {
  configured: boolean;
  missing: string[];
}

/** What the API needs: the engine (validate), the ledger (unsubscribe links), the key, and readiness. */
export interface OutreachApiAdapters {
  policy: PolicyEngine;
  ledger: SendLedger;
  unsubscribeKey: Buffer;
  sending: Readiness;
  replies: Readiness;
}

export function policySettings(c: Config): PolicySettings {
  return {
    ...DEFAULT_POLICY,
    senderDailyCap: c.OUTREACH_SENDER_DAILY_CAP,
    domainDailyCap: c.OUTREACH_DOMAIN_DAILY_CAP,
    warmupRamp: parseRamp(c.OUTREACH_WARMUP_RAMP),
    idempotencyWindowHours: c.OUTREACH_IDEMPOTENCY_WINDOW_HOURS,
  };
}

export function sendingReadiness(c: Config): Readiness {
  const missing = (
    ['OUTREACH_SMTP_URL', 'OUTREACH_FROM_ADDRESS', 'OUTREACH_FROM_NAME', 'OUTREACH_POSTAL_ADDRESS'] as const
  ).filter((k) => !c[k].trim());
  return { configured: missing.length === 0, missing };
}

export function repliesReadiness(c: Config): Readiness {
  const missing = c.OUTREACH_IMAP_URL ? [] : ['OUTREACH_IMAP_URL'];
  return { configured: missing.length === 0, missing };
}

export function mailIdentity(c: Config): MailIdentity {
  const base = c.OUTREACH_PUBLIC_BASE_URL || publicBaseUrl(c);
  // Strict only where mail can go out: without SMTP nothing is sent, so there is no unsubscribe link to protect,
  // and the platform must still start (the outreach send routes then answer 503 naming what to configure).
  const strict = c.NODE_ENV === 'production' && sendingReadiness(c).configured;
  if (strict && !/^https:\/\//i.test(base))
    throw new Error(
      'Invalid configuration: unsubscribe links must be HTTPS (RFC 8058): set OUTREACH_PUBLIC_BASE_URL (or PUBLIC_BASE_URL) to an https:// URL',
    );
  return {
    from: { address: c.OUTREACH_FROM_ADDRESS.trim().toLowerCase(), name: c.OUTREACH_FROM_NAME.trim() },
    postalAddress: c.OUTREACH_POSTAL_ADDRESS,
    publicBaseUrl: base,
    unsubscribeKey: unsubscribeKey(c.OUTREACH_UNSUBSCRIBE_SECRET, strict),
  };
}

export function policyEngine(db: Knex, c: Config, logger?: Pick<Logger, 'error'>): PolicyEngine {
  return new PostgresPolicyEngine(db, {
    settings: policySettings(c),
    lockTimeoutMs: c.OUTREACH_POLICY_LOCK_TIMEOUT_MS,
    logger,
  });
}

export const smtpFromConfig = (c: Config): MailTransport | undefined =>
  c.OUTREACH_SMTP_URL ? createSmtpTransport(c.OUTREACH_SMTP_URL, c.OUTREACH_MAIL_TIMEOUT_MS) : undefined;

export const mailboxFromConfig = (c: Config): Mailbox | undefined =>
  c.OUTREACH_IMAP_URL
    ? createImapMailbox(c.OUTREACH_IMAP_URL, c.OUTREACH_IMAP_MAILBOX, c.OUTREACH_MAIL_TIMEOUT_MS)
    : undefined;
export { MailboxPollState } from './poll-state';
