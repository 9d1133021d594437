/**
 * Identity read model: users, API keys and access tokens (session and OAuth).
 * Each row is written only by the events of its own stream (user-, apikey-,
 * session-, oauthtoken-), so replay builds the same tables. Secrets are never
 * stored; credentials are found by the SHA-256 hash of their text.
 * last_used_at is not here: it is operational metadata the rate limiter
 * writes per request (infra/ratelimit), not an event.
 *
 * Subscription columns of users (upgrade 0111): started_at (creation or last
 * plan change), cancelled_at and ends_at (set by SubscriptionCancelled,
 * cleared by the next PlanChanged). Which plan applies at a time is computed
 * by the reader (domain/identity.ts effectivePlan): expiry is not an event.
 */
import type { Knex } from 'knex';
import { defineProjection } from './framework';
import { CredentialKind, CredentialState, effectivePlan, UserState } from '../domain/identity';
import type { SubscriptionRecord } from '../domain/subscription/state';

const U = 'users';
const K = 'api_keys';
const A = 'access_tokens';

export const identityProjection = defineProjection({
  name: 'identity',
  migrationName: '0110_projection_identity',
  areas: ['identity'],
  tables: [U, K, A],
  keys: { [U]: ['user_id'], [K]: ['key_id'], [A]: ['token_id'] },
  async createTables(knex, name) {
    await knex.schema.createTable(name(U), (t) => {
      t.text('user_id').primary();
      t.text('email');
      t.text('plan').notNullable();
      t.text('role').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
    });
    await knex.schema.createTable(name(K), (t) => {
      t.text('key_id').primary();
      t.text('user_id').notNullable().index();
      t.text('name').notNullable();
      t.text('environment').notNullable();
      t.text('prefix').notNullable();
      t.text('key_hash').notNullable().unique();
      t.text('rotated_from');
      t.text('rotated_to');
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('expires_at', { useTz: true });
      t.timestamp('revoked_at', { useTz: true });
    });
    await knex.schema.createTable(name(A), (t) => {
      t.text('token_id').primary();
      t.text('kind').notNullable();
      t.text('user_id').notNullable().index();
      t.text('token_hash').notNullable().unique();
      t.text('client_id');
      t.text('scope');
      t.text('key_id');
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('expires_at', { useTz: true }).notNullable();
      t.timestamp('revoked_at', { useTz: true });
    });
  },
  upgrades: [
    {
      name: '0111_projection_identity_subscription',
      async up(knex, name) {
        await knex.schema.alterTable(name(U), (t) => {
          t.timestamp('started_at', { useTz: true });
          t.timestamp('cancelled_at', { useTz: true });
          t.timestamp('ends_at', { useTz: true });
        });
        // Rows applied before this upgrade: their last UserCreated/PlanChanged set updated_at, as replay sets started_at.
        await knex(name(U))
          .whereNull('started_at')
          .update({ started_at: knex.ref('updated_at') });
      },
      async down(knex) {
        await knex.schema.alterTable(U, (t) => {
          t.dropColumns('started_at', 'cancelled_at', 'ends_at');
        });
      },
    },
  ],
  handlers: {
    UserCreated: (e) => [
      {
        op: 'upsert',
        table: U,
        key: { user_id: e.data.user_id },
        insert: {
          email: e.data.email ?? null,
          plan: e.data.plan,
          role: e.data.role,
          created_at: e.recordedAt,
          updated_at: e.recordedAt,
          started_at: e.recordedAt,
        },
      },
    ],
    PlanChanged: (e) => [
      {
        op: 'update',
        table: U,
        key: { user_id: e.data.user_id },
        set: {
          plan: e.data.plan,
          updated_at: e.recordedAt,
          started_at: e.data.started_at ?? e.recordedAt,
          cancelled_at: null,
          ends_at: null,
        },
      },
    ],
    SubscriptionCancelled: (e) => [
      {
        op: 'update',
        table: U,
        key: { user_id: e.data.user_id },
        set: { cancelled_at: e.data.cancelled_at, ends_at: e.data.expires_at, updated_at: e.recordedAt },
      },
    ],
    ApiKeyCreated: (e) => [
      {
        op: 'upsert',
        table: K,
        key: { key_id: e.data.key_id },
        insert: {
          user_id: e.data.user_id,
          name: e.data.name,
          environment: e.data.environment,
          prefix: e.data.prefix,
          key_hash: e.data.key_hash,
          rotated_from: e.data.rotated_from ?? null,
          created_at: e.recordedAt,
        },
      },
    ],
    ApiKeyRenamed: (e) => [{ op: 'update', table: K, key: { key_id: e.data.key_id }, set: { name: e.data.name } }],
    ApiKeyRevoked: (e) => [
      { op: 'update', table: K, key: { key_id: e.data.key_id }, set: { revoked_at: e.recordedAt } },
    ],
    ApiKeyRotated: (e) => [
      {
        op: 'update',
        table: K,
        key: { key_id: e.data.old_key_id },
        set: { expires_at: e.data.grace_until, rotated_to: e.data.new_key_id },
      },
    ],
    SessionStarted: (e) => [
      {
        op: 'upsert',
        table: A,
        key: { token_id: e.data.session_id },
        insert: {
          kind: 'session',
          user_id: e.data.user_id,
          token_hash: e.data.token_hash,
          key_id: e.data.key_id,
          created_at: e.recordedAt,
          expires_at: e.data.expires_at,
        },
      },
    ],
    SessionEnded: (e) => [
      { op: 'update', table: A, key: { token_id: e.data.session_id }, set: { revoked_at: e.recordedAt } },
    ],
    OAuthTokenIssued: (e) => [
      {
        op: 'upsert',
        table: A,
        key: { token_id: e.data.token_id },
        insert: {
          kind: 'oauth',
          user_id: e.data.user_id,
          token_hash: e.data.token_hash,
          client_id: e.data.client_id,
          scope: e.data.scope,
          created_at: e.recordedAt,
          expires_at: e.data.expires_at,
        },
      },
    ],
    OAuthTokenRevoked: (e) => [
      { op: 'update', table: A, key: { token_id: e.data.token_id }, set: { revoked_at: e.recordedAt } },
    ],
  },
});

