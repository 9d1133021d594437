/**
 * Sending over SMTP with nodemailer. OUTREACH_SMTP_URL is
 * `smtp://[user:password@]host[:port][?starttls=never|required]` (plain with
 * opportunistic STARTTLS; `never` skips it, e.g. a loopback test server) or
 * `smtps://...` (implicit TLS). Each message also goes to the sender's own
 * address as a blind copy, in the same SMTP transaction: the copy lands in
 * the sender's mailbox exactly when the server accepted the message, which is
 * what a retry checks before sending again (activities/outreach-send.ts).
 */
import nodemailer, { Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import type { OutgoingMessage } from '../../domain/outreach/message';

/** The server refused the message for good (5xx): sending it again would be refused too. */
export class SmtpRejectedError extends Error {
  readonly code = 'VENDOR_REQUEST_REJECTED';
  /** The server answered: the message was certainly not accepted. */
  readonly definite = true;
  constructor(message: string) {
    super(message);
    this.name = 'SmtpRejectedError';
  }
}

/**
 * The server could not be reached, answered 4xx, or the connection broke: a later try may succeed.
 * `definite`: the message was certainly not accepted (no connection, or the server answered with an error);
 * false when the connection broke while the message was being handed over (it may have been accepted).
 */
export class SmtpUnavailableError extends Error {
  readonly code = 'VENDOR_UNAVAILABLE';
  constructor(
    message: string,
    readonly definite: boolean,
  ) {
    super(message);
    this.name = 'SmtpUnavailableError';
  }
}

/** nodemailer errors that prove the message was not handed over: connecting, greeting, authenticating, the envelope. */
function certainlyNotSent(e: { responseCode?: number; code?: string; command?: string }): boolean {
  if (e.responseCode !== undefined) return true;
  if (e.command === 'CONN' || e.command === 'EHLO' || e.command === 'HELO') return true;
  return ['ECONNECTION', 'EAUTH', 'EENVELOPE', 'EDNS', 'ETLS'].includes(e.code ?? '');
}

export interface MailTransport {
  send(m: OutgoingMessage, bcc?: string): Promise<{ response: string; accepted: string[]; rejected: string[] }>;
  close(): void;
}

/** nodemailer options from OUTREACH_SMTP_URL (exported for tests). */
export function smtpOptions(url: string, timeoutMs: number): SMTPTransport.Options {
  const u = new URL(url);
  if (u.protocol !== 'smtp:' && u.protocol !== 'smtps:')
    throw new Error(`not an smtp:// or smtps:// URL: ${u.protocol}`);
  const secure = u.protocol === 'smtps:';
  const starttls = u.searchParams.get('starttls');
  return {
    host: u.hostname,
    port: u.port ? Number(u.port) : secure ? 465 : 587,
    secure,
    ...(u.username ? { auth: { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) } } : {}),
    ...(starttls === 'never' ? { ignoreTLS: true } : starttls === 'required' ? { requireTLS: true } : {}),
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  };
}

export function createSmtpTransport(url: string, timeoutMs: number): MailTransport {
  const t: Transporter<SMTPTransport.SentMessageInfo> = nodemailer.createTransport(smtpOptions(url, timeoutMs));
  return {
    async send(m, bcc) {
      try {
        const info = await t.sendMail({
          from: { name: m.from.name, address: m.from.address },
          to: m.to,
          ...(bcc ? { bcc } : {}),
          subject: m.subject,
          text: m.text,
          messageId: m.messageId,
          ...(m.inReplyTo ? { inReplyTo: m.inReplyTo, references: m.references } : {}),
          headers: m.headers,
        });
        const accepted = info.accepted.map(String);
        const rejected = info.rejected.map(String);
        if (!accepted.includes(m.to)) throw new SmtpRejectedError(`the server refused the recipient: ${info.response}`);
        return { response: info.response, accepted, rejected };
      } catch (e) {
        if (e instanceof SmtpRejectedError) throw e;
        const err = e as { responseCode?: number; code?: string; command?: string; message: string };
        const msg = `SMTP delivery failed: ${err.message}`;
        if (err.responseCode !== undefined && err.responseCode >= 500) throw new SmtpRejectedError(msg);
        throw new SmtpUnavailableError(msg, certainlyNotSent(err));
      }
    },
    close: () => t.close(),
  };
}
