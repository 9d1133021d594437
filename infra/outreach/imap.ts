/**
 * The outreach mailbox over IMAP (imapflow). OUTREACH_IMAP_URL is
 * `imap://user:password@host[:port][?starttls=never|required]` or `imaps://...`;
 * the folder is OUTREACH_IMAP_MAILBOX (default INBOX). Each call opens a
 * connection, does its work and logs out: polls are minutes apart, and a
 * short-lived connection cannot go stale between them.
 */
import { ImapFlow, ImapFlowOptions } from 'imapflow';

export interface MailboxMessage {
  uid: number;
  source: Buffer;
}

export interface Mailbox {
  readonly name: string;
  /**
   * Messages after `lastUid` (at most `limit`, oldest first) and the folder's UIDVALIDITY. When the validity
   * differs from `uidValidity` the old UIDs mean nothing any more, and the folder is read from its start.
   */
  fetchSince(
    state: { uidValidity?: string; lastUid: number },
    limit: number,
  ): Promise<{ uidValidity: string; messages: MailboxMessage[] }>;
  /** Whether a message with this Message-ID header is in the folder. */
  hasMessageId(messageId: string): Promise<boolean>;
}

export function imapOptions(url: string, timeoutMs: number): ImapFlowOptions {
  const u = new URL(url);
  if (u.protocol !== 'imap:' && u.protocol !== 'imaps:')
    throw new Error(`not an imap:// or imaps:// URL: ${u.protocol}`);
  const secure = u.protocol === 'imaps:';
  const starttls = u.searchParams.get('starttls');
  return {
    host: u.hostname,
    port: u.port ? Number(u.port) : secure ? 993 : 143,
    secure,
    ...(starttls === 'never' ? { doSTARTTLS: false } : starttls === 'required' ? { doSTARTTLS: true } : {}),
    auth: { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) },
    logger: false,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs * 4,
  };
}

export function createImapMailbox(url: string, folder: string, timeoutMs: number): Mailbox {
  const withFolder = async <T>(work: (c: ImapFlow) => Promise<T>): Promise<T> => {
    const c = new ImapFlow(imapOptions(url, timeoutMs));
    c.on('error', () => undefined); // a socket error after logout must not crash the worker; calls see it anyway
    await c.connect();
    try {
      const lock = await c.getMailboxLock(folder);
      try {
        return await work(c);
      } finally {
        lock.release();
      }
    } finally {
      await c.logout().catch(() => c.close());
    }
  };
  return {
    name: folder,
    fetchSince: (state, limit) =>
      withFolder(async (c) => {
        const box = c.mailbox as { uidValidity: bigint; exists: number };
        const uidValidity = String(box.uidValidity);
        const from = uidValidity === state.uidValidity ? state.lastUid + 1 : 1;
        const messages: MailboxMessage[] = [];
        if (box.exists > 0) {
          for await (const m of c.fetch(`${from}:*`, { uid: true, source: true }, { uid: true })) {
            // `n:*` always names the last message, even when its UID is below n.
            if (m.uid < from || !m.source) continue;
            messages.push({ uid: m.uid, source: m.source });
          }
        }
        messages.sort((a, b) => a.uid - b.uid);
        return { uidValidity, messages: messages.slice(0, limit) };
      }),
    hasMessageId: (messageId) =>
      withFolder(async (c) => {
        const found = await c.search({ header: { 'message-id': messageId } }, { uid: true });
        return Array.isArray(found) && found.length > 0;
      }),
  };
}
