/**
 * The reply poller's activity: reads the sender mailbox over IMAP from its
 * checkpoint, and for each new message that answers one of our sends (its
 * In-Reply-To/References, or the headers a bounce report carries, name a
 * Message-ID of the send ledger) records an OutreachReplyReceived and acts:
 * a human reply moves the lead to `replied` (an unsubscribe request also
 * suppresses the address), a permanent bounce (5.x.x) moves it to `bounced`
 * and suppresses the address, an auto-reply is recorded only. Our own copies
 * (the sender's blind copies) and messages that answer nothing of ours are
 * skipped. Every write is idempotent (event ids from the Message-ID), so a
 * message read twice is recorded once.
 */
import { simpleParser, ParsedMail, Attachment } from 'mailparser';
import type { Logger } from 'pino';
import type { EventStore } from '../infra/eventstore';
import { uuidFromKey } from '../infra/eventstore/ids';
import { handleCommand } from '../infra/eventstore/command';
import type { LedgerEntry, Mailbox, MailboxPollState, SendLedger } from '../infra/outreach';
import { addSuppression } from '../infra/outreach/suppression';
import { campaignStream, replyStream, ReplyClass, ReplyKind } from '../domain/events/outreach';
import { campaignDecider } from '../domain/outreach/campaign';
import { classifyReply, isAutoReply, messageIdsIn, ownText, parseDeliveryStatus } from '../domain/outreach/replies';
import { storableText } from '../domain/storable-text';
import { heartbeatProgress } from './heartbeat';

export interface OutreachReplyDeps {
  store: EventStore;
  ledger: SendLedger;
  /** Absent: reply polling is not configured. */
  mailbox?: Mailbox;
  pollState: MailboxPollState;
  logger?: Pick<Logger, 'warn' | 'info'>;
  /** Most messages one poll reads (the rest wait for the next poll). */
  batchSize?: number;
}

export interface FoundReply {
  replyId: string;
  userId: string;
  campaignId: string;
  kind: ReplyKind;
  classification: ReplyClass;
}

export interface PollResult {
  scanned: number;
  replies: FoundReply[];
  failed: number;
  unmatched: number;
  /** First sends whose follow-ups must stop now (their lead replied, bounced or unsubscribed). */
  stopFollowUps: string[];
}

const headerText = (m: ParsedMail, name: string): string | undefined => {
  const line = m.headerLines.find((h) => h.key === name)?.line;
  return line ? line.slice(line.indexOf(':') + 1).trim() : undefined;
};

const attachmentText = (a: Attachment) => a.content.toString('utf8');

interface Reading {
  kind: ReplyKind;
  classification: ReplyClass;
  confidence: number;
  signals: string[];
  bounce?: { status: string; permanent: boolean };
  /** Message-IDs this message refers to. */
  refs: string[];
  snippet: string;
}

/** What a message is and which sends it refers to (`raw`: its source, where a report's parts are read). */
function read(m: ParsedMail, raw: string): Reading {
  const headers: Record<string, string | undefined> = {};
  for (const k of ['auto-submitted', 'precedence', 'x-autoreply', 'x-autorespond']) headers[k] = headerText(m, k);
  const refs = [...messageIdsIn(headerText(m, 'in-reply-to')), ...messageIdsIn(headerText(m, 'references'))];
  const ctype = (headerText(m, 'content-type') ?? '').toLowerCase();
  if (ctype.startsWith('multipart/report') && /report-type\s*=\s*"?delivery-status/.test(ctype)) {
    // The report's parts (message/delivery-status, and the returned message or its headers) are read from the
    // source: parsers differ on which of them they turn into attachments.
    const dsn = m.attachments.find((a) => /delivery-status/i.test(a.contentType));
    const recipients = parseDeliveryStatus(dsn ? attachmentText(dsn) : raw);
    const first = recipients.find((r) => r.permanent) ?? recipients[0];
    const own = m.messageId;
    const embedded = [...raw.matchAll(/^Message-ID:\s*(<[^>\s]+>)/gim)].map((x) => x[1]).filter((id) => id !== own);
    return {
      kind: 'bounce',
      classification: 'bounce',
      confidence: first ? 0.95 : 0.6,
      signals: first ? [`Status: ${first.status}`, `Action: ${first.action}`] : ['delivery status report'],
      bounce: first ? { status: first.status, permanent: first.permanent } : { status: '', permanent: false },
      refs: [...embedded, ...refs],
      snippet: (first?.diagnostic ?? m.text ?? '').slice(0, 300),
    };
  }
  const subject = m.subject ?? '';
  const auto = isAutoReply(headers, subject);
  const text = ownText(m.text ?? '');
  if (auto.auto)
    return {
      kind: 'auto_reply',
      classification: 'auto_reply',
      confidence: 0.95,
      signals: [auto.signal!],
      refs,
      snippet: text.slice(0, 300),
    };
  const c = classifyReply(m.text ?? '');
  return { kind: 'reply', ...c, refs, snippet: text.slice(0, 300) };
}

