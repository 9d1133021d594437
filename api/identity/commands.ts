/**
 * Identity commands: each runs a decider of domain/identity through
 * handleCommand (read the stream, fold, decide, append with the expected
 * version), so two concurrent changes of one key cannot both win. Used by the
 * settings routes, the subscription routes and the CLI. Callers that serve a
 * following read wait for the identity projection.
 */
import { randomUUID } from 'node:crypto';
import {
  ApiKeyAggregate,
  ApiKeyCommand,
  apiKeyDecider,
  sessionDecider,
  userDecider,
  UserCommand,
} from '../../domain/identity';
import {
  apiKeyStream,
  KeyEnvironment,
  PlanActor,
  PlanKey,
  sessionStream,
  userStream,
  UserRole,
} from '../../domain/events/identity';
import type { EventMetadata, EventStore, EventStoreOps, RecordedEvent } from '../../infra/eventstore';
import { handleCommand, handleCommands, streamCommand } from '../../infra/eventstore/command';
import { newApiKey, NewCredential, newSessionToken } from './tokens';

export interface IdentityDeps {
  store: EventStore;
}

export interface Written<T> {
  value: T;
  /** The events written; wait for the last one before serving a read. */
  events: RecordedEvent[];
}

/** Runs a command on the user's stream. */
export const runUserCommand = (store: EventStoreOps, userId: string, command: UserCommand, meta: EventMetadata = {}) =>
  handleCommand(store, userStream(userId), userDecider, command, { metadata: { ...meta, user_id: userId } });

export async function createUser(
  d: IdentityDeps,
  input: { plan: PlanKey; email?: string; role?: UserRole },
  meta: EventMetadata = {},
): Promise<Written<{ user_id: string }>> {
  const user_id = randomUUID();
  const r = await runUserCommand(
    d.store,
    user_id,
    { kind: 'create', user_id, plan: input.plan, role: input.role ?? 'user', email: input.email },
    meta,
  );
  return { value: { user_id }, events: r.events };
}

