/**
 * sitebuilder_tokens: each user's site-builder tokens, encrypted (AES-256-GCM
 * with a key derived from SITEBUILDER_TOKEN_KEY; the user and connection ids
 * are the additional authenticated data). Written in the same transaction as
 * the connection's events; not a projection (events never carry a token, so
 * a replay could not rebuild it). access_expires_at is plain so the refresh
 * decision needs no decryption.
 */
import type { Migration } from '../db/migrate';

export const sitebuilderTokensMigration: Migration = {
  name: '0030_sitebuilder_tokens',
  async up(knex) {
    await knex.raw(`
      CREATE TABLE sitebuilder_tokens (
        user_id text PRIMARY KEY,
        connection_id text NOT NULL,
        -- key_id: fingerprint of the encryption key, so a rotation can tell old rows from new ones
        key_id text NOT NULL,
        iv bytea NOT NULL,
        ciphertext bytea NOT NULL,
        auth_tag bytea NOT NULL,
        access_expires_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  },
  async down(knex) {
    await knex.schema.dropTableIfExists('sitebuilder_tokens');
  },
};
