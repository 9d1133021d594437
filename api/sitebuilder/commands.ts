/**
 * Connection commands of the API: starting an authorization (a fresh state
 * and PKCE challenge, recorded as its hash) and consuming one at the callback
 * (single use, before the code is exchanged). Both run the connection decider
 * through handleCommand, so two callbacks with the same state cannot both
 * consume it.
 */
import { randomUUID } from 'node:crypto';
import { ServiceUnavailableError } from '../../domain/errors';
import { sitebuilderStream } from '../../domain/events/sitebuilder';
import { liveConnection, sitebuilderDecider } from '../../domain/sitebuilder/connection';
import type { EventMetadata, EventStore, RecordedEvent } from '../../infra/eventstore';
import { handleCommand } from '../../infra/eventstore/command';
import { authorizationUrl, codeChallenge, newState, pkceVerifier, stateHash } from '../../infra/sitebuilder/pkce';
import type { SitebuilderApiSettings } from '../../infra/sitebuilder/settings';
import type { AppDeps } from '../kernel/types';

/** The site-builder settings, or 503 naming what to configure. */
export function settingsOf(deps: AppDeps): SitebuilderApiSettings {
  const s = deps.sitebuilder;
  if (!s || s.missing.length)
    throw new ServiceUnavailableError(
      `Site publishing is not configured: set ${(s?.missing.length ? s.missing : ['SITEBUILDER_CLIENT_ID', 'SITEBUILDER_AUTHORIZE_URL', 'SITEBUILDER_TOKEN_URL', 'SITEBUILDER_API_BASE_URL', 'SITEBUILDER_REDIRECT_URI']).join(', ')} (see docs/sitebuilder.md)`,
      { service: 'sitebuilder' },
    );
  return s;
}

export interface StartedAuthorization {
  authorization_url: string;
  state: string;
  code_challenge: string;
  code_challenge_method: 'S256';
  redirect_uri: string;
  scopes: string[];
  expires_at: string;
}

export async function startAuthorization(
  store: EventStore,
  s: SitebuilderApiSettings,
  userId: string,
  now: Date,
  meta: EventMetadata,
): Promise<{ value: StartedAuthorization; events: RecordedEvent[] }> {
  const authorization_id = randomUUID();
  const state = newState();
  const challenge = codeChallenge(pkceVerifier(s.pkceKey, authorization_id));
  const expires_at = new Date(now.getTime() + s.stateTtlSeconds * 1000).toISOString();
  const r = await handleCommand(
    store,
    sitebuilderStream(userId),
    sitebuilderDecider,
    {
      kind: 'start_authorization',
      user_id: userId,
      authorization_id,
      state_hash: stateHash(state),
      redirect_uri: s.redirectUri,
      scopes: s.scopes,
      expires_at,
    },
    { metadata: meta },
  );
  return {
    value: {
      authorization_url: authorizationUrl({
        authorizeUrl: s.authorizeUrl,
        clientId: s.clientId,
        redirectUri: s.redirectUri,
        scopes: s.scopes,
        state,
        challenge,
      }),
      state,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      redirect_uri: s.redirectUri,
      scopes: s.scopes,
      expires_at,
    },
    events: r.events,
  };
}

/** Consumes the authorization the callback's state names (or the newest live one); 400 when there is none. */
export async function consumeAuthorization(
  store: EventStore,
  userId: string,
  state: string | undefined,
  now: Date,
  meta: EventMetadata,
): Promise<string> {
  const r = await handleCommand(
    store,
    sitebuilderStream(userId),
    sitebuilderDecider,
    {
      kind: 'consume_authorization',
      user_id: userId,
      state_hash: state === undefined ? undefined : stateHash(state),
      now,
    },
    { metadata: meta },
  );
  const e = r.events[0];
  if (e?.type !== 'SitebuilderAuthorizationConsumed') throw new Error('authorization was not consumed');
  return e.data.authorization_id;
}

/** The caller's live connection from its stream (not the projection: a publish right after connecting must see it). */
export async function liveConnectionOf(store: EventStore, userId: string) {
  const { state } = await store.aggregateStream(
    sitebuilderStream(userId),
    sitebuilderDecider.evolve,
    sitebuilderDecider.initialState,
  );
  return liveConnection(state);
}
