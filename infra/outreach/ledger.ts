/**
 * The send ledger: one row per send, keyed by its idempotency key, written
 * BEFORE the message is handed to SMTP ("intent", with the Message-ID the
 * message will carry) and marked "accepted" after the server took it. A retry
 * that finds its key accepted does not send; one that finds only the intent
 * cannot know whether the server took the message (the worker died in
 * between), so the send activity looks for the message's copy in the sender's
 * mailbox first (activities/outreach-send.ts). The reply matcher finds sends
 * by Message-ID here, consistently (no projection lag).
 */
import type { Knex } from 'knex';

export interface LedgerEntry {
  idempotency_key: string;
  message_id: string;
  attempt_id: string;
  user_id: string;
  workspace_id: string;
  campaign_id: string;
  lead_id: string;
  recipient: string;
  sender: string;
  status: 'intent' | 'accepted' | 'not_sent';
  tries: number;
  accepted_at: string | null;
}

const row = (r: Record<string, unknown>): LedgerEntry => ({
  idempotency_key: r.idempotency_key as string,
  message_id: r.message_id as string,
  attempt_id: r.attempt_id as string,
  user_id: r.user_id as string,
  workspace_id: r.workspace_id as string,
  campaign_id: r.campaign_id as string,
  lead_id: r.lead_id as string,
  recipient: r.recipient as string,
  sender: r.sender as string,
  status: r.status as LedgerEntry['status'],
  tries: Number(r.tries),
  accepted_at: r.accepted_at ? new Date(r.accepted_at as string).toISOString() : null,
});

export class SendLedger {
  constructor(private readonly db: Knex) {}

  /** Records the intent (first try) or counts another try; returns the entry as it was before this call, if any. */
  async begin(e: Omit<LedgerEntry, 'status' | 'tries' | 'accepted_at'>): Promise<LedgerEntry | undefined> {
    return this.db.transaction(async (trx) => {
      const prior = await trx('outreach_send_ledger').where({ idempotency_key: e.idempotency_key }).forUpdate().first();
      if (prior) {
        await trx('outreach_send_ledger')
          .where({ idempotency_key: e.idempotency_key })
          .update({ tries: trx.raw('tries + 1'), ...(prior.status === 'not_sent' ? { status: 'intent' } : {}) });
        return row(prior);
      }
      await trx('outreach_send_ledger').insert({ ...e, status: 'intent' });
      return undefined;
    });
  }

  async accepted(key: string, response: string, at: Date): Promise<void> {
    await this.db('outreach_send_ledger')
      .where({ idempotency_key: key })
      .update({ status: 'accepted', smtp_response: response.slice(0, 500), accepted_at: at.toISOString() });
  }

  /** This try certainly did not hand the message to the server: a retry may send. */
  async notSent(key: string): Promise<void> {
    await this.db('outreach_send_ledger')
      .where({ idempotency_key: key, status: 'intent' })
      .update({ status: 'not_sent' });
  }

  /** Sends whose Message-ID is one of `ids` (reply matching). */
  async byMessageIds(ids: string[]): Promise<LedgerEntry[]> {
    if (!ids.length) return [];
    return (await this.db('outreach_send_ledger').whereIn('message_id', ids)).map(row);
  }

  async byAttempt(attemptId: string): Promise<LedgerEntry | undefined> {
    const r = await this.db('outreach_send_ledger').where({ attempt_id: attemptId }).first();
    return r ? row(r) : undefined;
  }
}
