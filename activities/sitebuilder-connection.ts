/**
 * Connecting and disconnecting a user's site: the code exchange (with the
 * PKCE verifier derived from the authorization id, never stored), the site's
 * name and URL, the tokens stored encrypted in the same transaction as the
 * SitebuilderConnected event; and the disconnect, which revokes both tokens
 * at the builder before forgetting them. Results carry no token.
 */
import { sitebuilderStream } from '../domain/events/sitebuilder';
import { liveConnection, sitebuilderDecider } from '../domain/sitebuilder/connection';
import type { ConnectionSummary } from '../domain/sitebuilder/types';
import { handleCommand } from '../infra/eventstore/command';
import { uuidFromKey } from '../infra/eventstore/ids';
import { notConfigured, SitebuilderError } from '../infra/sitebuilder/errors';
import { pkceVerifier } from '../infra/sitebuilder/pkce';
import { expiryOf } from '../infra/sitebuilder/tokens';
import type { SitebuilderActivityDeps } from './sitebuilder';

export function createSitebuilderConnectionActivities(deps: SitebuilderActivityDeps) {
  const now = deps.now ?? (() => new Date());
  const stateOf = (userId: string) =>
    deps.store.aggregateStream(sitebuilderStream(userId), sitebuilderDecider.evolve, sitebuilderDecider.initialState);
  const summary = (c: NonNullable<ReturnType<typeof liveConnection>>): ConnectionSummary => ({
    connection_id: c.connection_id,
    scopes: c.scopes,
    site: { name: c.site_name, url: c.site_url },
    connected_at: c.connected_at,
    access_token_expires_at: c.access_expires_at,
  });

  return {
    async connectSitebuilder(a: { userId: string; authorizationId: string; code: string }): Promise<ConnectionSummary> {
      if (deps.settings.missing.length) throw notConfigured(deps.settings.missing);
      const connectionId = uuidFromKey(`sitebuilder-connection:${a.authorizationId}`);
      const before = await stateOf(a.userId);
      // A retry after the connection was recorded: the code is spent, the connection exists.
      if (before.state.connection?.connection_id === connectionId) {
        const live = liveConnection(before.state);
        if (live) return summary(live);
        throw new SitebuilderError(
          'INVALID_REQUEST',
          'This authorization was already used for a connection that ended',
        );
      }
      const tokens = await deps.oauth.exchangeCode(a.code, pkceVerifier(deps.settings.pkceKey, a.authorizationId));
      let site: { name: string | null; url: string | null } = { name: null, url: null };
      try {
        site = await deps.api.siteInfo(tokens.access_token);
      } catch (e) {
        // The connection works without the site's name and URL; say why they are missing, never with the token.
        deps.logger?.warn({ user_id: a.userId, reason: (e as Error).message }, 'site builder: site info unavailable');
      }
      const previous = await deps.tokens.get(a.userId);
      if (previous?.refreshToken)
        await deps.oauth.revoke(previous.refreshToken, 'refresh_token').catch((e: Error) => {
          deps.logger?.warn({ user_id: a.userId, reason: e.message }, 'site builder: old connection not revoked');
        });
      const expires = expiryOf(tokens, now());
      const scopes = tokens.scope ? tokens.scope.split(/\s+/).filter(Boolean) : deps.settings.scopes;
      await deps.store.transaction(async (tx) => {
        await deps.tokens.put(tx, a.userId, connectionId, tokens, expires);
        await handleCommand(tx, sitebuilderStream(a.userId), sitebuilderDecider, {
          kind: 'connect',
          user_id: a.userId,
          connection_id: connectionId,
          authorization_id: a.authorizationId,
          scopes,
          site_name: site.name,
          site_url: site.url,
          access_expires_at: expires.toISOString(),
        });
      });
      const live = liveConnection((await stateOf(a.userId)).state);
      if (!live) throw new Error('connection was not recorded');
      return summary(live);
    },

    async disconnectSitebuilder(a: { userId: string }): Promise<{
      connection_id: string | null;
      revoked_at_builder: boolean;
      revocation_error: string | null;
    }> {
      const live = liveConnection((await stateOf(a.userId)).state);
      if (!live) return { connection_id: null, revoked_at_builder: false, revocation_error: null };
      const tokens = await deps.tokens.get(a.userId);
      let revoked = false;
      let revocationError: string | null = null;
      if (tokens && deps.settings.missing.length === 0) {
        try {
          // The refresh token first: revoking it ends the grant; the access token would expire anyway.
          const r1 = tokens.refreshToken ? await deps.oauth.revoke(tokens.refreshToken, 'refresh_token') : true;
          const r2 = await deps.oauth.revoke(tokens.accessToken, 'access_token');
          revoked = r1 && r2;
          if (!revoked) revocationError = 'the site builder has no revocation endpoint (SITEBUILDER_REVOKE_URL)';
        } catch (e) {
          // The user asked to disconnect: the tokens are forgotten here whatever the builder says.
          revocationError = (e as Error).message;
        }
      }
      await deps.store.transaction(async (tx) => {
        await deps.tokens.delete(tx, a.userId, live.connection_id);
        await handleCommand(tx, sitebuilderStream(a.userId), sitebuilderDecider, {
          kind: 'disconnect',
          user_id: a.userId,
          reason: 'user_request',
          revoked_at_builder: revoked,
          connection_id: live.connection_id,
        });
      });
      return { connection_id: live.connection_id, revoked_at_builder: revoked, revocation_error: revocationError };
    },
  };
}
