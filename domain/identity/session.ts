/**
 * Decisions on a session token's stream (`session-<session_id>`): a session
 * is started once (its id is new: a second start of one id is a conflict) and
 * ended by its owner; another user's, an unknown or an already ended session
 * is "not found". The token, its hash and its expiry are made before the
 * decision (api/identity/commands.ts) and arrive in the command.
 */
import type { Decider } from '../decider';
import type { DomainEvent } from '../events';
import { ConflictError, NotFoundError } from '../errors';
import { CredentialState, evolveCredential } from './state';

export type SessionCommand =
  | { kind: 'start'; session_id: string; user_id: string; token_hash: string; expires_at: string; key_id: string }
  | { kind: 'end'; user_id: string };

export const sessionDecider: Decider<SessionCommand, CredentialState | undefined> = {
  initialState: undefined,
  evolve: evolveCredential,
  decide(c, s): DomainEvent[] {
    if (c.kind === 'start') {
      if (s) throw new ConflictError('session id already in use');
      const { session_id, user_id, token_hash, expires_at, key_id } = c;
      return [{ type: 'SessionStarted', data: { session_id, user_id, token_hash, expires_at, key_id } }];
    }
    if (!s || s.kind !== 'session' || s.user_id !== c.user_id || s.revoked)
      throw new NotFoundError('Session not found');
    return [{ type: 'SessionEnded', data: { session_id: s.id, user_id: s.user_id } }];
  },
};
