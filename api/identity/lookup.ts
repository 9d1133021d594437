/**
 * Who is calling: the one lookup behind the identity middleware, for every
 * credential kind. It reads the identity projection; when the projection has
 * not applied the credential's events yet (a key made a moment ago, the
 * projector down), it folds the credential's own stream from the event store
 * instead — the credential text names its stream, so this is one indexed read
 * and a fresh key works at once. The same happens when the projection is
 * behind the credential's or the user's stream (the row and the projection's
 * watermark of those streams are read in one snapshot, then the streams'
 * versions): a revocation, rotation or plan change takes effect the moment
 * its event is stored, even while the projector is down or moving.
 *
 * With a CredentialCache (every API process has one), a credential verified
 * lately is answered from memory; the cache drops it when its stream or its
 * user's stream changes (./credential-cache.ts), so the guarantee above holds
 * within the notification's delivery time.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Knex } from 'knex';
import { apiKeyStream, oauthTokenStream, sessionStream, userStream } from '../../domain/events/identity';
import {
  CredentialKind,
  CredentialState,
  credentialUsable,
  effectivePlan,
  foldCredential,
  foldUser,
  UserState,
} from '../../domain/identity';
import type { PlanName } from '../../domain/plans';
import type { EventStore } from '../../infra/eventstore';
import { findCredentialByHash, getUser, identityProjection } from '../../projections/identity';
import { appliedPositions, streamsBehind } from '../../projections/consistency';
import { parseCredential } from './tokens';
import { cacheKey, CredentialCache } from './credential-cache';

export interface Caller {
  userId: string;
  role: 'user' | 'admin';
  plan: PlanName;
  credential: CredentialKind;
  credentialId: string;
  environment: 'development' | 'production';
}

export function credentialStream(kind: CredentialKind, id: string): string {
  return kind === 'api_key' ? apiKeyStream(id) : kind === 'session' ? sessionStream(id) : oauthTokenStream(id);
}

const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

async function userFromStream(store: EventStore, userId: string): Promise<UserState | undefined> {
  return foldUser(await store.readStream(userStream(userId)));
}

/** The caller a credential text stands for, or undefined when it is unknown, revoked, expired or of another kind than `accepted`. */
export async function resolveCredential(
  db: Knex,
  store: EventStore,
  text: string,
  accepted: CredentialKind[],
  nowMs = Date.now(),
  cache?: CredentialCache,
): Promise<Caller | undefined> {
  const parsed = parseCredential(text);
  if (!parsed || !accepted.includes(parsed.kind)) return undefined;
  const key = cache && cacheKey(parsed.kind, parsed.hash);
  const hit = key ? cache!.get(key, nowMs) : undefined;
  if (hit) return hit.credential.id === parsed.id ? callerOf(parsed.kind, hit.credential, hit.user, nowMs) : undefined;
  const ticket = cache?.ticket() ?? 0;
  const found = await verify(db, store, parsed);
  if (!found) return undefined;
  if (key && found.credential.id === parsed.id)
    cache!.set(key, ticket, found, [credentialStream(parsed.kind, parsed.id), userStream(found.user.user_id)], nowMs);
  return callerOf(parsed.kind, found.credential, found.user, nowMs);
}

function callerOf(
  kind: CredentialKind,
  credential: CredentialState,
  user: UserState,
  nowMs: number,
): Caller | undefined {
  if (!credentialUsable(credential, nowMs)) return undefined;
  return {
    userId: user.user_id,
    role: user.role,
    plan: effectivePlan(user, nowMs),
    credential: kind,
    credentialId: credential.id,
    environment: credential.environment,
  };
}

/** The credential (matching the text's hash) and its user, from the projection or, where it is behind, the event store. */
async function verify(
  db: Knex,
  store: EventStore,
  parsed: { kind: CredentialKind; id: string; hash: string },
): Promise<{ credential: CredentialState; user: UserState } | undefined> {
  let credential: CredentialState | undefined;
  let user: UserState | undefined;
  const stream = credentialStream(parsed.kind, parsed.id);
  // The row and the projection's watermark of its streams come from one snapshot (see streamsBehind).
  const { found, applied } = await db.transaction(
    async (trx) => {
      const row = await findCredentialByHash(trx, parsed.kind, parsed.hash);
      const streams = row ? [stream, userStream(row.credential.user_id)] : [];
      return { found: row, applied: row ? await appliedPositions(trx, identityProjection.name, streams) : undefined };
    },
    { isolationLevel: 'repeatable read', readOnly: true },
  );
  const behind =
    found && applied
      ? await streamsBehind(store, applied, [stream, userStream(found.credential.user_id)])
      : new Set<string>();
  if (found && !behind.has(stream)) {
    credential = found.credential;
    if (!behind.has(userStream(found.credential.user_id))) user = found.user;
  } else {
    credential = foldCredential(await store.readStream(stream));
    if (!credential || !sameHash(credential.token_hash, parsed.hash)) return undefined;
  }
  if (credential.id !== parsed.id) return undefined;
  if (!user && !behind.has(userStream(credential.user_id))) user = await getUser(db, credential.user_id);
  user ??= await userFromStream(store, credential.user_id);
  if (!user) return undefined;
  return { credential, user };
}
