/**
 * Identity commands: each loads the aggregate it changes from its own stream
 * (the event store is the source of truth for decisions), checks the rule,
 * and appends with the expected version, so two concurrent changes of one key
 * cannot both win (the loser gets 409). Used by the settings routes and the
 * CLI. Callers that serve a following read wait for the identity projection.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { ConflictError, NotFoundError } from '../../domain/errors';
import { apiKeyStream, KeyEnvironment, PlanKey, sessionStream, userStream, UserRole } from '../../domain/events/identity';
import { CredentialState, credentialUsable, foldCredential, foldUser } from '../../domain/identity';
import type { EventMetadata, RecordedEvent } from '../../infra/eventstore/port';
import type { PostgresEventStore } from '../../infra/eventstore/postgres';
import { newApiKey, NewCredential, newSessionToken } from './tokens';

export interface IdentityDeps {
  db: Knex;
  store: PostgresEventStore;
}

export interface Written<T> {
  value: T;
  /** The events written; wait for the last one before serving a read. */
  events: RecordedEvent[];
}

export async function createUser(d: IdentityDeps, input: { plan: PlanKey; email?: string; role?: UserRole }, meta: EventMetadata = {}): Promise<Written<{ user_id: string }>> {
  const user_id = randomUUID();
  const r = await d.store.append(userStream(user_id), [{ type: 'UserCreated', data: { user_id, plan: input.plan, role: input.role ?? 'user', ...(input.email ? { email: input.email } : {}) } }], 'no_stream', { ...meta, user_id });
  return { value: { user_id }, events: r.events };
}

export async function changePlan(d: IdentityDeps, userId: string, plan: PlanKey, meta: EventMetadata = {}): Promise<Written<{ plan: PlanKey }>> {
  const events = await d.store.readStream(userStream(userId));
  const user = foldUser(events as Parameters<typeof foldUser>[0]);
  if (!user) throw new NotFoundError('User not found');
  const r = await d.store.append(userStream(userId), [{ type: 'PlanChanged', data: { user_id: userId, plan, previous_plan: user.plan } }], events.length - 1, { ...meta, user_id: userId });
  return { value: { plan }, events: r.events };
}

export interface CreatedKey {
  key_id: string;
  prefix: string;
  name: string;
  environment: KeyEnvironment;
  /** The whole key text: returned once, never stored. */
  key: string;
}

export async function createApiKey(d: IdentityDeps, userId: string, input: { name: string; environment: KeyEnvironment }, meta: EventMetadata = {}, trx?: Knex.Transaction, rotatedFrom?: string): Promise<Written<CreatedKey>> {
  const k: NewCredential = newApiKey(input.environment);
  const data = { key_id: k.id, user_id: userId, name: input.name, environment: input.environment, prefix: k.id, key_hash: k.hash, ...(rotatedFrom ? { rotated_from: rotatedFrom } : {}) };
  const r = await d.store.append(apiKeyStream(k.id), [{ type: 'ApiKeyCreated', data }], 'no_stream', { ...meta, user_id: userId }, trx);
  return { value: { key_id: k.id, prefix: k.id, name: input.name, environment: input.environment, key: k.text }, events: r.events };
}

/** The caller's live key and its stream version; another user's, revoked or expired key is "not found". */
async function ownKey(d: IdentityDeps, userId: string, keyId: string): Promise<{ key: CredentialState; version: number }> {
  const events = await d.store.readStream(apiKeyStream(keyId));
  const key = foldCredential(events as Parameters<typeof foldCredential>[0]);
  if (!key || key.kind !== 'api_key' || key.user_id !== userId || !credentialUsable(key, Date.now())) throw new NotFoundError('API key not found');
  return { key, version: events.length - 1 };
}

export async function renameApiKey(d: IdentityDeps, userId: string, keyId: string, name: string, meta: EventMetadata = {}): Promise<Written<null>> {
  const { version } = await ownKey(d, userId, keyId);
  const r = await d.store.append(apiKeyStream(keyId), [{ type: 'ApiKeyRenamed', data: { key_id: keyId, user_id: userId, name } }], version, { ...meta, user_id: userId });
  return { value: null, events: r.events };
}

export async function revokeApiKey(d: IdentityDeps, userId: string, keyId: string, meta: EventMetadata = {}): Promise<Written<null>> {
  const { version } = await ownKey(d, userId, keyId);
  const r = await d.store.append(apiKeyStream(keyId), [{ type: 'ApiKeyRevoked', data: { key_id: keyId, user_id: userId } }], version, { ...meta, user_id: userId });
  return { value: null, events: r.events };
}

/**
 * Makes a new key with the same name and environment; the old key keeps
 * working until `grace_until` (now + graceSeconds). Both appends commit in
 * one transaction. A key already rotated cannot be rotated again (409).
 */
export async function rotateApiKey(d: IdentityDeps, userId: string, keyId: string, graceSeconds: number, name: string | undefined, meta: EventMetadata = {}): Promise<Written<CreatedKey & { grace_until: string; rotated_from: string }>> {
  const { key, version } = await ownKey(d, userId, keyId);
  if (key.expires_at) throw new ConflictError('This key was already rotated; rotate its successor instead', { key_id: keyId });
  const grace_until = new Date(Date.now() + graceSeconds * 1000).toISOString();
  return d.db.transaction(async (trx) => {
    const keyName = name ?? (await latestName(d, keyId)) ?? 'rotated key';
    const created = await createApiKey(d, userId, { name: keyName, environment: key.environment }, meta, trx, keyId);
    const rotated = await d.store.append(apiKeyStream(keyId), [{ type: 'ApiKeyRotated', data: { old_key_id: keyId, new_key_id: created.value.key_id, user_id: userId, grace_until } }], version, { ...meta, user_id: userId }, trx);
    return { value: { ...created.value, grace_until, rotated_from: keyId }, events: [...created.events, ...rotated.events] };
  });
}

async function latestName(d: IdentityDeps, keyId: string): Promise<string | undefined> {
  let name: string | undefined;
  for (const e of await d.store.readStream(apiKeyStream(keyId))) {
    if (e.type === 'ApiKeyCreated' || e.type === 'ApiKeyRenamed') name = (e.data as { name: string }).name;
  }
  return name;
}

/** A session token for the outreach family, made with an API key; expires after ttlSeconds. */
export async function startSession(d: IdentityDeps, userId: string, keyId: string, ttlSeconds: number, meta: EventMetadata = {}): Promise<Written<{ session_id: string; token: string; expires_at: string }>> {
  const t = newSessionToken();
  const expires_at = new Date(Date.now() + ttlSeconds * 1000).toISOString();
  const r = await d.store.append(sessionStream(t.id), [{ type: 'SessionStarted', data: { session_id: t.id, user_id: userId, token_hash: t.hash, expires_at, key_id: keyId } }], 'no_stream', { ...meta, user_id: userId });
  return { value: { session_id: t.id, token: t.text, expires_at }, events: r.events };
}
