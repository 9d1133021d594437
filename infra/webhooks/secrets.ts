/**
 * Encrypted storage of endpoint signing secrets (table webhook_secrets).
 * AES-256-GCM with a 96-bit random IV per row; the endpoint id is the
 * additional authenticated data, so a ciphertext copied to another endpoint's
 * row does not decrypt. Secrets never appear in logs or events.
 */
import type { Knex } from 'knex';
import type { StoreTx } from '../eventstore/port';
import { sqlTransaction } from '../eventstore/postgres';
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

export class SecretBox {
  readonly keyId: string;
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('webhook secret key must be 32 bytes');
    this.keyId = createHash('sha256').update(key).digest('hex').slice(0, 12);
  }

  seal(plain: string, aad: string): { iv: Buffer; ciphertext: Buffer; authTag: Buffer } {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', this.key, iv);
    c.setAAD(Buffer.from(aad, 'utf8'));
    const ciphertext = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
    return { iv, ciphertext, authTag: c.getAuthTag() };
  }

  open(sealed: { iv: Buffer; ciphertext: Buffer; authTag: Buffer }, aad: string): string {
    const d = createDecipheriv('aes-256-gcm', this.key, sealed.iv);
    d.setAAD(Buffer.from(aad, 'utf8'));
    d.setAuthTag(sealed.authTag);
    return Buffer.concat([d.update(sealed.ciphertext), d.final()]).toString('utf8');
  }
}

export class WebhookSecretStore {
  constructor(
    private readonly db: Knex,
    private readonly box: SecretBox,
  ) {}

  /** Stores (or replaces) an endpoint's secret; pass the event store transaction that appends its event. */
  async put(endpointId: string, userId: string, secret: string, tx?: StoreTx): Promise<void> {
    const s = this.box.seal(secret, endpointId);
    await (tx ? sqlTransaction(tx) : this.db)('webhook_secrets')
      .insert({
        endpoint_id: endpointId,
        user_id: userId,
        key_id: this.box.keyId,
        iv: s.iv,
        ciphertext: s.ciphertext,
        auth_tag: s.authTag,
      })
      .onConflict('endpoint_id')
      .merge();
  }

  /** The endpoint's secret, or undefined when none is stored. Throws when it cannot be decrypted (wrong key). */
  async get(endpointId: string): Promise<string | undefined> {
    const r = await this.db('webhook_secrets').where({ endpoint_id: endpointId }).first();
    if (!r) return undefined;
    try {
      return this.box.open({ iv: r.iv, ciphertext: r.ciphertext, authTag: r.auth_tag }, endpointId);
    } catch {
      throw new Error(
        `webhook secret of endpoint ${endpointId} cannot be decrypted with the configured WEBHOOK_SECRET_KEY (key id ${this.box.keyId}, row key id ${r.key_id})`,
      );
    }
  }

  async delete(endpointId: string, tx?: StoreTx): Promise<void> {
    await (tx ? sqlTransaction(tx) : this.db)('webhook_secrets').where({ endpoint_id: endpointId }).delete();
  }
}
