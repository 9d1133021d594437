/**
 * Pure state of users and credentials, folded from their events. The identity
 * projection stores the same state in tables; the API folds a stream itself
 * only when the projection has not yet applied a credential's events (see
 * api/identity/lookup.ts), so both paths must agree — they share these rules.
 */
import type { DomainEvent } from '../events';
import type { KeyEnvironment, PlanKey, UserRole } from '../events/identity';

export type CredentialKind = 'api_key' | 'session' | 'oauth';

export interface UserState {
  user_id: string;
  plan: PlanKey;
  role: UserRole;
  email?: string;
  /** Set while a cancelled subscription runs out: after it the Free plan applies (see effectivePlan). */
  ends_at?: string;
}

export interface CredentialState {
  kind: CredentialKind;
  id: string;
  user_id: string;
  token_hash: string;
  /** API keys: their environment; session and OAuth tokens count as production. */
  environment: KeyEnvironment;
  revoked: boolean;
  /** ISO time after which the credential no longer works (token expiry, or a rotated key's grace end). */
  expires_at: string | null;
}

/** One event of a user stream folded into the user (events of other kinds are ignored). */
export function evolveUser(s: UserState | undefined, e: DomainEvent): UserState | undefined {
  if (e.type === 'UserCreated')
    return {
      user_id: e.data.user_id,
      plan: e.data.plan,
      role: e.data.role,
      ...(e.data.email ? { email: e.data.email } : {}),
    };
  if (e.type === 'PlanChanged' && s)
    return { user_id: s.user_id, plan: e.data.plan, role: s.role, ...(s.email ? { email: s.email } : {}) };
  if (e.type === 'SubscriptionCancelled' && s) return { ...s, ends_at: e.data.expires_at };
  return s;
}

export const foldUser = (events: readonly DomainEvent[]): UserState | undefined => events.reduce(evolveUser, undefined);

/**
 * The plan whose limits apply at `nowMs`: the subscribed plan, or Free once a
 * cancelled subscription has run out (domain/subscription/state.ts).
 */
export function effectivePlan(u: { plan: PlanKey; ends_at?: string | null }, nowMs: number): PlanKey {
  return u.ends_at && nowMs >= Date.parse(u.ends_at) ? 'free' : u.plan;
}

/** One event of a credential stream folded into the credential (events of other kinds are ignored). */
export function evolveCredential(s: CredentialState | undefined, e: DomainEvent): CredentialState | undefined {
  switch (e.type) {
    case 'ApiKeyCreated':
      return {
        kind: 'api_key',
        id: e.data.key_id,
        user_id: e.data.user_id,
        token_hash: e.data.key_hash,
        environment: e.data.environment,
        revoked: false,
        expires_at: null,
      };
    case 'ApiKeyRotated':
      return s && { ...s, expires_at: earlier(s.expires_at, e.data.grace_until) };
    case 'SessionStarted':
      return {
        kind: 'session',
        id: e.data.session_id,
        user_id: e.data.user_id,
        token_hash: e.data.token_hash,
        environment: 'production',
        revoked: false,
        expires_at: e.data.expires_at,
      };
    case 'OAuthTokenIssued':
      return {
        kind: 'oauth',
        id: e.data.token_id,
        user_id: e.data.user_id,
        token_hash: e.data.token_hash,
        environment: 'production',
        revoked: false,
        expires_at: e.data.expires_at,
      };
    case 'ApiKeyRevoked':
    case 'SessionEnded':
    case 'OAuthTokenRevoked':
      return s && { ...s, revoked: true };
    default:
      return s;
  }
}

export const foldCredential = (events: readonly DomainEvent[]): CredentialState | undefined =>
  events.reduce(evolveCredential, undefined);

function earlier(a: string | null, b: string): string {
  return a && Date.parse(a) < Date.parse(b) ? a : b;
}

/** Whether a credential is accepted at `nowMs`: not revoked and not past its expiry or grace end. */
export function credentialUsable(c: Pick<CredentialState, 'revoked' | 'expires_at'>, nowMs: number): boolean {
  return !c.revoked && (c.expires_at === null || Date.parse(c.expires_at) > nowMs);
}
