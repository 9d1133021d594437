/**
 * Where the reply poller got to in a mailbox (UIDVALIDITY and last UID), kept
 * in PostgreSQL. A poll holds the mailbox's row lock for its whole run, so a
 * scheduled poll and one asked for by a client never read the same messages
 * at once (the second waits, then starts after the first one's checkpoint).
 */
import type { Knex } from 'knex';

export interface PollCheckpoint {
  uidValidity?: string;
  lastUid: number;
}

export class MailboxPollState {
  constructor(private readonly db: Knex) {}

  /** Runs `work` from the mailbox's checkpoint and stores the checkpoint it returns, under the mailbox's lock. */
  async withCheckpoint<T>(
    mailbox: string,
    work: (from: PollCheckpoint) => Promise<{ result: T; next: PollCheckpoint }>,
  ): Promise<T> {
    return this.db.transaction(async (trx) => {
      await trx.raw(
        `INSERT INTO outreach_mailbox_state (mailbox, uid_validity, last_uid) VALUES (?, '', 0) ON CONFLICT DO NOTHING`,
        [mailbox],
      );
      const row = await trx('outreach_mailbox_state').where({ mailbox }).forUpdate().first();
      const { result, next } = await work({
        uidValidity: row.uid_validity || undefined,
        lastUid: Number(row.last_uid),
      });
      await trx('outreach_mailbox_state')
        .where({ mailbox })
        .update({ uid_validity: next.uidValidity ?? '', last_uid: next.lastUid, updated_at: trx.fn.now() });
      return result;
    });
  }
}
