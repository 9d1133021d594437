/**
 * The storage model @node-oauth/oauth2-server asks for, on the event store:
 * clients (`oauthclient-<id>`), authorization codes (`oauthcode-<id>`),
 * refresh tokens (`oauthrefresh-<id>`) and access tokens (the identity
 * area's OAuthTokenIssued, `oauthtoken-<id>`: the `cpo_` tokens the auth stage
 * accepts). Every text handed out names its stream (`cpa_<id>_<secret>`,
 * `cpr_<id>_<secret>`, `cpo_<id>_<secret>`), only SHA-256 hashes are stored.
 * Single use is atomic: redeeming a code or rotating a refresh token appends
 * at the stream's expected version, so of two concurrent uses one fails.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { AuthorizationCode, Client, Falsey, RefreshToken, Token, User } from '@node-oauth/oauth2-server';
import { isScope } from '../../domain/calendar/permissions';
import { oauthTokenStream } from '../../domain/events/identity';
import { oauthClientStream, oauthCodeStream, oauthRefreshStream } from '../../domain/events/oauth';
import type { OAuthEvent } from '../../domain/events/oauth';
import { oauthFacts, singleUseGrantDecider } from '../../domain/calendar/oauth-grants';
import { ConflictError } from '../../domain/errors';
import { ConcurrencyError, EventStore, RecordedEvent } from '../../infra/eventstore';
import { handleCommands, StreamCommand, streamCommand } from '../../infra/eventstore/command';
import { randomBase62, sha256 } from '../identity/tokens';

/** Lifetimes (seconds): access tokens 1 h, refresh tokens 30 days, authorization codes 10 min. */
export const ACCESS_TOKEN_TTL = 3600;
export const REFRESH_TOKEN_TTL = 30 * 86400;
export const CODE_TTL = 600;

export const GRANTS = ['authorization_code', 'refresh_token'];

const secret = () => randomBytes(32).toString('base64url');
const TEXT = /^(cpa|cpr|cpo)_([A-Za-z0-9]{16})_[A-Za-z0-9_-]{43}$/;
export const newSecretText = (kind: 'cpa' | 'cpr' | 'cpcs', id = randomBase62(16)) => ({
  id,
  text: `${kind}_${id}_${secret()}`,
});

function parse(text: string, kind: 'cpa' | 'cpr' | 'cpo'): string | undefined {
  const m = TEXT.exec(text);
  return m && m[1] === kind ? m[2] : undefined;
}

const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export interface ClientState {
  client_id: string;
  owner_id: string;
  client_name: string;
  redirect_uris: string[];
  scopes: string[];
  token_endpoint_auth_method: 'none' | 'client_secret_post' | 'client_secret_basic';
  secret_hash: string | null;
  deleted: boolean;
  created_at: string;
}

export function foldClient(events: RecordedEvent[]): ClientState | undefined {
  let s: ClientState | undefined;
  for (const e of events) {
    if (e.type === 'OAuthClientRegistered') s = { ...e.data, deleted: false, created_at: e.recordedAt };
    if (e.type === 'OAuthClientDeleted' && s) s = { ...s, deleted: true };
  }
  return s;
}

export async function loadClient(store: EventStore, clientId: string): Promise<ClientState | undefined> {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(clientId)) return undefined;
  const c = foldClient(await store.readStream(oauthClientStream(clientId)));
  return c && !c.deleted ? c : undefined;
}

const asClient = (c: ClientState): Client => ({
  id: c.client_id,
  redirectUris: c.redirect_uris,
  grants: GRANTS,
  accessTokenLifetime: ACCESS_TOKEN_TTL,
  refreshTokenLifetime: REFRESH_TOKEN_TTL,
  scopes: c.scopes,
  tokenEndpointAuthMethod: c.token_endpoint_auth_method,
});

