/**
 * Verified credentials, cached in each API process (docs/api.md,
 * "Credentials"). A hit costs no PostgreSQL round trip; the entry holds the
 * credential's and its user's state, so expiry, rotation grace and a plan's
 * end date are still judged against the clock on every request.
 *
 * Freshness is the notified cache's (infra/db/notified-cache.ts): every event
 * appended to an identity stream (user-, apikey-, session-, oauthtoken-) makes
 * PostgreSQL send `NOTIFY identity_changes` with the stream as the tag when it
 * commits (a trigger on es_events: infra/db/migrations/0050_api_speed.ts),
 * whoever appended it and whether or not the projector runs; an entry is
 * tagged with its credential's and its user's streams. So a revocation,
 * rotation, session end or plan change takes effect in every API process when
 * the notification arrives (milliseconds after the commit), and never later
 * than `ttlMs`; in the process that appended it, before its request answers
 * (the event store's commit hook calls `forget`).
 */
import type { CredentialKind, CredentialState, UserState } from '../../domain/identity';
import { IDENTITY_CHANNEL } from '../../infra/db/migrations/0050_api_speed';
import { NotifiedCache } from '../../infra/db/notified-cache';

export interface CachedCredential {
  credential: CredentialState;
  user: UserState;
}

export interface CredentialCacheOptions {
  /** How long a verified credential is kept, ms (0: no cache). */
  ttlMs: number;
  /** Most entries kept (oldest go first). */
  maxEntries?: number;
  onError?(e: Error): void;
}

export class CredentialCache extends NotifiedCache<CachedCredential> {
  constructor(opts: CredentialCacheOptions) {
    super({ ...opts, channel: IDENTITY_CHANNEL });
  }

  /**
   * Streams this process has just appended to (the event store's commit hook):
   * the entries of its identity streams go at once, so the request that
   * revoked or rotated a credential is answered only after this process has
   * forgotten it. Other processes learn of it by NOTIFY.
   */
  forget(streamIds: readonly string[]): void {
    this.invalidate(streamIds.filter((s) => IDENTITY_STREAM.test(s)));
  }
}

/** The streams whose events can change a verified credential (the trigger of 0050_api_speed notifies the same). */
const IDENTITY_STREAM = /^(user|apikey|session|oauthtoken)-/;

export const cacheKey = (kind: CredentialKind, hash: string) => `${kind}:${hash}`;
