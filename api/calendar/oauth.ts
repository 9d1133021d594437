/**
 * OAuth 2.0 for third-party integrations of the calendar (Document 3
 * "Authentication"; the authorization endpoint, client registration and scopes
 * are ours, docs/calendar.md): @node-oauth/oauth2-server runs the protocol
 * (authorization-code grant with PKCE S256, refresh tokens with rotation);
 * api/calendar/oauth-model.ts stores everything as events. Access tokens are
 * `cpo_` tokens (OAuthTokenIssued): the calendar routes accept them and check
 * their scopes.
 *
 * - POST /oauth/clients (API key): register a client; confidential clients
 *   (`client_secret_post`) get a secret shown once, public ones (`none`) must
 *   use PKCE.
 * - GET /oauth/authorize (API key of the user who consents): redirects (302)
 *   to the client's redirect_uri with `code` and `state`, or with `error`.
 * - POST /oauth/token (form-encoded, no bearer credential): grant_type
 *   authorization_code (code, redirect_uri, client_id, client_secret and/or
 *   code_verifier) or refresh_token.
 */
import { oauthFacts } from '../../domain/calendar/oauth-grants';
import { handleCommands, streamCommand } from '../../infra/eventstore/command';
import OAuth2Server, {
  OAuthError,
  Request as OAuthRequest,
  Response as OAuthResponse,
} from '@node-oauth/oauth2-server';
import { SCOPES } from '../../domain/calendar/permissions';
import { AuthenticationError, NotFoundError, PermissionError, ValidationError } from '../../domain/errors';
import { oauthClientStream } from '../../domain/events/oauth';
import { callerOf, requestMeta, userIdOf } from '../kernel/handler';
import { defineRoute, RouteCtx, RouteDef } from '../kernel/registry';
import { randomBase62, sha256 } from '../identity/tokens';
import { BASE, tags } from './calendars';
import {
  ACCESS_TOKEN_TTL,
  ClientState,
  CODE_TTL,
  GRANTS,
  loadClient,
  newSecretText,
  oauthModel,
  REFRESH_TOKEN_TTL,
} from './oauth-model';
import { allRequired, arr, httpUrl, int, iso, str, text, withRequired } from '../kernel/schema';

type Ctx = RouteCtx;

const server = (ctx: Ctx) =>
  new OAuth2Server({
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    model: oauthModel(ctx.deps.store, requestMeta(ctx)) as any,
    accessTokenLifetime: ACCESS_TOKEN_TTL,
    refreshTokenLifetime: REFRESH_TOKEN_TTL,
    authorizationCodeLifetime: CODE_TTL,
    allowEmptyState: true,
    allowExtendedTokenAttributes: false,
    alwaysIssueNewRefreshToken: true,
    requireClientAuthentication: { authorization_code: true, refresh_token: true },
  });

/** Only a user's own API key may register clients or consent: an OAuth token cannot mint more access. */
function requireApiKey(ctx: Ctx): void {
  if (callerOf(ctx).credential !== 'api_key')
    throw new PermissionError(
      'Use an API key for this route: OAuth access tokens cannot manage OAuth clients or consent',
    );
}

/** An OAuth error as the calendar envelope's error, its RFC 6749 code in details.error. */
function oauthFailure(e: unknown, atAuthorize = false): Error {
  if (!(e instanceof OAuthError)) return e as Error;
  const details = { error: e.name, error_description: e.message };
  if (e.name === 'server_error') return (e as OAuthError & { inner?: Error }).inner ?? e;
  // At the token endpoint a bad client is an authentication failure; at the authorization endpoint the user is
  // authenticated and the request names a bad client or redirect URI: 400, never a redirect (RFC 6749 4.1.2.1).
  if (!atAuthorize && (e.name === 'invalid_client' || e.code === 401))
    return new AuthenticationError(e.message, details);
  if (e.name === 'access_denied') return new PermissionError(e.message, details);
  return new ValidationError(
    [{ location: 'body', path: e.name === 'invalid_scope' ? 'scope' : '', kind: 'constraint', message: e.message }],
    e.message,
    details,
  );
}

