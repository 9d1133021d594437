/**
 * OAuth 2.0 for integrations: client registration, the authorization endpoint
 * (302 with code/state, errors in the redirect), the form-encoded token
 * endpoint (authorization code with PKCE, refresh with rotation), and the
 * issued `cpo_` access tokens on calendar routes with their scopes enforced.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { TestApi } from '../../support/api';
import { bearer } from '../../support/api';
import { call } from '../../support/http';
import { C, client, Client, startCalendarApi } from './support';

jest.setTimeout(120000);

const REDIRECT = 'https://integrator.example.com/callback';
const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

describe('calendar OAuth 2.0', () => {
  let api: TestApi;
  let key: string;
  let alice: Client;
  let bob: Client;

  beforeAll(async () => {
    api = await startCalendarApi();
    key = (await api.user('pro')).key;
    alice = client(api, key);
    bob = client(api, (await api.user('pro')).key);
  });
  afterAll(async () => api?.stop());

  const authorize = (q: Record<string, string>, k = key) =>
    fetch(`${api.url}${C}/oauth/authorize?${new URLSearchParams(q)}`, { headers: bearer(k), redirect: 'manual' });
  const token = (form: Record<string, string>) =>
    call(`${api.url}${C}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });

  async function codeFor(clientId: string, scope: string, challenge?: string) {
    const res = await authorize({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      scope,
      state: 'xyz',
      ...(challenge ? { code_challenge: challenge, code_challenge_method: 'S256' } : {}),
    });
    expect(res.status).toBe(302);
    const loc = new URL(res.headers.get('location')!);
    expect(loc.origin + loc.pathname).toBe(REDIRECT);
    expect(loc.searchParams.get('state')).toBe('xyz');
    return loc.searchParams;
  }

  it('authorization code with PKCE → cpo_ token accepted by calendar routes, scopes enforced; refresh rotates', async () => {
    const reg = await alice.post('/oauth/clients', { client_name: 'Scheduler app', redirect_uris: [REDIRECT] });
    expect(reg.status).toBe(201);
    expect(reg.body).toMatchObject({
      client_name: 'Scheduler app',
      token_endpoint_auth_method: 'client_secret_post',
      grant_types: ['authorization_code', 'refresh_token'],
    });
    const { client_id, client_secret } = reg.body;
    expect(client_secret).toMatch(/^cpcs_/);

    const p = pkce();
    const code = (await codeFor(client_id, 'calendar:read', p.challenge)).get('code')!;
    expect(code).toMatch(/^cpa_/);
    const wrong = await token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id,
      client_secret,
      code_verifier: pkce().verifier,
    });
    expect([wrong.status, wrong.body.error.details.error]).toEqual([400, 'invalid_grant']);
    // A failed verification consumes the code (no guessing): start again.
    const p2 = pkce();
    const code2 = (await codeFor(client_id, 'calendar:read', p2.challenge)).get('code')!;
    const t = await token({
      grant_type: 'authorization_code',
      code: code2,
      redirect_uri: REDIRECT,
      client_id,
      client_secret,
      code_verifier: p2.verifier,
    });
    expect(t.status).toBe(200);
    expect(t.body).toMatchObject({ token_type: 'Bearer', scope: 'calendar:read' });
    expect(t.body.access_token).toMatch(/^cpo_/);
    expect(t.body.refresh_token).toMatch(/^cpr_/);
    expect(t.body.expires_in).toBeGreaterThan(3500);
    expect(t.headers.get('cache-control')).toBe('no-store');
    const reuse = await token({
      grant_type: 'authorization_code',
      code: code2,
      redirect_uri: REDIRECT,
      client_id,
      client_secret,
      code_verifier: p2.verifier,
    });
    expect([reuse.status, reuse.body.error.details.error]).toEqual([400, 'invalid_grant']);

    const viaToken = client(api, t.body.access_token);
    const calendarId = (await alice.post('/calendars', { name: 'OAuth cal' })).body.id;
    const read = await viaToken.get(`/calendars/${calendarId}`);
    expect(read.status).toBe(200);
    expect(read.headers.get('x-ratelimit-limit')).toBeTruthy();
    const write = await viaToken.post('/calendars', { name: 'nope' });
    expect([write.status, write.body.error.code, write.body.error.details.required_scope]).toEqual([
      403,
      'AUTHORIZATION_ERROR',
      'calendar:manage',
    ]);
    expect(
      (
        await viaToken.post(`/calendars/${calendarId}/events`, {
          title: 'x',
          content_type: 'story',
          platform: 'photonet',
        })
      ).status,
    ).toBe(403);
    expect((await viaToken.post('/oauth/clients', { client_name: 'x', redirect_uris: [REDIRECT] })).status).toBe(403);
    // An OAuth token is not accepted outside the calendar family.
    expect((await call(`${api.url}/api/settings/api-keys`, { headers: bearer(t.body.access_token) })).status).toBe(401);

    const r = await token({
      grant_type: 'refresh_token',
      refresh_token: t.body.refresh_token,
      client_id,
      client_secret,
    });
    expect(r.status).toBe(200);
    expect(r.body.access_token).not.toBe(t.body.access_token);
    expect((await client(api, r.body.access_token).get(`/calendars/${calendarId}`)).status).toBe(200);
    expect((await viaToken.get(`/calendars/${calendarId}`)).status).toBe(401);
    const again = await token({
      grant_type: 'refresh_token',
      refresh_token: t.body.refresh_token,
      client_id,
      client_secret,
    });
    expect(again.status).toBe(400);
    const noSecret = await token({ grant_type: 'refresh_token', refresh_token: r.body.refresh_token, client_id });
    expect([noSecret.status, noSecret.body.error.code]).toEqual([401, 'AUTHENTICATION_ERROR']);
    const badSecret = await token({
      grant_type: 'refresh_token',
      refresh_token: r.body.refresh_token,
      client_id,
      client_secret: 'cpcs_wrong',
    });
    expect(badSecret.status).toBe(401);
  });

  it('public clients must use PKCE; errors after the redirect URI is known go back in the redirect', async () => {
    const reg = await alice.post('/oauth/clients', {
      client_name: 'SPA',
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
      scopes: ['calendar:read', 'calendar:write'],
    });
    expect(reg.body.client_secret).toBeNull();
    const id = reg.body.client_id;
    const noPkce = await authorize({ response_type: 'code', client_id: id, redirect_uri: REDIRECT });
    expect(noPkce.status).toBe(400);
    const badScope = await codeFor(id, 'calendar:manage', pkce().challenge);
    expect(badScope.get('error')).toBe('invalid_scope');
    const badRedirect = await authorize({
      response_type: 'code',
      client_id: id,
      redirect_uri: 'https://evil.example.com/cb',
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
    });
    expect(badRedirect.status).toBe(400);
    const p = pkce();
    const code = (await codeFor(id, 'calendar:read calendar:write', p.challenge)).get('code')!;
    const t = await token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: id,
      code_verifier: p.verifier,
    });
    expect(t.status).toBe(200);
    expect(t.body.scope).toBe('calendar:read calendar:write');
    const cal = (await alice.post('/calendars', { name: 'spa' })).body.id;
    expect(
      (
        await client(api, t.body.access_token).post(`/calendars/${cal}/events`, {
          title: 'x',
          content_type: 'story',
          platform: 'photonet',
        })
      ).status,
    ).toBe(201);
  });

  it('client routes: 401 without a credential, 404 for another user; the token endpoint refuses unknown clients', async () => {
    const reg = await alice.post('/oauth/clients', { client_name: 'Mine', redirect_uris: [REDIRECT] });
    const anon = client(api, null);
    expect((await anon.post('/oauth/clients', { client_name: 'x', redirect_uris: [REDIRECT] })).status).toBe(401);
    expect((await anon.get(`/oauth/clients/${reg.body.client_id}`)).status).toBe(401);
    expect((await bob.get(`/oauth/clients/${reg.body.client_id}`)).status).toBe(404);
    expect((await bob.del(`/oauth/clients/${reg.body.client_id}`)).status).toBe(404);
    expect((await alice.get(`/oauth/clients/${reg.body.client_id}`)).body.client_name).toBe('Mine');
    expect(
      (
        await fetch(`${api.url}${C}/oauth/authorize?response_type=code&client_id=${reg.body.client_id}`, {
          redirect: 'manual',
        })
      ).status,
    ).toBe(401);
    const unknown = await token({
      grant_type: 'authorization_code',
      code: 'x',
      redirect_uri: REDIRECT,
      client_id: 'cpc_nope',
      client_secret: 's',
    });
    expect([400, 401]).toContain(unknown.status);
    expect((await alice.del(`/oauth/clients/${reg.body.client_id}`)).body.deleted).toBe(true);
    expect((await alice.get(`/oauth/clients/${reg.body.client_id}`)).status).toBe(404);
  });
});
