/**
 * The outreach message as it goes out (pure): plain text body with the
 * physical-address footer and the unsubscribe line, RFC 8058 one-click
 * unsubscribe headers, and a Message-ID made from the attempt id, so a reply's
 * In-Reply-To/References (or a bounce's copy of the headers) leads back to the
 * send. A follow-up answers in the thread of its first send.
 */
import { domainOf } from './normalize';

export interface OutgoingMessage {
  from: { name: string; address: string };
  to: string;
  subject: string;
  text: string;
  messageId: string;
  inReplyTo?: string;
  references?: string[];
  headers: Record<string, string>;
}

/** `<outreach.<attempt id>@<sender domain>>`: unique per send and stable across retries. */
export const messageIdFor = (attemptId: string, sender: string) => `<outreach.${attemptId}@${domainOf(sender)}>`;

export function buildMessage(m: {
  attemptId: string;
  from: { name: string; address: string };
  to: string;
  subject: string;
  body: string;
  postalAddress: string;
  unsubscribeUrl: string;
  /** Message-ID of the first send, for a follow-up. */
  inReplyTo?: string;
}): OutgoingMessage {
  const footer = [
    '--',
    m.from.name || m.from.address,
    m.postalAddress.trim(),
    `You received this because of your site's public contact details. To stop these emails, reply "unsubscribe" or open: ${m.unsubscribeUrl}`,
  ].join('\n');
  return {
    from: m.from,
    to: m.to,
    subject: m.subject,
    text: `${m.body.replace(/\s+$/, '')}\n\n${footer}\n`,
    messageId: messageIdFor(m.attemptId, m.from.address),
    ...(m.inReplyTo ? { inReplyTo: m.inReplyTo, references: [m.inReplyTo] } : {}),
    headers: {
      'List-Unsubscribe': `<${m.unsubscribeUrl}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      // RFC 3834: a human-triggered message; auto-responders may answer it.
      'Auto-Submitted': 'no',
    },
  };
}
