/**
 * The OAuth 2.0 client of the platform at the builder: authorization code
 * with PKCE (RFC 6749 §4.1, RFC 7636), refresh (§6) and revocation (RFC
 * 7009), client authentication with HTTP Basic (§2.3.1). Token sets are
 * returned to the caller, which encrypts them at once; nothing is logged.
 */
import { InvalidGrantError, SitebuilderError } from './errors';
import { builderFetch, builderReason, BuilderResponse } from './http';
import type { SitebuilderEndpoints } from './settings';

export interface TokenSet {
  access_token: string;
  /** Absent when the builder keeps the refresh token unchanged (no rotation). */
  refresh_token?: string;
  /** Seconds until the access token expires. */
  expires_in?: number;
  scope?: string;
  token_type?: string;
}

export interface OAuthClient {
  exchangeCode(code: string, verifier: string): Promise<TokenSet>;
  refresh(refreshToken: string): Promise<TokenSet>;
  /** Revokes a token at the builder; false when the builder has no revocation endpoint. */
  revoke(token: string, hint: 'access_token' | 'refresh_token'): Promise<boolean>;
}

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

function tokenError(res: BuilderResponse, grant: 'authorization_code' | 'refresh_token'): SitebuilderError {
  const body = (res.json ?? {}) as { error?: string };
  const reason = builderReason(res.json, res.text);
  if (body.error === 'invalid_grant')
    return new InvalidGrantError(
      grant === 'authorization_code'
        ? `The site builder refused the authorization code: it is invalid, expired or already used (${reason}); start a new connection`
        : `The site builder refused to refresh the connection: the grant was revoked or expired (${reason}); connect the site again`,
      grant,
    );
  if (body.error === 'invalid_client' || res.status === 401)
    return new SitebuilderError(
      'VENDOR_REQUEST_REJECTED',
      `The site builder refused the platform's client credentials (${reason}); check SITEBUILDER_CLIENT_ID and SITEBUILDER_CLIENT_SECRET`,
    );
  if (res.status === 429)
    return new SitebuilderError('VENDOR_RATE_LIMITED', 'The site builder rate-limited the token request');
  if (res.status >= 500)
    return new SitebuilderError('VENDOR_UNAVAILABLE', `The site builder token endpoint failed (HTTP ${res.status})`);
  return new SitebuilderError('VENDOR_REQUEST_REJECTED', `The site builder refused the token request: ${reason}`);
}

function tokenSet(res: BuilderResponse): TokenSet {
  const t = res.json as Partial<TokenSet> | undefined;
  if (!t || typeof t.access_token !== 'string' || t.access_token === '')
    throw new SitebuilderError(
      'VENDOR_BAD_RESPONSE',
      'The site builder token endpoint answered without an access_token',
    );
  if (t.token_type && t.token_type.toLowerCase() !== 'bearer')
    throw new SitebuilderError('VENDOR_BAD_RESPONSE', `Unsupported token type ${t.token_type}`);
  return {
    access_token: t.access_token,
    ...(typeof t.refresh_token === 'string' && t.refresh_token ? { refresh_token: t.refresh_token } : {}),
    ...(typeof t.expires_in === 'number' ? { expires_in: t.expires_in } : {}),
    ...(typeof t.scope === 'string' ? { scope: t.scope } : {}),
  };
}

export function createOAuthClient(ep: SitebuilderEndpoints): OAuthClient {
  const auth = { authorization: basic(ep.clientId, ep.clientSecret) };
  const token = async (form: Record<string, string>, grant: 'authorization_code' | 'refresh_token') => {
    const res = await builderFetch(
      ep.tokenUrl,
      { method: 'POST', headers: auth, form, timeoutMs: ep.timeoutMs },
      'token',
    );
    if (res.status !== 200) throw tokenError(res, grant);
    return tokenSet(res);
  };
  return {
    exchangeCode: (code, verifier) =>
      token(
        { grant_type: 'authorization_code', code, redirect_uri: ep.redirectUri, code_verifier: verifier },
        'authorization_code',
      ),
    refresh: (refreshToken) => token({ grant_type: 'refresh_token', refresh_token: refreshToken }, 'refresh_token'),
    async revoke(value, hint) {
      if (!ep.revokeUrl) return false;
      const res = await builderFetch(
        ep.revokeUrl,
        { method: 'POST', headers: auth, form: { token: value, token_type_hint: hint }, timeoutMs: ep.timeoutMs },
        'revocation',
      );
      // RFC 7009 §2.2: 200 also for a token that was already invalid.
      if (res.status === 200) return true;
      if (res.status >= 500 || res.status === 429)
        throw new SitebuilderError(
          'VENDOR_UNAVAILABLE',
          `The site builder revocation endpoint failed (HTTP ${res.status})`,
        );
      throw new SitebuilderError(
        'VENDOR_REQUEST_REJECTED',
        `The site builder refused the revocation: ${builderReason(res.json, res.text)}`,
      );
    },
  };
}