export function createOutreachReplyActivities(deps: OutreachReplyDeps) {
  const batch = deps.batchSize ?? 200;

  async function record(m: ParsedMail, r: Reading, sent: LedgerEntry, messageId: string): Promise<FoundReply> {
    const replyId = uuidFromKey(`outreach-reply:${messageId}`);
    const meta = { user_id: sent.user_id, causation_id: messageId };
    await deps.store.appendOnce(
      replyStream(replyId),
      {
        type: 'OutreachReplyReceived',
        eventId: replyId,
        data: {
          reply_id: replyId,
          user_id: sent.user_id,
          workspace_id: sent.workspace_id,
          campaign_id: sent.campaign_id,
          lead_id: sent.lead_id,
          attempt_id: sent.attempt_id,
          message_id: messageId,
          from: storableText(m.from?.value[0]?.address ?? m.from?.text ?? '').slice(0, 320),
          subject: storableText(m.subject ?? '').slice(0, 500),
          received_at: (m.date ?? new Date()).toISOString(),
          kind: r.kind,
          classification: r.classification,
          confidence: r.confidence,
          signals: r.signals.map((s) => storableText(s).slice(0, 200)),
          snippet: storableText(r.snippet),
          bounce_status: r.bounce?.status || null,
        },
      },
      meta,
    );
    const move = r.kind === 'reply' ? 'reply' : r.kind === 'bounce' && r.bounce?.permanent ? 'bounce' : undefined;
    if (move)
      await handleCommand(
        deps.store,
        campaignStream(sent.campaign_id),
        campaignDecider,
        { kind: 'auto_status', campaign_id: sent.campaign_id, lead_id: sent.lead_id, cause: move, cause_id: replyId },
        { metadata: meta },
      );
    const suppress =
      r.classification === 'unsubscribe' ? 'unsubscribe_reply' : move === 'bounce' ? 'bounce' : undefined;
    if (suppress)
      await addSuppression(
        deps.store,
        {
          userId: sent.user_id,
          workspaceId: sent.workspace_id,
          entry: sent.recipient,
          kind: 'address',
          reason: suppress === 'bounce' ? `hard bounce ${r.bounce?.status}` : 'asked to unsubscribe in a reply',
          source: suppress,
        },
        meta,
      );
    return {
      replyId,
      userId: sent.user_id,
      campaignId: sent.campaign_id,
      kind: r.kind,
      classification: r.classification,
    };
  }

  return {
    async outreachPollMailbox(): Promise<PollResult> {
      const mailbox = deps.mailbox;
      if (!mailbox) throw new Error('reply polling is not configured (OUTREACH_IMAP_URL)');
      return deps.pollState.withCheckpoint(mailbox.name, async (from) => {
        const { uidValidity, messages } = await mailbox.fetchSince(from, batch);
        const out: PollResult = { scanned: messages.length, replies: [], failed: 0, unmatched: 0, stopFollowUps: [] };
        let lastUid = uidValidity === from.uidValidity ? from.lastUid : 0;
        for (const msg of messages) {
          try {
            const m = await simpleParser(msg.source);
            const messageId = m.messageId ?? `<uid-${uidValidity}-${msg.uid}@mailbox.invalid>`;
            if ((await deps.ledger.byMessageIds([messageId])).length) {
              lastUid = msg.uid; // our own copy of a send
              continue;
            }
            const r = read(m, msg.source.toString('utf8'));
            const sends = await deps.ledger.byMessageIds(r.refs);
            const sent = r.refs.map((id) => sends.find((s) => s.message_id === id)).find(Boolean);
            if (!sent) out.unmatched++;
            else {
              out.replies.push(await record(m, r, sent, messageId));
              if (r.kind === 'reply' || (r.kind === 'bounce' && r.bounce?.permanent))
                out.stopFollowUps.push(...new Set(sends.map((s) => s.attempt_id)));
            }
          } catch (e) {
            out.failed++;
            deps.logger?.warn({ err: e, uid: msg.uid }, 'outreach reply could not be processed');
          }
          lastUid = msg.uid;
          heartbeatProgress({ uid: msg.uid });
        }
        return { result: out, next: { uidValidity, lastUid } };
      });
    },
  };
}

export type OutreachReplyActivities = ReturnType<typeof createOutreachReplyActivities>;
