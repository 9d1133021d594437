/**
 * Decisions on a user's site-builder connection (stream `sitebuilder-<user_id>`).
 *
 * An authorization is started with a random state (only its SHA-256 is kept)
 * and lives until it expires or is consumed — once: the callback consumes it
 * before the code is exchanged, so a replayed state is refused even while the
 * first exchange is still running. A callback without a state consumes the
 * newest live authorization; PKCE still binds the code to that authorization
 * (the verifier is derived from its id with a server key), so a code issued
 * for anyone else cannot be exchanged with it.
 *
 * The connection is `connected` after a successful exchange, refreshed in
 * place, and `disconnected` by the user, by the builder revoking the tokens,
 * or when a new connection replaces it.
 */
import type { Decider, Stored } from '../decider';
import { NotFoundError, ValidationError } from '../errors';
import type { DomainEvent } from '../events';
import type { DisconnectReason } from '../events/sitebuilder';

export interface AuthorizationState {
  authorization_id: string;
  state_hash: string;
  expires_at: string;
  started_at: string;
  consumed: boolean;
}

export interface ConnectionState {
  connection_id: string;
  authorization_id: string;
  status: 'connected' | 'disconnected';
  scopes: string[];
  site_name: string | null;
  site_url: string | null;
  connected_at: string;
  access_expires_at: string;
  last_refreshed_at: string | null;
  disconnected_at: string | null;
  disconnect_reason: DisconnectReason | null;
  revoked_at_builder: boolean | null;
}

export interface SitebuilderState {
  authorizations: AuthorizationState[];
  connection: ConnectionState | null;
}

export type SitebuilderCommand =
  | {
      kind: 'start_authorization';
      user_id: string;
      authorization_id: string;
      state_hash: string;
      redirect_uri: string;
      scopes: string[];
      expires_at: string;
    }
  | { kind: 'consume_authorization'; user_id: string; state_hash?: string; now: Date }
  | {
      kind: 'connect';
      user_id: string;
      connection_id: string;
      authorization_id: string;
      scopes: string[];
      site_name: string | null;
      site_url: string | null;
      access_expires_at: string;
    }
  | { kind: 'record_refresh'; user_id: string; connection_id: string; access_expires_at: string }
  | {
      kind: 'disconnect';
      user_id: string;
      reason: DisconnectReason;
      revoked_at_builder: boolean;
      /** Only this connection (a builder revocation seen by a publish must not end a newer connection). */
      connection_id?: string;
    };

/** Authorizations kept in the folded state (older ones cannot be live any more: they expire within minutes). */
const KEEP_AUTHORIZATIONS = 50;

const stateIssue = (message: string) =>
  new ValidationError([{ location: 'body', path: 'state', kind: 'constraint', message }]);

/** The live connection, or undefined. */
export const liveConnection = (s: SitebuilderState): ConnectionState | undefined =>
  s.connection?.status === 'connected' ? s.connection : undefined;

/** The authorization a callback consumes, or a 400 naming why there is none. */
export function authorizationFor(s: SitebuilderState, stateHash: string | undefined, now: Date): AuthorizationState {
  const live = (a: AuthorizationState) => !a.consumed && Date.parse(a.expires_at) > now.getTime();
  if (stateHash === undefined) {
    const newest = [...s.authorizations].reverse().find(live);
    if (!newest)
      throw stateIssue(
        'no authorization is in progress: get a new authorization URL (GET /api/sitebuilder/auth/url) and try again',
      );
    return newest;
  }
  const a = s.authorizations.find((x) => x.state_hash === stateHash);
  if (!a)
    throw stateIssue(
      'state mismatch: the state does not belong to an authorization started by this user; start again from the authorization URL',
    );
  if (a.consumed) throw stateIssue('this state was already used (a state is good for one callback); start again');
  if (!live(a))
    throw stateIssue(`the authorization expired at ${a.expires_at}; start again from the authorization URL`);
  return a;
}