/** An operator's plan change at the console (CLI, `actor` names them): no subscription rule applies. */
export async function changePlan(
  d: IdentityDeps,
  userId: string,
  plan: PlanKey,
  actor: PlanActor,
  meta: EventMetadata = {},
): Promise<Written<{ plan: PlanKey }>> {
  const r = await runUserCommand(d.store, userId, { kind: 'set_plan', plan, actor }, meta);
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

/** The create command of a new key (`k` made by newApiKey) and what the caller is shown once. */
function newKeyCommand(
  k: NewCredential,
  userId: string,
  input: { name: string; environment: KeyEnvironment },
  rotatedFrom?: string,
): { command: ApiKeyCommand; created: CreatedKey } {
  const key = {
    key_id: k.id,
    user_id: userId,
    name: input.name,
    environment: input.environment,
    prefix: k.id,
    key_hash: k.hash,
    ...(rotatedFrom ? { rotated_from: rotatedFrom } : {}),
  };
  const created: CreatedKey = {
    key_id: k.id,
    prefix: k.id,
    name: input.name,
    environment: input.environment,
    key: k.text,
  };
  return { command: { kind: 'create', key }, created };
}

export async function createApiKey(
  d: IdentityDeps,
  userId: string,
  input: { name: string; environment: KeyEnvironment },
  meta: EventMetadata = {},
): Promise<Written<CreatedKey>> {
  const k = newApiKey(input.environment);
  const { command, created } = newKeyCommand(k, userId, input);
  const r = await handleCommands(
    d.store,
    [streamCommand({ streamId: apiKeyStream(k.id), decider: apiKeyDecider, command, expect: 'new' })],
    { metadata: { ...meta, user_id: userId } },
  );
  return { value: created, events: r.events };
}

const runKeyCommand = (d: IdentityDeps, keyId: string, userId: string, command: ApiKeyCommand, meta: EventMetadata) =>
  handleCommand(d.store, apiKeyStream(keyId), apiKeyDecider, command, { metadata: { ...meta, user_id: userId } });

export async function renameApiKey(
  d: IdentityDeps,
  userId: string,
  keyId: string,
  name: string,
  meta: EventMetadata = {},
  now = new Date(),
): Promise<Written<null>> {
  const r = await runKeyCommand(d, keyId, userId, { kind: 'rename', user_id: userId, name, now }, meta);
  return { value: null, events: r.events };
}

export async function revokeApiKey(
  d: IdentityDeps,
  userId: string,
  keyId: string,
  meta: EventMetadata = {},
  now = new Date(),
): Promise<Written<null>> {
  const r = await runKeyCommand(d, keyId, userId, { kind: 'revoke', user_id: userId, now }, meta);
  return { value: null, events: r.events };
}

/**
 * Makes a new key with the same name (unless given) and environment; the old
 * key keeps working until `grace_until` (now + graceSeconds). The rotation is
 * decided on the old key's state; both streams are appended in one call, so a
 * conflicting change of the old key (409) creates no successor either.
 */
export async function rotateApiKey(
  d: IdentityDeps,
  userId: string,
  keyId: string,
  graceSeconds: number,
  name: string | undefined,
  meta: EventMetadata = {},
  now = new Date(),
): Promise<Written<CreatedKey & { grace_until: string; rotated_from: string }>> {
  const grace_until = new Date(now.getTime() + graceSeconds * 1000).toISOString();
  const oldStream = apiKeyStream(keyId);
  // The successor keeps the old key's environment (and its name unless given); it is stored first, then the rotation.
  const environment =
    (await d.store.aggregateStream(oldStream, apiKeyDecider.evolve, apiKeyDecider.initialState)).state.key
      ?.environment ?? 'development';
  const k = newApiKey(environment);
  let created: CreatedKey | undefined;
  const r = await handleCommands(
    d.store,
    [
      streamCommand({
        streamId: apiKeyStream(k.id),
        decider: apiKeyDecider,
        expect: 'new',
        command: (states) => {
          const old = states.get(oldStream) as ApiKeyAggregate;
          const next = newKeyCommand(k, userId, { name: name ?? old.name ?? 'rotated key', environment }, keyId);
          created = next.created;
          return next.command;
        },
      }),
      streamCommand({
        streamId: oldStream,
        decider: apiKeyDecider,
        command: { kind: 'rotate', user_id: userId, now, new_key_id: k.id, grace_until },
      }),
    ],
    { metadata: { ...meta, user_id: userId } },
  );
  return { value: { ...created!, grace_until, rotated_from: keyId }, events: r.events };
}

/** A session token for the outreach and image studio families, made with an API key; expires after ttlSeconds. */
export async function startSession(
  d: IdentityDeps,
  userId: string,
  keyId: string,
  ttlSeconds: number,
  meta: EventMetadata = {},
): Promise<Written<{ session_id: string; token: string; expires_at: string }>> {
  const t = newSessionToken();
  const expires_at = new Date(Date.now() + ttlSeconds * 1000).toISOString();
  const r = await handleCommand(
    d.store,
    sessionStream(t.id),
    sessionDecider,
    { kind: 'start', session_id: t.id, user_id: userId, token_hash: t.hash, expires_at, key_id: keyId },
    { metadata: { ...meta, user_id: userId } },
  );
  return { value: { session_id: t.id, token: t.text, expires_at }, events: r.events };
}

/** Ends the caller's session token (404 when it is not theirs or already ended). */
export async function endSession(
  d: IdentityDeps,
  userId: string,
  sessionId: string,
  meta: EventMetadata = {},
): Promise<Written<null>> {
  const r = await handleCommand(
    d.store,
    sessionStream(sessionId),
    sessionDecider,
    { kind: 'end', user_id: userId },
    { metadata: { ...meta, user_id: userId } },
  );
  return { value: null, events: r.events };
}
