/**
 * Idempotency keys of the developer API, in PostgreSQL so every API process
 * shares them. One row per (user, key): who claimed it, the fingerprint of the
 * request (method, route, canonical body), and once answered, the answer.
 *
 * claim: one `INSERT ... ON CONFLICT DO UPDATE ... WHERE <expired or
 * abandoned> RETURNING`, so of two concurrent requests with the same key
 * exactly one claims it; the other reads the row and is told it is in
 * progress (or, once answered, gets the answer). A row is retaken only when
 * its retention window has passed, or when it has been "in progress" longer
 * than `abandonAfterSeconds` (the process that claimed it died).
 */
import type { Knex } from 'knex';
import type { Migration } from '../db/migrate';

export interface StoredAnswer {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

export type ClaimOutcome =
  { kind: 'claimed' } | { kind: 'mismatch' } | { kind: 'in_progress' } | { kind: 'answered'; answer: StoredAnswer };

export interface IdempotencyOptions {
  /** How long a key and its answer are kept (s). */
  ttlSeconds: number;
  /** An "in progress" row older than this is taken over (s). */
  abandonAfterSeconds: number;
}

export class PostgresIdempotencyStore {
  constructor(private readonly db: Knex) {}

  async claim(
    userId: string,
    key: string,
    fingerprint: string,
    route: string,
    opts: IdempotencyOptions,
  ): Promise<ClaimOutcome> {
    // Expired rows are swept a few at a time by the requests that pass (the index on expires_at keeps it cheap).
    await this.db.raw(
      `DELETE FROM idempotency_keys WHERE ctid IN (SELECT ctid FROM idempotency_keys WHERE expires_at < now() LIMIT 20)`,
    );
    const r = await this.db.raw(
      `INSERT INTO idempotency_keys AS k (user_id, key, fingerprint, route, state, created_at, expires_at)
         VALUES (?, ?, ?, ?, 'in_progress', now(), now() + make_interval(secs => ?))
       ON CONFLICT (user_id, key) DO UPDATE
         SET fingerprint = excluded.fingerprint, route = excluded.route, state = 'in_progress', status = NULL,
             body = NULL, headers = NULL, created_at = now(), expires_at = excluded.expires_at
         WHERE k.expires_at <= now()
            OR (k.state = 'in_progress' AND k.created_at < now() - make_interval(secs => ?))
       RETURNING 1`,
      [userId, key, fingerprint, route, opts.ttlSeconds, opts.abandonAfterSeconds],
    );
    if (r.rows.length) return { kind: 'claimed' };
    const row = await this.db('idempotency_keys').where({ user_id: userId, key }).first();
    if (!row) return this.claim(userId, key, fingerprint, route, opts); // swept between the two statements
    if (row.fingerprint !== fingerprint) return { kind: 'mismatch' };
    if (row.state !== 'done') return { kind: 'in_progress' };
    return { kind: 'answered', answer: { status: row.status, body: row.body, headers: row.headers ?? {} } };
  }

  /** Stores the answer of a claimed key. */
  async answer(userId: string, key: string, answer: StoredAnswer): Promise<void> {
    await this.db('idempotency_keys')
      .where({ user_id: userId, key, state: 'in_progress' })
      .update({
        state: 'done',
        status: answer.status,
        body: JSON.stringify(answer.body ?? null),
        headers: JSON.stringify(answer.headers),
      });
  }

  /** Gives a claimed key back (the answer is not one to repeat: a server error, a limit to retry after). */
  async release(userId: string, key: string): Promise<void> {
    await this.db('idempotency_keys').where({ user_id: userId, key, state: 'in_progress' }).delete();
  }
}

export const idempotencyMigration: Migration = {
  name: '0042_idempotency_keys',
  async up(knex) {
    await knex.raw(`
      CREATE TABLE idempotency_keys (
        user_id text NOT NULL,
        key text NOT NULL,
        fingerprint text NOT NULL,
        route text NOT NULL,
        state text NOT NULL,
        status integer,
        body jsonb,
        headers jsonb,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (user_id, key)
      );
      CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);
    `);
  },
  async down(knex) {
    await knex.schema.dropTableIfExists('idempotency_keys');
  },
};