export const sitebuilderDecider: Decider<SitebuilderCommand, SitebuilderState> = {
  initialState: { authorizations: [], connection: null },

  evolve(s, e: Stored): SitebuilderState {
    const at = e.recordedAt ?? new Date(0).toISOString();
    switch (e.type) {
      case 'SitebuilderAuthorizationStarted':
        return {
          ...s,
          authorizations: [
            ...s.authorizations,
            {
              authorization_id: e.data.authorization_id,
              state_hash: e.data.state_hash,
              expires_at: e.data.expires_at,
              started_at: at,
              consumed: false,
            },
          ].slice(-KEEP_AUTHORIZATIONS),
        };
      case 'SitebuilderAuthorizationConsumed':
        return {
          ...s,
          authorizations: s.authorizations.map((a) =>
            a.authorization_id === e.data.authorization_id ? { ...a, consumed: true } : a,
          ),
        };
      case 'SitebuilderConnected':
        return {
          ...s,
          connection: {
            connection_id: e.data.connection_id,
            authorization_id: e.data.authorization_id,
            status: 'connected',
            scopes: e.data.scopes,
            site_name: e.data.site_name,
            site_url: e.data.site_url,
            connected_at: at,
            access_expires_at: e.data.access_expires_at,
            last_refreshed_at: null,
            disconnected_at: null,
            disconnect_reason: null,
            revoked_at_builder: null,
          },
        };
      case 'SitebuilderTokenRefreshed':
        if (s.connection?.connection_id !== e.data.connection_id) return s;
        return {
          ...s,
          connection: { ...s.connection, access_expires_at: e.data.access_expires_at, last_refreshed_at: at },
        };
      case 'SitebuilderDisconnected':
        if (s.connection?.connection_id !== e.data.connection_id) return s;
        return {
          ...s,
          connection: {
            ...s.connection,
            status: 'disconnected',
            disconnected_at: at,
            disconnect_reason: e.data.reason,
            revoked_at_builder: e.data.revoked_at_builder,
          },
        };
      default:
        return s;
    }
  },

  decide(c, s): DomainEvent[] {
    switch (c.kind) {
      case 'start_authorization':
        return [
          {
            type: 'SitebuilderAuthorizationStarted',
            data: {
              user_id: c.user_id,
              authorization_id: c.authorization_id,
              state_hash: c.state_hash,
              redirect_uri: c.redirect_uri,
              scopes: c.scopes,
              expires_at: c.expires_at,
            },
          },
        ];
      case 'consume_authorization': {
        const a = authorizationFor(s, c.state_hash, c.now);
        return [
          {
            type: 'SitebuilderAuthorizationConsumed',
            data: { user_id: c.user_id, authorization_id: a.authorization_id },
          },
        ];
      }
      case 'connect': {
        // A retried exchange finds its connection recorded: nothing to do.
        if (s.connection?.connection_id === c.connection_id) return [];
        const replaced = liveConnection(s);
        return [
          ...(replaced
            ? [
                {
                  type: 'SitebuilderDisconnected' as const,
                  data: {
                    user_id: c.user_id,
                    connection_id: replaced.connection_id,
                    reason: 'replaced' as const,
                    revoked_at_builder: false,
                  },
                },
              ]
            : []),
          {
            type: 'SitebuilderConnected',
            data: {
              user_id: c.user_id,
              connection_id: c.connection_id,
              authorization_id: c.authorization_id,
              scopes: c.scopes,
              site_name: c.site_name,
              site_url: c.site_url,
              access_expires_at: c.access_expires_at,
            },
          },
        ];
      }
      case 'record_refresh': {
        const live = liveConnection(s);
        if (!live || live.connection_id !== c.connection_id) return [];
        return [
          {
            type: 'SitebuilderTokenRefreshed',
            data: { user_id: c.user_id, connection_id: c.connection_id, access_expires_at: c.access_expires_at },
          },
        ];
      }
      case 'disconnect': {
        const live = liveConnection(s);
        if (!live) {
          if (c.connection_id) return [];
          throw new NotFoundError('No site is connected', { resource: 'sitebuilder_connection' });
        }
        if (c.connection_id && c.connection_id !== live.connection_id) return [];
        return [
          {
            type: 'SitebuilderDisconnected',
            data: {
              user_id: c.user_id,
              connection_id: live.connection_id,
              reason: c.reason,
              revoked_at_builder: c.revoked_at_builder,
            },
          },
        ];
      }
    }
  },
};
