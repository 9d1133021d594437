/**
 * Users' integration credentials (a Search Console refresh token), encrypted
 * with AES-256-GCM under the platform's secret key (WEBHOOK_SECRET_KEY, the
 * same SecretBox as webhook secrets) in table `integration_credentials`; the
 * associated data is `<integration>:<user_id>`, so a ciphertext copied to
 * another user's row does not decrypt. Events carry only a fingerprint.
 * Not a projection: a replay could not rebuild a secret it never saw.
 */
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { Migration } from '../db/migrate';
import type { StoreTx } from '../eventstore/port';
import { sqlTransaction } from '../eventstore/postgres';
import type { SecretBox } from '../webhooks/secrets';

export type Integration = 'search_console';

export interface StoredCredential {
  secret: string;
  /** Extra settings of the connection (e.g. Search Console's default site URL). */
  settings: Record<string, unknown>;
}

export const fingerprint = (secret: string) =>
  `sha256:${createHash('sha256').update(secret).digest('hex').slice(0, 16)}`;

export class IntegrationCredentialStore {
  constructor(
    private readonly db: Knex,
    private readonly box: SecretBox,
  ) {}

  async put(
    userId: string,
    integration: Integration,
    secret: string,
    settings: Record<string, unknown>,
    tx?: StoreTx,
  ): Promise<void> {
    const s = this.box.seal(secret, `${integration}:${userId}`);
    await (tx ? sqlTransaction(tx) : this.db)('integration_credentials')
      .insert({
        user_id: userId,
        integration,
        key_id: this.box.keyId,
        iv: s.iv,
        ciphertext: s.ciphertext,
        auth_tag: s.authTag,
        settings: JSON.stringify(settings),
      })
      .onConflict(['user_id', 'integration'])
      .merge();
  }

  async get(userId: string, integration: Integration): Promise<StoredCredential | undefined> {
    const r = await this.db('integration_credentials').where({ user_id: userId, integration }).first();
    if (!r) return undefined;
    try {
      return {
        secret: this.box.open({ iv: r.iv, ciphertext: r.ciphertext, authTag: r.auth_tag }, `${integration}:${userId}`),
        settings: r.settings ?? {},
      };
    } catch {
      throw new Error(
        `${integration} credential of user ${userId} cannot be decrypted with the configured key (key id ${this.box.keyId}, row key id ${r.key_id})`,
      );
    }
  }

  async delete(userId: string, integration: Integration, tx?: StoreTx): Promise<number> {
    return (tx ? sqlTransaction(tx) : this.db)('integration_credentials')
      .where({ user_id: userId, integration })
      .delete();
  }
}

export const integrationCredentialsMigration: Migration = {
  name: '0041_integration_credentials',
  async up(knex) {
    await knex.raw(`
      CREATE TABLE integration_credentials (
        user_id text NOT NULL,
        integration text NOT NULL,
        key_id text NOT NULL,
        iv bytea NOT NULL,
        ciphertext bytea NOT NULL,
        auth_tag bytea NOT NULL,
        settings jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, integration)
      )`);
  },
  async down(knex) {
    await knex.schema.dropTableIfExists('integration_credentials');
  },
};
