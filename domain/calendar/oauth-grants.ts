/**
 * The write decisions of the calendar's OAuth 2.0 server (docs/calendar.md, "OAuth"): what is issued (a client, an
 * authorization code, an access token, a refresh token) is recorded once under its fresh id, and a single-use grant
 * (an authorization code, a refresh token) ends once: a second redemption or rotation is refused, however the
 * requests interleave (handleCommands reads the grant, decides, and appends at the version it read).
 */
import { Decider, factsDecider } from '../decider';
import { ConflictError } from '../errors';
import type { IdentityEvent } from '../events/identity';
import type { OAuthEvent } from '../events/oauth';

/** Issued clients, codes and tokens, a client's deletion and an access token's end: facts, recorded as they happen. */
export const oauthFacts = factsDecider<OAuthEvent | IdentityEvent>();

/** A single-use grant's stream: issued, then at most one end. */
export interface GrantState {
  issued: boolean;
  ended: boolean;
}

type GrantEnd = Extract<OAuthEvent, { type: 'OAuthCodeRedeemed' | 'OAuthRefreshTokenRevoked' }>;

/** An authorization code is redeemed once, a refresh token rotated once: the command is the ending event. */
export const singleUseGrantDecider: Decider<GrantEnd, GrantState> = {
  initialState: { issued: false, ended: false },
  evolve: (s, e) => {
    if (e.type === 'OAuthCodeIssued' || e.type === 'OAuthRefreshTokenIssued') return { ...s, issued: true };
    if (e.type === 'OAuthCodeRedeemed' || e.type === 'OAuthRefreshTokenRevoked') return { ...s, ended: true };
    return s;
  },
  decide: (end, s) => {
    if (!s.issued || s.ended) throw new ConflictError('the grant is unknown or was already used');
    return [end];
  },
};