const scopeText = (scope: string[] | undefined) => (scope ?? []).join(' ');
const scopeList = (scope: string) => scope.split(' ').filter(Boolean);

/** The model for one request (the store and the clock of the API). */
export function oauthModel(store: EventStore, meta: Record<string, unknown>) {
  const appendNew = (stream: string, event: OAuthEvent, userId: string) =>
    handleCommands(store, [streamCommand({ streamId: stream, decider: oauthFacts, command: [event], expect: 'new' })], {
      metadata: { ...meta, user_id: userId },
    });
  /** Ends a single-use grant: false when it was already used (or a concurrent request used it first). */
  const endGrant = async (commands: StreamCommand[], userId: string): Promise<boolean> => {
    try {
      await handleCommands(store, commands, { metadata: { ...meta, user_id: userId } });
      return true;
    } catch (e) {
      if (e instanceof ConflictError || e instanceof ConcurrencyError) return false;
      throw e;
    }
  };
  return {
    async getClient(clientId: string, clientSecret: string | null): Promise<Client | Falsey> {
      const c = await loadClient(store, clientId);
      if (!c) return false;
      if (clientSecret !== null && clientSecret !== undefined) {
        if (!c.secret_hash || !sameHash(c.secret_hash, sha256(clientSecret))) return false;
      }
      return asClient(c);
    },
    async validateScope(_user: User, client: Client, scope?: string[]): Promise<string[] | Falsey> {
      const allowed = (client.scopes as string[]) ?? [];
      const asked = scope && scope.length ? scope : allowed;
      return asked.every((s) => isScope(s) && allowed.includes(s)) ? [...new Set(asked)] : false;
    },
    async validateRedirectUri(redirectUri: string, client: Client): Promise<boolean> {
      return (client.redirectUris as string[]).includes(redirectUri);
    },
    async generateAuthorizationCode(): Promise<string> {
      return newSecretText('cpa').text;
    },
    async saveAuthorizationCode(
      code: Pick<
        AuthorizationCode,
        'authorizationCode' | 'expiresAt' | 'redirectUri' | 'scope' | 'codeChallenge' | 'codeChallengeMethod'
      >,
      client: Client,
      user: User,
    ): Promise<AuthorizationCode> {
      const codeId = parse(code.authorizationCode, 'cpa')!;
      await appendNew(
        oauthCodeStream(codeId),
        {
          type: 'OAuthCodeIssued',
          data: {
            code_id: codeId,
            client_id: client.id,
            user_id: user.id,
            code_hash: sha256(code.authorizationCode),
            redirect_uri: code.redirectUri,
            scope: scopeText(code.scope),
            code_challenge: code.codeChallenge ?? null,
            code_challenge_method: (code.codeChallengeMethod as 'S256' | 'plain' | undefined) ?? null,
            expires_at: code.expiresAt.toISOString(),
          },
        },
        user.id,
      );
      return { ...code, client, user };
    },
    async getAuthorizationCode(text: string): Promise<AuthorizationCode | Falsey> {
      const id = parse(text, 'cpa');
      if (!id) return false;
      const events = await store.readStream(oauthCodeStream(id));
      const issued = events[0];
      if (issued?.type !== 'OAuthCodeIssued' || events.length > 1 || !sameHash(issued.data.code_hash, sha256(text)))
        return false;
      const c = await loadClient(store, issued.data.client_id);
      if (!c) return false;
      return {
        authorizationCode: text,
        expiresAt: new Date(issued.data.expires_at),
        redirectUri: issued.data.redirect_uri,
        scope: scopeList(issued.data.scope),
        client: asClient(c),
        user: { id: issued.data.user_id },
        ...(issued.data.code_challenge
          ? {
              codeChallenge: issued.data.code_challenge,
              codeChallengeMethod: issued.data.code_challenge_method ?? 'S256',
            }
          : {}),
      };
    },
    /** Single use: only the first redemption appends (singleUseGrantDecider). */
    async revokeAuthorizationCode(code: AuthorizationCode): Promise<boolean> {
      const id = parse(code.authorizationCode, 'cpa')!;
      return endGrant(
        [
          streamCommand({
            streamId: oauthCodeStream(id),
            decider: singleUseGrantDecider,
            command: {
              type: 'OAuthCodeRedeemed',
              data: { code_id: id, client_id: code.client.id, user_id: code.user.id },
            },
          }),
        ],
        code.user.id,
      );
    },
    async generateAccessToken(): Promise<string> {
      return `cpo_${randomBase62(16)}_${secret()}`;
    },
    async generateRefreshToken(): Promise<string> {
      return newSecretText('cpr').text;
    },
    /** The access token (identity area, `cpo_`) and its refresh token, appended together. */
    async saveToken(token: Token, client: Client, user: User): Promise<Token> {
      const accessId = parse(token.accessToken, 'cpo')!;
      const scope = scopeText(token.scope);
      const issued: StreamCommand[] = [
        streamCommand({
          streamId: oauthTokenStream(accessId),
          decider: oauthFacts,
          expect: 'new',
          command: [
            {
              type: 'OAuthTokenIssued',
              data: {
                token_id: accessId,
                user_id: user.id,
                client_id: client.id,
                scope,
                token_hash: sha256(token.accessToken),
                expires_at: token.accessTokenExpiresAt!.toISOString(),
              },
            },
          ],
        }),
      ];
      if (token.refreshToken) {
        const refreshId = parse(token.refreshToken, 'cpr')!;
        issued.push(
          streamCommand({
            streamId: oauthRefreshStream(refreshId),
            decider: oauthFacts,
            expect: 'new',
            command: [
              {
                type: 'OAuthRefreshTokenIssued',
                data: {
                  refresh_id: refreshId,
                  client_id: client.id,
                  user_id: user.id,
                  token_hash: sha256(token.refreshToken),
                  scope,
                  expires_at: token.refreshTokenExpiresAt!.toISOString(),
                  access_token_id: accessId,
                },
              },
            ],
          }),
        );
      }
      await handleCommands(store, issued, { metadata: { ...meta, user_id: user.id } });
      return { ...token, client, user };
    },
    async getRefreshToken(text: string): Promise<RefreshToken | Falsey> {
      const id = parse(text, 'cpr');
      if (!id) return false;
      const events = await store.readStream(oauthRefreshStream(id));
      const issued = events[0];
      if (
        issued?.type !== 'OAuthRefreshTokenIssued' ||
        events.length > 1 ||
        !sameHash(issued.data.token_hash, sha256(text))
      )
        return false;
      const c = await loadClient(store, issued.data.client_id);
      if (!c) return false;
      return {
        refreshToken: text,
        refreshTokenExpiresAt: new Date(issued.data.expires_at),
        scope: scopeList(issued.data.scope),
        client: asClient(c),
        user: { id: issued.data.user_id },
        access_token_id: issued.data.access_token_id,
      };
    },
    /** Rotation: the used refresh token and the access token issued with it end; a second use fails. */
    async revokeToken(token: RefreshToken): Promise<boolean> {
      const id = parse(token.refreshToken, 'cpr')!;
      return endGrant(
        [
          streamCommand({
            streamId: oauthRefreshStream(id),
            decider: singleUseGrantDecider,
            command: {
              type: 'OAuthRefreshTokenRevoked',
              data: { refresh_id: id, client_id: token.client.id, user_id: token.user.id, reason: 'rotated' },
            },
          }),
          streamCommand({
            streamId: oauthTokenStream(String(token.access_token_id)),
            decider: oauthFacts,
            expect: 'any',
            command: [
              {
                type: 'OAuthTokenRevoked',
                data: { token_id: String(token.access_token_id), user_id: token.user.id },
              },
            ],
          }),
        ],
        token.user.id,
      );
    },
  };
}
