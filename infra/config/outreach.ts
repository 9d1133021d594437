/**
 * Configuration variables of backlink outreach (infra/outreach/,
 * workflows/outreach-*.ts; docs/outreach.md): mail servers, sender, caps and
 * time-outs.
 * Part of CONFIG_VARS (infra/config/index.ts).
 */
import type { VarSpec } from './spec';

export const OUTREACH_VARS = {
  OUTREACH_SMTP_URL: {
    type: 'string',
    default: '',
    description:
      'SMTP server outreach mail is sent through: smtp://user:pass@host:port (STARTTLS when offered; ?starttls=never|required) or smtps://...; empty = sending not configured (503)',
    schema: { pattern: '^(|smtps?://.+)$' },
  },
  OUTREACH_IMAP_URL: {
    type: 'string',
    default: '',
    description:
      'IMAP mailbox of the sender, read for replies and bounces: imap://user:pass@host:port (?starttls=never|required) or imaps://...; empty = replies not polled (503)',
    schema: { pattern: '^(|imaps?://.+)$' },
  },
  OUTREACH_IMAP_MAILBOX: { type: 'string', default: 'INBOX', description: 'IMAP folder replies arrive in' },
  OUTREACH_FROM_ADDRESS: {
    type: 'string',
    default: '',
    description: 'Sender mailbox of outreach mail (From:); its copy of each message goes to the same address',
  },
  OUTREACH_FROM_NAME: {
    type: 'string',
    default: '',
    description: 'Display name of the sender (From: and the footer of every outreach message; required to send)',
  },
  OUTREACH_POSTAL_ADDRESS: {
    type: 'string',
    default: '',
    description: 'Physical postal address printed in the footer of every outreach message (required to send)',
  },
  OUTREACH_PUBLIC_BASE_URL: {
    type: 'string',
    default: '',
    description:
      'HTTPS base URL of this API as recipients reach it, for one-click unsubscribe links (RFC 8058); empty = PUBLIC_BASE_URL; must be https in production',
    schema: { pattern: '^(|https?://.+)$' },
  },
  OUTREACH_UNSUBSCRIBE_SECRET: {
    type: 'string',
    default: '',
    description:
      'Key of the HMAC in unsubscribe links; required in production when outreach sending is configured (OUTREACH_SMTP_URL), the same for API and worker; empty in development/test = generated once into .run/outreach-unsubscribe.key',
  },
  OUTREACH_SENDER_DAILY_CAP: {
    type: 'integer',
    default: 50,
    description: 'Sends per sender mailbox, workspace and UTC day',
    schema: { minimum: 1, maximum: 100000 },
  },
  OUTREACH_DOMAIN_DAILY_CAP: {
    type: 'integer',
    default: 5,
    description: 'Sends per recipient domain, workspace and UTC day',
    schema: { minimum: 1, maximum: 100000 },
  },
  OUTREACH_WARMUP_RAMP: {
    type: 'string',
    default: '10,20,30,40',
    description:
      "Caps of a new sender mailbox's first days in a workspace (day 1, 2, ...), never above OUTREACH_SENDER_DAILY_CAP; empty = no warm-up",
    schema: { pattern: '^(|\\s*\\d+\\s*(,\\s*\\d+\\s*)*)$' },
  },
  OUTREACH_IDEMPOTENCY_WINDOW_HOURS: {
    type: 'integer',
    default: 168,
    description: 'The same recipient and subject again within this many hours is refused',
    schema: { minimum: 1, maximum: 8760 },
  },
  OUTREACH_POLICY_LOCK_TIMEOUT_MS: {
    type: 'integer',
    default: 5000,
    description: 'Longest wait of a policy check for a row lock (statements: twice this); past it the send is refused',
    schema: { minimum: 10, maximum: 60000 },
  },
  OUTREACH_MAIL_TIMEOUT_MS: {
    type: 'integer',
    default: 30000,
    description: 'Connect/greeting/socket time-out of SMTP and IMAP connections',
    schema: { minimum: 100, maximum: 300000 },
  },
  OUTREACH_REPLY_POLL_SECONDS: {
    type: 'integer',
    default: 300,
    description:
      'Interval of the Temporal Schedule that polls the mailbox for replies (created by the worker when OUTREACH_IMAP_URL is set); 0 = no schedule',
    schema: { minimum: 0, maximum: 86400 },
  },
} as const satisfies Record<string, VarSpec>;
