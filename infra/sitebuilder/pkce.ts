/**
 * State and PKCE (RFC 7636, S256) of an authorization. The state is 256
 * random bits shown to the client once; only its SHA-256 is stored. The code
 * verifier is never stored either: it is derived from the authorization id
 * with a server key (HMAC-SHA256), so the API can show the challenge and the
 * worker can send the verifier, and a leaked event or history reveals neither.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';

export const newState = (): string => randomBytes(32).toString('base64url');

export const stateHash = (state: string): string => createHash('sha256').update(state, 'utf8').digest('hex');

/** 43 characters of base64url: a valid RFC 7636 verifier (43–128 unreserved characters). */
export const pkceVerifier = (pkceKey: Buffer, authorizationId: string): string =>
  createHmac('sha256', pkceKey).update(`pkce:${authorizationId}`).digest('base64url');

export const codeChallenge = (verifier: string): string => createHash('sha256').update(verifier).digest('base64url');

/** The authorization URL the site owner's browser is sent to. */
export function authorizationUrl(o: {
  authorizeUrl: string;
  clientId: string;
  redirectUri: string;
  scopes: string[];
  state: string;
  challenge: string;
}): string {
  const u = new URL(o.authorizeUrl);
  u.searchParams.set('response_type', 'code');
  u.searchParams.set('client_id', o.clientId);
  u.searchParams.set('redirect_uri', o.redirectUri);
  if (o.scopes.length) u.searchParams.set('scope', o.scopes.join(' '));
  u.searchParams.set('state', o.state);
  u.searchParams.set('code_challenge', o.challenge);
  u.searchParams.set('code_challenge_method', 'S256');
  // offline_access needs explicit consent to yield a refresh token (OpenID Connect Core 11).
  if (o.scopes.includes('offline_access')) u.searchParams.set('prompt', 'consent');
  return u.toString();
}
