/**
 * Outreach state that must hold atomically, kept beside the event store (not
 * read models: they decide, in the same transaction as the action):
 * - outreach_suppression_index: suppressed addresses and @domains per workspace (written with the
 *   OutreachSuppressionAdded event, in one transaction);
 * - outreach_policy_counters: sends per sender mailbox and per recipient domain and UTC day;
 * - outreach_senders: first day a sender mailbox sent in a workspace (warm-up ramp);
 * - outreach_send_claims: last send of a recipient + subject (idempotency window);
 * - outreach_contacts: the legal basis recorded per contact;
 * - outreach_policy_reservations: each send's decision under its attempt id (a retry gets the same answer);
 * - outreach_send_ledger: send intent and SMTP acceptance per idempotency key (never send twice);
 * - outreach_mailbox_state: the last IMAP UID the reply poller processed per mailbox.
 */
import type { Migration } from '../db/migrate';

export const outreachMigration: Migration = {
  name: '0020_outreach_policy',
  async up(knex) {
    await knex.raw(`
      CREATE TABLE outreach_suppression_index (
        user_id text NOT NULL,
        workspace_id text NOT NULL,
        entry text NOT NULL,
        PRIMARY KEY (user_id, workspace_id, entry)
      );
      CREATE TABLE outreach_policy_counters (
        user_id text NOT NULL,
        workspace_id text NOT NULL,
        counter text NOT NULL,
        day date NOT NULL,
        count integer NOT NULL DEFAULT 0 CHECK (count >= 0),
        PRIMARY KEY (user_id, workspace_id, counter, day)
      );
      CREATE TABLE outreach_senders (
        user_id text NOT NULL,
        workspace_id text NOT NULL,
        sender text NOT NULL,
        first_day date NOT NULL,
        PRIMARY KEY (user_id, workspace_id, sender)
      );
      CREATE TABLE outreach_send_claims (
        user_id text NOT NULL,
        workspace_id text NOT NULL,
        recipient text NOT NULL,
        subject_key text NOT NULL,
        attempt_id text NOT NULL,
        claimed_at timestamptz NOT NULL,
        PRIMARY KEY (user_id, workspace_id, recipient, subject_key)
      );
      CREATE TABLE outreach_contacts (
        user_id text NOT NULL,
        workspace_id text NOT NULL,
        email text NOT NULL,
        legal_basis text NOT NULL,
        recorded_at timestamptz NOT NULL,
        PRIMARY KEY (user_id, workspace_id, email)
      );
      CREATE TABLE outreach_policy_reservations (
        attempt_id text PRIMARY KEY,
        user_id text NOT NULL,
        workspace_id text NOT NULL,
        status text NOT NULL CHECK (status IN ('reserved', 'released', 'refused')),
        day date NOT NULL,
        counters jsonb NOT NULL,
        result jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE outreach_send_ledger (
        idempotency_key text PRIMARY KEY,
        message_id text NOT NULL UNIQUE,
        attempt_id text NOT NULL,
        user_id text NOT NULL,
        workspace_id text NOT NULL,
        campaign_id text NOT NULL,
        lead_id text NOT NULL,
        recipient text NOT NULL,
        sender text NOT NULL,
        status text NOT NULL CHECK (status IN ('intent', 'accepted', 'not_sent')),
        tries integer NOT NULL DEFAULT 1,
        smtp_response text,
        created_at timestamptz NOT NULL DEFAULT now(),
        accepted_at timestamptz
      );
      CREATE INDEX outreach_send_ledger_attempt ON outreach_send_ledger (attempt_id);
      CREATE TABLE outreach_mailbox_state (
        mailbox text PRIMARY KEY,
        uid_validity text NOT NULL,
        last_uid bigint NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
    `);
  },
  async down(knex) {
    await knex.raw(`
      DROP TABLE IF EXISTS outreach_mailbox_state; DROP TABLE IF EXISTS outreach_send_ledger;
      DROP TABLE IF EXISTS outreach_policy_reservations; DROP TABLE IF EXISTS outreach_contacts;
      DROP TABLE IF EXISTS outreach_send_claims; DROP TABLE IF EXISTS outreach_senders;
      DROP TABLE IF EXISTS outreach_policy_counters; DROP TABLE IF EXISTS outreach_suppression_index;
    `);
  },
};
