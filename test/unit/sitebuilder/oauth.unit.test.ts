/** PKCE and state (RFC 7636 S256), the authorization URL, image sniffing and the builder's error messages. */
import { createHash, randomBytes } from 'node:crypto';
import { authorizationUrl, codeChallenge, newState, pkceVerifier, stateHash } from '../../../infra/sitebuilder/pkce';
import { builderReason, restError } from '../../../infra/sitebuilder/http';
import { sniffImage } from '../../../infra/sitebuilder/media';
import { deriveKeys, sitebuilderSettings } from '../../../infra/sitebuilder/settings';
import { loadConfig } from '../../../infra/config';

describe('sitebuilder PKCE and authorization URL', () => {
  const key = randomBytes(32);
  it('derives a valid verifier per authorization and its S256 challenge', () => {
    const v = pkceVerifier(key, 'auth-1');
    expect(v).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(pkceVerifier(key, 'auth-1')).toBe(v);
    expect(pkceVerifier(key, 'auth-2')).not.toBe(v);
    expect(pkceVerifier(randomBytes(32), 'auth-1')).not.toBe(v);
    expect(codeChallenge(v)).toBe(createHash('sha256').update(v).digest('base64url'));
  });

  it('makes 256-bit states and stores only their hash', () => {
    const s = newState();
    expect(Buffer.from(s, 'base64url')).toHaveLength(32);
    expect(stateHash(s)).toMatch(/^[0-9a-f]{64}$/);
    expect(newState()).not.toBe(s);
  });

  it('builds the authorization URL with every parameter', () => {
    const u = new URL(
      authorizationUrl({
        authorizeUrl: 'https://b.example/oauth/auth?x=1',
        clientId: 'c',
        redirectUri: 'https://app/cb',
        scopes: ['offline_access', 'blog'],
        state: 's',
        challenge: 'ch',
      }),
    );
    expect(Object.fromEntries(u.searchParams)).toEqual({
      x: '1',
      response_type: 'code',
      client_id: 'c',
      redirect_uri: 'https://app/cb',
      scope: 'offline_access blog',
      state: 's',
      code_challenge: 'ch',
      code_challenge_method: 'S256',
      prompt: 'consent',
    });
  });

  it('derives two different keys from the configured one', () => {
    const k = deriveKeys(key);
    expect(k.tokenKey).toHaveLength(32);
    expect(k.tokenKey.equals(k.pkceKey)).toBe(false);
    expect(k.tokenKey.equals(key)).toBe(false);
  });
});

describe('sitebuilder errors and images', () => {
  it('words the builder refusals', () => {
    expect(
      builderReason(
        { details: { validationError: { fieldViolations: [{ field: 'draftPost.title', description: 'too long' }] } } },
        '',
      ),
    ).toBe('draftPost.title: too long');
    expect(builderReason({ message: 'Missing post owner information' }, '')).toBe('Missing post owner information');
    const forbidden = restError('create the draft post', { status: 403, json: { message: 'no scope' }, text: '' });
    expect(forbidden.code).toBe('VENDOR_REQUEST_REJECTED');
    expect(forbidden.message).toMatch(/does not allow this connection to create the draft post: no scope/);
    expect(restError('x', { status: 503, json: undefined, text: 'down' }).code).toBe('VENDOR_UNAVAILABLE');
    expect(restError('x', { status: 429, json: undefined, text: '' }).code).toBe('VENDOR_RATE_LIMITED');
    expect(restError('x', { status: 401, json: undefined, text: '' }).details.status).toBe(401);
  });

  it('recognises images by their signature only', () => {
    expect(sniffImage(Buffer.from('89504e470d0a1a0a0000', 'hex'))).toBe('image/png');
    expect(sniffImage(Buffer.from('ffd8ffe000', 'hex'))).toBe('image/jpeg');
    expect(sniffImage(Buffer.from('GIF89a....', 'latin1'))).toBe('image/gif');
    expect(sniffImage(Buffer.from('RIFF0000WEBPVP8 ', 'latin1'))).toBe('image/webp');
    expect(sniffImage(Buffer.from('<html>not an image</html>'))).toBeUndefined();
  });
});

describe('sitebuilder settings', () => {
  const file = `/tmp/sitebuilder-test-${process.pid}.key`;

  it('names the missing variables until configured, and needs a key in production only when configured', () => {
    const prod = { NODE_ENV: 'production' };
    expect(sitebuilderSettings(loadConfig(prod), file).missing).toEqual([
      'SITEBUILDER_CLIENT_ID',
      'SITEBUILDER_CLIENT_SECRET',
      'SITEBUILDER_AUTHORIZE_URL',
      'SITEBUILDER_TOKEN_URL',
      'SITEBUILDER_API_BASE_URL',
      'SITEBUILDER_REDIRECT_URI',
    ]);
    expect(() => sitebuilderSettings(loadConfig({ ...prod, SITEBUILDER_CLIENT_ID: 'c' }), file)).toThrow(
      /SITEBUILDER_TOKEN_KEY must be set in production/,
    );
    const key = randomBytes(32).toString('base64');
    const s = sitebuilderSettings(
      loadConfig({
        ...prod,
        SITEBUILDER_TOKEN_KEY: key,
        SITEBUILDER_CLIENT_ID: 'c',
        SITEBUILDER_CLIENT_SECRET: 's',
        SITEBUILDER_AUTHORIZE_URL: 'https://b.example/auth',
        SITEBUILDER_TOKEN_URL: 'https://b.example/token',
        SITEBUILDER_API_BASE_URL: 'https://api.b.example/',
        SITEBUILDER_REDIRECT_URI: 'https://app.example/cb',
        SITEBUILDER_SCOPES: 'offline_access  blog.manage',
      }),
      file,
    );
    expect(s.missing).toEqual([]);
    expect(s.apiBaseUrl).toBe('https://api.b.example');
    expect(s.scopes).toEqual(['offline_access', 'blog.manage']);
    expect(s.tokenKey.equals(deriveKeys(Buffer.from(key, 'base64')).tokenKey)).toBe(true);
  });
});
