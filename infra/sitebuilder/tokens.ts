/**
 * The connection's tokens at rest and their refresh.
 *
 * Stored encrypted (SecretBox of infra/webhooks/secrets.ts) in
 * sitebuilder_tokens, one row per user. `accessToken` hands out a token that
 * is valid for at least the refresh margin: a token expiring sooner is
 * refreshed first, under a row lock so two activities never spend one
 * (rotating) refresh token twice, and the new tokens and the
 * SitebuilderTokenRefreshed event commit together. When the builder refuses
 * the refresh (invalid_grant: the site owner revoked the app), the tokens are
 * deleted and the connection is recorded as revoked by the builder.
 */
import type { Knex } from 'knex';
import { sitebuilderDecider } from '../../domain/sitebuilder/connection';
import { sitebuilderStream } from '../../domain/events/sitebuilder';
import type { EventStore, StoreTx } from '../eventstore';
import { handleCommand } from '../eventstore/command';
import { sqlTransaction } from '../eventstore/postgres';
import { SecretBox } from '../webhooks/secrets';
import { InvalidGrantError, SitebuilderError } from './errors';
import type { OAuthClient, TokenSet } from './oauth';

const T = 'sitebuilder_tokens';

/** When the builder does not say how long an access token lives (expires_in is only RECOMMENDED). */
export const DEFAULT_ACCESS_TTL_SECONDS = 3600;

export interface StoredTokens {
  connectionId: string;
  accessToken: string;
  refreshToken: string | null;
  accessExpiresAt: Date;
}

export const expiryOf = (t: TokenSet, now: Date): Date =>
  new Date(now.getTime() + (t.expires_in ?? DEFAULT_ACCESS_TTL_SECONDS) * 1000);

export const notConnected = () =>
  new SitebuilderError(
    'INVALID_REQUEST',
    'No site is connected: connect one first (GET /api/sitebuilder/auth/url, then POST /api/sitebuilder/auth/callback)',
    { reason: 'not_connected' },
  );

export class SitebuilderTokenStore {
  constructor(
    private readonly db: Knex,
    private readonly box: SecretBox,
  ) {}

  private aad = (userId: string, connectionId: string) => `sitebuilder:${userId}:${connectionId}`;

  private row(userId: string, connectionId: string, t: { access: string; refresh: string | null }, expires: Date) {
    const s = this.box.seal(JSON.stringify(t), this.aad(userId, connectionId));
    return {
      user_id: userId,
      connection_id: connectionId,
      key_id: this.box.keyId,
      iv: s.iv,
      ciphertext: s.ciphertext,
      auth_tag: s.authTag,
      access_expires_at: expires,
      updated_at: new Date(),
    };
  }

  private open(r: Record<string, unknown>): StoredTokens {
    let plain: string;
    try {
      plain = this.box.open(
        { iv: r.iv as Buffer, ciphertext: r.ciphertext as Buffer, authTag: r.auth_tag as Buffer },
        this.aad(String(r.user_id), String(r.connection_id)),
      );
    } catch {
      throw new Error(
        `site-builder tokens of user ${r.user_id} cannot be decrypted with the configured SITEBUILDER_TOKEN_KEY (key id ${this.box.keyId}, row key id ${r.key_id})`,
      );
    }
    const t = JSON.parse(plain) as { access: string; refresh: string | null };
    return {
      connectionId: String(r.connection_id),
      accessToken: t.access,
      refreshToken: t.refresh,
      accessExpiresAt: new Date(r.access_expires_at as string),
    };
  }

  /** Stores (or replaces) a user's tokens; pass the transaction that appends the connection's event. */
  async put(tx: StoreTx, userId: string, connectionId: string, t: TokenSet, expires: Date): Promise<void> {
    await sqlTransaction(tx)(T)
      .insert(this.row(userId, connectionId, { access: t.access_token, refresh: t.refresh_token ?? null }, expires))
      .onConflict('user_id')
      .merge();
  }

  async get(userId: string): Promise<StoredTokens | undefined> {
    const r = await this.db(T).where({ user_id: userId }).first();
    return r ? this.open(r) : undefined;
  }

