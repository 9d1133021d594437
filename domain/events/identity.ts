/**
 * Identity: users (plan, role), API keys and access tokens (session tokens of
 * the outreach family, OAuth 2.0 access tokens of the calendar family).
 * Streams: `user-<user_id>`, `apikey-<key_id>`, `session-<session_id>`,
 * `oauthtoken-<token_id>`. A credential's id is part of the credential text,
 * so the API can read its stream directly when the projection lags.
 * Secrets never enter an event: only their SHA-256 hashes.
 */
import { EventDefinitions, openAllRequired, openWithRequired } from './types';
import { iso, nonEmptyString } from '../schema';

export type UserRole = 'user' | 'admin';
export type PlanKey = 'free' | 'basic' | 'pro' | 'enterprise';
export type KeyEnvironment = 'development' | 'production';

/**
 * Who changed a plan (docs/security.md, API6): the user themselves (cancel, downgrade, resume), an administrator
 * (admin route, by user id), an operator at the console (CLI, by login name) or the billing provider (a verified
 * event, by its event id). Absent in events written before actors were recorded.
 */
export type PlanActorKind = 'user' | 'admin' | 'operator' | 'billing';
export interface PlanActor {
  kind: PlanActorKind;
  id: string;
}

export interface ApiKeyCreatedData {
  key_id: string;
  user_id: string;
  name: string;
  environment: KeyEnvironment;
  /** Public part shown in listings and in the key text (`cp_live_<prefix>_<secret>`); equals key_id. */
  prefix: string;
  /** hex SHA-256 of the whole key text */
  key_hash: string;
  /** Set when the key was made by rotating another one. */
  rotated_from?: string;
}

export type IdentityEvent =
  | { type: 'UserCreated'; data: { user_id: string; email?: string; plan: PlanKey; role: UserRole } }
  /** Subscribe, upgrade, downgrade or resume: applies at once. started_at: the API clock's time of the change (absent in older events: recordedAt). */
  | {
      type: 'PlanChanged';
      data: {
        user_id: string;
        plan: PlanKey;
        previous_plan: PlanKey;
        started_at?: string;
        changed_by?: PlanActor;
        /** A change made by the billing provider: its event id (a redelivered event changes nothing). */
        billing_event_id?: string;
      };
    }
  /** The plan stays until expires_at (end of the billing period), then the Free plan applies. */
  | {
      type: 'SubscriptionCancelled';
      data: { user_id: string; plan: PlanKey; cancelled_at: string; expires_at: string; changed_by?: PlanActor };
    }
  | { type: 'ApiKeyCreated'; data: ApiKeyCreatedData }
  | { type: 'ApiKeyRenamed'; data: { key_id: string; user_id: string; name: string } }
  | { type: 'ApiKeyRevoked'; data: { key_id: string; user_id: string } }
  | { type: 'ApiKeyRotated'; data: { old_key_id: string; new_key_id: string; user_id: string; grace_until: string } }
  | {
      type: 'SessionStarted';
      data: { session_id: string; user_id: string; token_hash: string; expires_at: string; key_id: string };
    }
  | { type: 'SessionEnded'; data: { session_id: string; user_id: string } }
  | {
      type: 'OAuthTokenIssued';
      data: {
        token_id: string;
        user_id: string;
        client_id: string;
        scope: string;
        token_hash: string;
        expires_at: string;
      };
    }
  | { type: 'OAuthTokenRevoked'; data: { token_id: string; user_id: string } };

const plan = { enum: ['free', 'basic', 'pro', 'enterprise'] };
const actor = openAllRequired({ kind: { enum: ['user', 'admin', 'operator', 'billing'] }, id: nonEmptyString });
const hash = { type: 'string', pattern: '^[0-9a-f]{64}$' };
const a = 'identity';

export const identityEvents: EventDefinitions<IdentityEvent['type']> = {
  UserCreated: {
    area: a,
    version: 1,
    schema: openWithRequired(
      { user_id: nonEmptyString, email: nonEmptyString, plan, role: { enum: ['user', 'admin'] } },
      ['user_id', 'plan', 'role'],
    ),
  },
  PlanChanged: {
    area: a,
    version: 1,
    schema: openWithRequired(
      {
        user_id: nonEmptyString,
        plan,
        previous_plan: plan,
        started_at: iso,
        changed_by: actor,
        billing_event_id: nonEmptyString,
      },
      ['user_id', 'plan', 'previous_plan'],
    ),
  },
  SubscriptionCancelled: {
    area: a,
    version: 1,
    schema: openWithRequired({ user_id: nonEmptyString, plan, cancelled_at: iso, expires_at: iso, changed_by: actor }, [
      'user_id',
      'plan',
      'cancelled_at',
      'expires_at',
    ]),
  },
  ApiKeyCreated: {
    area: a,
    version: 1,
    schema: openWithRequired(
      {
        key_id: nonEmptyString,
        user_id: nonEmptyString,
        name: nonEmptyString,
        environment: { enum: ['development', 'production'] },
        prefix: nonEmptyString,
        key_hash: hash,
        rotated_from: nonEmptyString,
      },
      ['key_id', 'user_id', 'name', 'environment', 'prefix', 'key_hash'],
    ),
  },
  ApiKeyRenamed: {
    area: a,
    version: 1,
    schema: openAllRequired({ key_id: nonEmptyString, user_id: nonEmptyString, name: nonEmptyString }),
  },
  ApiKeyRevoked: {
    area: a,
    version: 1,
    schema: openAllRequired({ key_id: nonEmptyString, user_id: nonEmptyString }),
  },
  ApiKeyRotated: {
    area: a,
    version: 1,
    schema: openAllRequired({
      old_key_id: nonEmptyString,
      new_key_id: nonEmptyString,
      user_id: nonEmptyString,
      grace_until: iso,
    }),
  },
  SessionStarted: {
    area: a,
    version: 1,
    schema: openAllRequired({
      session_id: nonEmptyString,
      user_id: nonEmptyString,
      token_hash: hash,
      expires_at: iso,
      key_id: nonEmptyString,
    }),
  },
  SessionEnded: {
    area: a,
    version: 1,
    schema: openAllRequired({ session_id: nonEmptyString, user_id: nonEmptyString }),
  },
  OAuthTokenIssued: {
    area: a,
    version: 1,
    schema: openAllRequired({
      token_id: nonEmptyString,
      user_id: nonEmptyString,
      client_id: nonEmptyString,
      scope: { type: 'string' },
      token_hash: hash,
      expires_at: iso,
    }),
  },
  OAuthTokenRevoked: {
    area: a,
    version: 1,
    schema: openAllRequired({ token_id: nonEmptyString, user_id: nonEmptyString }),
  },
};

export const userStream = (userId: string) => `user-${userId}`;
export const apiKeyStream = (keyId: string) => `apikey-${keyId}`;
export const sessionStream = (sessionId: string) => `session-${sessionId}`;
export const oauthTokenStream = (tokenId: string) => `oauthtoken-${tokenId}`;