const clientOut = allRequired({
  client_id: { type: 'string' },
  client_name: { type: 'string' },
  redirect_uris: arr({ type: 'string' }),
  scopes: arr({ type: 'string' }),
  token_endpoint_auth_method: { type: 'string' },
  grant_types: arr({ type: 'string' }),
  created_at: iso,
});
const clientView = (c: ClientState) => ({
  client_id: c.client_id,
  client_name: c.client_name,
  redirect_uris: c.redirect_uris,
  scopes: c.scopes,
  token_endpoint_auth_method: c.token_endpoint_auth_method,
  grant_types: GRANTS,
  created_at: c.created_at,
});

async function ownClient(ctx: Ctx, clientId: string): Promise<ClientState> {
  const c = await loadClient(ctx.deps.store, clientId);
  if (!c || c.owner_id !== userIdOf(ctx)) throw new NotFoundError('OAuth client not found');
  return c;
}

const formString = (max = 2048) => ({ type: 'string', maxLength: max });

export const oauthRoutes: RouteDef[] = [
  defineRoute<{
    client_name: string;
    redirect_uris: string[];
    scopes?: string[];
    token_endpoint_auth_method: 'none' | 'client_secret_post';
  }>({
    method: 'post',
    path: `${BASE}/oauth/clients`,
    auth: 'user',
    tags,
    summary: 'Register an OAuth client for a third-party integration (API key only); the client_secret is shown once',
    description:
      'Needs an API key: an OAuth access token is 403. scopes (default all six calendar scopes) bound what the client may ask for at GET /oauth/authorize, where redirect_uri must be one of redirect_uris exactly. Confidential clients (client_secret_post, the default) get a client_secret in this answer only; public clients (none) get null and must use PKCE S256.',
    request: {
      body: withRequired(
        {
          client_name: text(200),
          redirect_uris: arr(httpUrl(), { minItems: 1, maxItems: 10, uniqueItems: true }),
          scopes: arr({ type: 'string', enum: [...SCOPES] }, { minItems: 1, uniqueItems: true }),
          token_endpoint_auth_method: {
            type: 'string',
            enum: ['client_secret_post', 'none'],
            default: 'client_secret_post',
          },
        },
        ['client_name', 'redirect_uris'],
      ),
    },
    responses: {
      201: {
        description: 'The client; store client_secret now (confidential clients only)',
        data: allRequired({ ...clientOut.properties, client_secret: { type: ['string', 'null'] } }),
      },
    },
    handler: async (ctx) => {
      requireApiKey(ctx);
      const b = ctx.body;
      const id = `cpc_${randomBase62(16)}`;
      const confidential = b.token_endpoint_auth_method !== 'none';
      const secretText = confidential ? newSecretText('cpcs').text : null;
      await handleCommands(
        ctx.deps.store,
        [
          streamCommand({
            streamId: oauthClientStream(id),
            decider: oauthFacts,
            expect: 'new',
            command: [
              {
                type: 'OAuthClientRegistered',
                data: {
                  client_id: id,
                  owner_id: userIdOf(ctx),
                  client_name: b.client_name,
                  redirect_uris: b.redirect_uris,
                  scopes: b.scopes ?? [...SCOPES],
                  token_endpoint_auth_method: b.token_endpoint_auth_method,
                  secret_hash: secretText ? sha256(secretText) : null,
                },
              },
            ],
          }),
        ],
        { metadata: requestMeta(ctx) },
      );
      const c = (await loadClient(ctx.deps.store, id))!;
      return { status: 201, data: { ...clientView(c), client_secret: secretText } };
    },
  }),
  defineRoute<unknown, unknown, { client_id: string }>({
    method: 'get',
    path: `${BASE}/oauth/clients/{client_id}`,
    auth: 'user',
    tags,
    summary: 'One of your OAuth clients',
    description:
      "Needs an API key (an OAuth access token is 403); an unknown client or another user's is 404. The client_secret is never shown again.",
    request: { params: allRequired({ client_id: str(64) }) },
    responses: { 200: { description: 'The client', data: clientOut } },
    handler: async (ctx) => {
      requireApiKey(ctx); // managing clients is the account's, not a third party's (docs/calendar.md)
      return { data: clientView(await ownClient(ctx, ctx.params.client_id)) };
    },
  }),
  defineRoute<unknown, unknown, { client_id: string }>({
    method: 'delete',
    path: `${BASE}/oauth/clients/{client_id}`,
    auth: 'user',
    tags,
    summary:
      'Delete an OAuth client: no new codes, tokens or refreshes (issued access tokens run out within their hour)',
    description: "Needs an API key (an OAuth access token is 403); an unknown client or another user's is 404.",
    request: { params: allRequired({ client_id: str(64) }) },
    responses: {
      200: {
        description: 'Deletion result',
        data: allRequired({ client_id: { type: 'string' }, deleted: { const: true } }),
      },
    },
    handler: async (ctx) => {
      requireApiKey(ctx);
      const c = await ownClient(ctx, ctx.params.client_id);
      await handleCommands(
        ctx.deps.store,
        [
          streamCommand({
            streamId: oauthClientStream(c.client_id),
            decider: oauthFacts,
            expect: 'any',
            command: [{ type: 'OAuthClientDeleted', data: { client_id: c.client_id, owner_id: c.owner_id } }],
          }),
        ],
        { metadata: requestMeta(ctx) },
      );
      return { data: { client_id: c.client_id, deleted: true } };
    },
  }),
  defineRoute<
    unknown,
    {
      response_type: string;
      client_id: string;
      redirect_uri?: string;
      scope?: string;
      state?: string;
      code_challenge?: string;
      code_challenge_method?: string;
    }
  >({
    method: 'get',
    path: `${BASE}/oauth/authorize`,
    auth: 'user',
    tags,
    summary:
      'Authorization endpoint: the user (API key) consents; 302 to redirect_uri with code and state (or error). PKCE S256 required for public clients',
    description:
      "Called with the consenting user's API key (an OAuth access token is 403). An unknown client_id, a redirect_uri the client did not register, or a public client without code_challenge is 400 and never redirects; once the redirect URI is known, errors (such as invalid_scope for a scope outside the client's) go back in the redirect. scope defaults to the client's scopes; the code lives 10 minutes and is single use.",
    request: {
      query: withRequired(
        {
          response_type: { type: 'string', enum: ['code'] },
          client_id: str(64),
          redirect_uri: httpUrl(),
          scope: str(500),
          state: str(500),
          code_challenge: { type: 'string', minLength: 43, maxLength: 128, pattern: '^[A-Za-z0-9._~-]+$' },
          code_challenge_method: { type: 'string', enum: ['S256'] },
        },
        ['response_type', 'client_id'],
      ),
    },
    responses: {
      302: { description: 'Redirect to the client with `code` and `state`, or with `error` and `error_description`' },
    },
    errors: { 403: 'Consent needs an API key (not an OAuth token)' },
    handler: async (ctx) => {
      requireApiKey(ctx);
      const client = await loadClient(ctx.deps.store, ctx.query.client_id);
      if (!client)
        throw new ValidationError(
          [{ location: 'query', path: 'client_id', kind: 'constraint', message: 'Unknown client_id' }],
          'Unknown client_id',
          { error: 'invalid_client' },
        );
      if (client.token_endpoint_auth_method === 'none' && !ctx.query.code_challenge)
        throw new ValidationError(
          [
            {
              location: 'query',
              path: 'code_challenge',
              kind: 'missing',
              message: 'Public clients must use PKCE (code_challenge, S256)',
            },
          ],
          'Public clients must use PKCE (code_challenge, S256)',
          { error: 'invalid_request' },
        );
      const request = new OAuthRequest({
        method: 'GET',
        headers: {},
        query: ctx.query as Record<string, string>,
        body: {},
      });
      const response = new OAuthResponse({ headers: {} });
      try {
        await server(ctx).authorize(request, response, {
          authenticateHandler: { handle: () => ({ id: userIdOf(ctx) }) },
        });
      } catch (e) {
        // After the redirect URI is known, errors go back to the client in the redirect (RFC 6749 4.1.2.1).
        if (!response.headers?.location) throw oauthFailure(e, true);
      }
      return { status: 302, headers: { Location: response.headers!.location } };
    },
  }),
  defineRoute<Record<string, string>>({
    method: 'post',
    path: `${BASE}/oauth/token`,
    auth: 'public',
    bodyContentType: 'application/x-www-form-urlencoded',
    tags,
    summary:
      'Token endpoint (form-encoded): authorization_code (code, redirect_uri, client_id, client_secret and/or code_verifier) or refresh_token; answers the RFC 6749 token response',
    description:
      'Public: no bearer credential (calls count in the anonymous rate bucket, per client_id). authorization_code exchanges a code, with its redirect_uri and the code_verifier when it was issued with a challenge, for a cpo_ access token (1 hour) and a cpr_ refresh token (30 days); refresh_token rotates: the used refresh token and its access token end, and a second use is 400 invalid_grant. Confidential clients must send client_secret and public clients must not (401 invalid_client); errors carry the RFC 6749 code in details.error.',
    request: {
      body: withRequired(
        {
          grant_type: { type: 'string', enum: ['authorization_code', 'refresh_token'] },
          code: formString(200),
          redirect_uri: formString(),
          client_id: formString(64),
          client_secret: formString(200),
          code_verifier: { type: 'string', minLength: 43, maxLength: 128 },
          refresh_token: formString(200),
          scope: formString(500),
        },
        ['grant_type', 'client_id'],
        // RFC 6749 section 3.2: the token endpoint ignores parameters it does not know (extensions of other servers).
        { additionalProperties: true },
      ),
    },
    responses: {
      200: {
        description: 'Token response: a `cpo_` access token accepted by the calendar routes, with its scopes',
        data: allRequired({
          access_token: { type: 'string' },
          token_type: { const: 'Bearer' },
          expires_in: int,
          refresh_token: { type: 'string' },
          scope: { type: 'string' },
        }),
      },
    },
    handler: async (ctx) => {
      const b = ctx.body;
      const client = await loadClient(ctx.deps.store, b.client_id);
      // Confidential clients always authenticate, with or without PKCE.
      if (client && client.token_endpoint_auth_method !== 'none' && !b.client_secret)
        throw new AuthenticationError('client_secret is required for this client', { error: 'invalid_client' });
      if (client && client.token_endpoint_auth_method === 'none' && b.client_secret)
        throw new AuthenticationError('This public client has no secret', { error: 'invalid_client' });
      const request = new OAuthRequest({
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '1' },
        query: {},
        body: { ...b },
      });
      const response = new OAuthResponse({ headers: {} });
      let token;
      try {
        token = await server(ctx).token(request, response, {
          requireClientAuthentication: {
            authorization_code: client?.token_endpoint_auth_method !== 'none',
            refresh_token: client?.token_endpoint_auth_method !== 'none',
          },
        });
      } catch (e) {
        throw oauthFailure(e);
      }
      return {
        data: {
          access_token: token.accessToken,
          token_type: 'Bearer',
          expires_in: Math.max(0, Math.round((token.accessTokenExpiresAt!.getTime() - Date.now()) / 1000)),
          ...(token.refreshToken ? { refresh_token: token.refreshToken } : {}),
          scope: (Array.isArray(token.scope) ? token.scope : [token.scope].filter(Boolean)).join(' '),
        },
        headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache' },
      };
    },
  }),
];
