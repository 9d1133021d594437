/**
 * OAuth 2.0 for third-party integrations of the calendar (Document 3,
 * "Authentication"): registered clients, authorization codes and refresh
 * tokens. Access tokens are the identity area's OAuthTokenIssued (`cpo_`
 * tokens the auth stage already accepts). Streams: `oauthclient-<client_id>`,
 * `oauthcode-<code_id>`, `oauthrefresh-<refresh_id>`: the id is part of the
 * text handed out (`cpc_<id>_<secret>`, `cpr_<id>_<secret>`), so each lookup
 * is one stream read. Secrets are stored as SHA-256 hashes only.
 */
import { EventDefinitions, openAllRequired } from './types';
import { iso, nonEmptyString, orNull } from '../schema';

export type OAuthEvent =
  | {
      type: 'OAuthClientRegistered';
      data: {
        client_id: string;
        owner_id: string;
        client_name: string;
        redirect_uris: string[];
        /** Scopes the client may ask for. */
        scopes: string[];
        /** `none`: a public client (PKCE only, no secret). */
        token_endpoint_auth_method: 'none' | 'client_secret_post' | 'client_secret_basic';
        secret_hash: string | null;
      };
    }
  | { type: 'OAuthClientDeleted'; data: { client_id: string; owner_id: string } }
  | {
      type: 'OAuthCodeIssued';
      data: {
        code_id: string;
        client_id: string;
        user_id: string;
        code_hash: string;
        redirect_uri: string;
        scope: string;
        code_challenge: string | null;
        code_challenge_method: 'S256' | 'plain' | null;
        expires_at: string;
      };
    }
  | { type: 'OAuthCodeRedeemed'; data: { code_id: string; client_id: string; user_id: string } }
  | {
      type: 'OAuthRefreshTokenIssued';
      data: {
        refresh_id: string;
        client_id: string;
        user_id: string;
        token_hash: string;
        scope: string;
        expires_at: string;
        /** The access token issued with it (revoked with it). */
        access_token_id: string;
      };
    }
  | {
      type: 'OAuthRefreshTokenRevoked';
      data: { refresh_id: string; client_id: string; user_id: string; reason: string };
    };

const a = 'oauth';
const hash = { type: 'string', pattern: '^[0-9a-f]{64}$' };

export const oauthEvents: EventDefinitions<OAuthEvent['type']> = {
  OAuthClientRegistered: {
    area: a,
    version: 1,
    schema: openAllRequired({
      client_id: nonEmptyString,
      owner_id: nonEmptyString,
      client_name: nonEmptyString,
      redirect_uris: { type: 'array', items: nonEmptyString, minItems: 1 },
      scopes: { type: 'array', items: nonEmptyString },
      token_endpoint_auth_method: { enum: ['none', 'client_secret_post', 'client_secret_basic'] },
      secret_hash: orNull(hash),
    }),
  },
  OAuthClientDeleted: {
    area: a,
    version: 1,
    schema: openAllRequired({ client_id: nonEmptyString, owner_id: nonEmptyString }),
  },
  OAuthCodeIssued: {
    area: a,
    version: 1,
    schema: openAllRequired({
      code_id: nonEmptyString,
      client_id: nonEmptyString,
      user_id: nonEmptyString,
      code_hash: hash,
      redirect_uri: nonEmptyString,
      scope: { type: 'string' },
      code_challenge: orNull(nonEmptyString),
      code_challenge_method: { enum: ['S256', 'plain', null] },
      expires_at: iso,
    }),
  },
  OAuthCodeRedeemed: {
    area: a,
    version: 1,
    schema: openAllRequired({ code_id: nonEmptyString, client_id: nonEmptyString, user_id: nonEmptyString }),
  },
  OAuthRefreshTokenIssued: {
    area: a,
    version: 1,
    schema: openAllRequired({
      refresh_id: nonEmptyString,
      client_id: nonEmptyString,
      user_id: nonEmptyString,
      token_hash: hash,
      scope: { type: 'string' },
      expires_at: iso,
      access_token_id: nonEmptyString,
    }),
  },
  OAuthRefreshTokenRevoked: {
    area: a,
    version: 1,
    schema: openAllRequired({
      refresh_id: nonEmptyString,
      client_id: nonEmptyString,
      user_id: nonEmptyString,
      reason: nonEmptyString,
    }),
  },
};

export const oauthClientStream = (id: string) => `oauthclient-${id}`;
export const oauthCodeStream = (id: string) => `oauthcode-${id}`;
export const oauthRefreshStream = (id: string) => `oauthrefresh-${id}`;