  /** The row locked for update until `tx` ends. */
  async lock(tx: StoreTx, userId: string): Promise<StoredTokens | undefined> {
    const r = await sqlTransaction(tx)(T).where({ user_id: userId }).forUpdate().first();
    return r ? this.open(r) : undefined;
  }

  /** Deletes the tokens (only those of `connectionId` when given). */
  async delete(tx: StoreTx, userId: string, connectionId?: string): Promise<void> {
    await sqlTransaction(tx)(T)
      .where({ user_id: userId, ...(connectionId ? { connection_id: connectionId } : {}) })
      .delete();
  }
}

export interface TokenManagerDeps {
  store: EventStore;
  tokens: SitebuilderTokenStore;
  oauth: OAuthClient;
  refreshMarginSeconds: number;
  now?: () => Date;
}

export interface AccessToken {
  token: string;
  connectionId: string;
}

/**
 * Access tokens for the REST calls of a user. `force`: the builder just
 * refused `rejected` (401), so refresh even before the margin — unless another
 * caller already replaced it.
 */
export function createTokenManager(d: TokenManagerDeps) {
  const now = d.now ?? (() => new Date());
  const fresh = (t: StoredTokens) => t.accessExpiresAt.getTime() - now().getTime() > d.refreshMarginSeconds * 1000;

  async function accessToken(userId: string, opts: { rejected?: string } = {}): Promise<AccessToken> {
    const current = await d.tokens.get(userId);
    if (!current) throw notConnected();
    if (!opts.rejected && fresh(current)) return { token: current.accessToken, connectionId: current.connectionId };
    const outcome = await d.store.transaction(async (tx) => {
      const t = await d.tokens.lock(tx, userId);
      if (!t) return { error: notConnected() };
      const replaced = opts.rejected !== undefined && t.accessToken !== opts.rejected;
      if (replaced || (!opts.rejected && fresh(t))) return { token: t.accessToken, connectionId: t.connectionId };
      if (!t.refreshToken)
        return {
          error: new SitebuilderError(
            'VENDOR_REQUEST_REJECTED',
            'The access token of the connection expired and the site builder gave no refresh token; connect the site again',
          ),
        };
      let next: TokenSet;
      try {
        next = await d.oauth.refresh(t.refreshToken);
      } catch (e) {
        if (!(e instanceof InvalidGrantError)) throw e;
        // The site owner revoked the app (or the grant expired): the tokens are useless, the connection is over.
        await d.tokens.delete(tx, userId, t.connectionId);
        await handleCommand(tx, sitebuilderStream(userId), sitebuilderDecider, {
          kind: 'disconnect',
          user_id: userId,
          reason: 'revoked_by_builder',
          revoked_at_builder: true,
          connection_id: t.connectionId,
        });
        return { error: e };
      }
      const expires = expiryOf(next, now());
      await d.tokens.put(
        tx,
        userId,
        t.connectionId,
        { ...next, refresh_token: next.refresh_token ?? t.refreshToken },
        expires,
      );
      await handleCommand(tx, sitebuilderStream(userId), sitebuilderDecider, {
        kind: 'record_refresh',
        user_id: userId,
        connection_id: t.connectionId,
        access_expires_at: expires.toISOString(),
      });
      return { token: next.access_token, connectionId: t.connectionId };
    });
    if ('error' in outcome) throw outcome.error;
    return outcome;
  }

  /**
   * Runs `call` with a valid access token; when the builder answers 401 the
   * token is refreshed once and the call tried again.
   */
  async function withAccessToken<T>(userId: string, call: (a: AccessToken) => Promise<T>): Promise<T> {
    const a = await accessToken(userId);
    try {
      return await call(a);
    } catch (e) {
      if (!(e instanceof SitebuilderError) || e.details.status !== 401) throw e;
      return call(await accessToken(userId, { rejected: a.token }));
    }
  }

  return { accessToken, withAccessToken };
}

export type TokenManager = ReturnType<typeof createTokenManager>;