const iso = (d: Date | string | null): string | null => (d ? new Date(d).toISOString() : null);

/** The user a credential belongs to, plus the credential's state, by the hash of the credential text. */
export async function findCredentialByHash(
  db: Knex,
  kind: CredentialKind,
  tokenHash: string,
): Promise<{ credential: CredentialState; user?: UserState } | undefined> {
  const r =
    kind === 'api_key'
      ? await db(K)
          .leftJoin(U, `${U}.user_id`, `${K}.user_id`)
          .where(`${K}.key_hash`, tokenHash)
          .first(
            `${K}.key_id as id`,
            `${K}.user_id`,
            `${K}.key_hash as token_hash`,
            `${K}.environment`,
            `${K}.revoked_at`,
            `${K}.expires_at`,
            `${U}.plan`,
            `${U}.role`,
            `${U}.email`,
            `${U}.ends_at`,
          )
      : await db(A)
          .leftJoin(U, `${U}.user_id`, `${A}.user_id`)
          .where({ [`${A}.token_hash`]: tokenHash, [`${A}.kind`]: kind })
          .first(
            `${A}.token_id as id`,
            `${A}.user_id`,
            `${A}.token_hash`,
            db.raw("'production' as environment"),
            `${A}.revoked_at`,
            `${A}.expires_at`,
            `${U}.plan`,
            `${U}.role`,
            `${U}.email`,
            `${U}.ends_at`,
          );
  if (!r) return undefined;
  const credential: CredentialState = {
    kind,
    id: r.id,
    user_id: r.user_id,
    token_hash: r.token_hash,
    environment: r.environment,
    revoked: r.revoked_at !== null,
    expires_at: iso(r.expires_at),
  };
  const user: UserState | undefined = r.plan ? toUser(r, Date.now()) : undefined;
  return { credential, user };
}

/** A users row as UserState, with the plan that applies at nowMs (Free once a cancelled subscription ran out). */
function toUser(r: Record<string, unknown>, nowMs: number): UserState {
  const ends_at = iso(r.ends_at as Date | null);
  const plan = effectivePlan({ plan: r.plan as UserState['plan'], ends_at }, nowMs);
  return {
    user_id: r.user_id as string,
    plan,
    role: r.role as UserState['role'],
    ...(r.email ? { email: r.email as string } : {}),
    ...(ends_at ? { ends_at } : {}),
  };
}

/** A user; `plan` is the one whose limits apply at nowMs (default now), which the usage meter enforces. */
export async function getUser(db: Knex, userId: string, nowMs: number = Date.now()): Promise<UserState | undefined> {
  const r = await db(U).where({ user_id: userId }).first();
  return r ? toUser(r, nowMs) : undefined;
}

/** A user's subscription as recorded (the subscribed plan, even when expired); the API derives status and dates from it. */
export async function getSubscriptionRecord(db: Knex, userId: string): Promise<SubscriptionRecord | undefined> {
  const r = await db(U).where({ user_id: userId }).first('user_id', 'plan', 'started_at', 'created_at', 'ends_at');
  return r
    ? { user_id: r.user_id, plan: r.plan, started_at: iso(r.started_at ?? r.created_at)!, ends_at: iso(r.ends_at) }
    : undefined;
}

export interface ApiKeyRecord {
  key_id: string;
  prefix: string;
  name: string;
  environment: 'development' | 'production';
  created_at: string;
  /** End of the grace period of a rotated key; null while the key has no end. */
  expires_at: string | null;
  rotated_to: string | null;
  rotated_from: string | null;
}

function toKey(r: Record<string, unknown>): ApiKeyRecord {
  return {
    key_id: r.key_id as string,
    prefix: r.prefix as string,
    name: r.name as string,
    environment: r.environment as ApiKeyRecord['environment'],
    created_at: iso(r.created_at as Date)!,
    expires_at: iso(r.expires_at as Date | null),
    rotated_to: (r.rotated_to as string | null) ?? null,
    rotated_from: (r.rotated_from as string | null) ?? null,
  };
}

/** A user's keys that are not revoked, newest first (rotated keys stay listed with their grace end). */
export async function listApiKeys(db: Knex, userId: string): Promise<ApiKeyRecord[]> {
  const rows = await db(K)
    .where({ user_id: userId })
    .whereNull('revoked_at')
    .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'key_id' }]);
  return rows.map(toKey);
}

/** One of the user's keys; another user's key and a revoked key are indistinguishable from a missing one. */
export async function getApiKey(db: Knex, userId: string, keyId: string): Promise<ApiKeyRecord | undefined> {
  const r = await db(K).where({ user_id: userId, key_id: keyId }).whereNull('revoked_at').first();
  return r ? toKey(r) : undefined;
}
