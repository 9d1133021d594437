/**
 * Decisions on a session token's stream (`session-<session_id>`): a session
 * is ended by its owner; another user's, an unknown or an already ended
 * session is "not found".
 */
import type { Decider } from '../decider';
import { NotFoundError } from '../errors';
import { CredentialState, evolveCredential } from './state';

export type SessionCommand = { kind: 'end'; user_id: string };

export const sessionDecider: Decider<SessionCommand, CredentialState | undefined> = {
  initialState: undefined,
  evolve: evolveCredential,
  decide(c, s) {
    if (!s || s.kind !== 'session' || s.user_id !== c.user_id || s.revoked)
      throw new NotFoundError('Session not found');
    return [{ type: 'SessionEnded', data: { session_id: s.id, user_id: s.user_id } }];
  },
};
