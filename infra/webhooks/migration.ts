/**
 * webhook_secrets: each endpoint's signing secret, encrypted (AES-256-GCM
 * with WEBHOOK_SECRET_KEY), because the delivery activity must sign with it
 * and the event only carries a fingerprint. Written in the same transaction
 * as the endpoint's WebhookRegistered event; not a projection (a replay of
 * events could not rebuild a secret it never saw).
 */
import type { Migration } from '../db/migrate';

export const webhookSecretsMigration: Migration = {
  name: '0020_webhook_secrets',
  async up(knex) {
    await knex.raw(`
      CREATE TABLE webhook_secrets (
        endpoint_id text PRIMARY KEY,
        user_id text NOT NULL,
        -- key_id: fingerprint of the encryption key, so a rotation can tell old rows from new ones
        key_id text NOT NULL,
        iv bytea NOT NULL,
        ciphertext bytea NOT NULL,
        auth_tag bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  },
  async down(knex) {
    await knex.schema.dropTableIfExists('webhook_secrets');
  },
};
