/**
 * Pure state of users and credentials, folded from their events. The identity
 * projection stores the same state in tables; the API folds a stream itself
 * only when the projection has not yet applied a credential's events (see
 * api/identity/lookup.ts), so both paths must agree — they share these rules.
 */
import type { IdentityEvent, KeyEnvironment, PlanKey, UserRole } from './events/identity';

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

type Ev = IdentityEvent;

export function foldUser(events: Ev[]): UserState | undefined {
  let s: UserState | undefined;
  for (const e of events) {
    if (e.type === 'UserCreated') s = { user_id: e.data.user_id, plan: e.data.plan, role: e.data.role, ...(e.data.email ? { email: e.data.email } : {}) };
    else if (e.type === 'PlanChanged' && s) s = { user_id: s.user_id, plan: e.data.plan, role: s.role, ...(s.email ? { email: s.email } : {}) };
    else if (e.type === 'SubscriptionCancelled' && s) s = { ...s, ends_at: e.data.expires_at };
  }
  return s;
}

/**
 * The plan whose limits apply at `nowMs`: the subscribed plan, or Free once a
 * cancelled subscription has run out (domain/subscription/state.ts).
 */
export function effectivePlan(u: { plan: PlanKey; ends_at?: string | null }, nowMs: number): PlanKey {
  return u.ends_at && nowMs >= Date.parse(u.ends_at) ? 'free' : u.plan;
}

export function foldCredential(events: Ev[]): CredentialState | undefined {
  let s: CredentialState | undefined;
  for (const e of events) {
    switch (e.type) {
      case 'ApiKeyCreated':
        s = { kind: 'api_key', id: e.data.key_id, user_id: e.data.user_id, token_hash: e.data.key_hash, environment: e.data.environment, revoked: false, expires_at: null };
        break;
      case 'ApiKeyRotated':
        if (s) s = { ...s, expires_at: earlier(s.expires_at, e.data.grace_until) };
        break;
      case 'SessionStarted':
        s = { kind: 'session', id: e.data.session_id, user_id: e.data.user_id, token_hash: e.data.token_hash, environment: 'production', revoked: false, expires_at: e.data.expires_at };
        break;
      case 'OAuthTokenIssued':
        s = { kind: 'oauth', id: e.data.token_id, user_id: e.data.user_id, token_hash: e.data.token_hash, environment: 'production', revoked: false, expires_at: e.data.expires_at };
        break;
      case 'ApiKeyRevoked':
      case 'SessionEnded':
      case 'OAuthTokenRevoked':
        if (s) s = { ...s, revoked: true };
        break;
      default:
        break;
    }
  }
  return s;
}

function earlier(a: string | null, b: string): string {
  return a && Date.parse(a) < Date.parse(b) ? a : b;
}

/** Whether a credential is accepted at `nowMs`: not revoked and not past its expiry or grace end. */
export function credentialUsable(c: Pick<CredentialState, 'revoked' | 'expires_at'>, nowMs: number): boolean {
  return !c.revoked && (c.expires_at === null || Date.parse(c.expires_at) > nowMs);
}
