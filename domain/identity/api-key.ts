/**
 * Decisions on an API key's stream (`apikey-<key_id>`): create, rename,
 * revoke, rotate. Only the key's owner may change it, and only while it works:
 * another user's, a revoked or an expired key is "not found" (no hint that it
 * exists). A key that was rotated already cannot be rotated again (409).
 */
import type { Decider, Stored } from '../decider';
import { ConflictError, NotFoundError } from '../errors';
import type { DomainEvent } from '../events';
import type { ApiKeyCreatedData } from '../events/identity';
import { CredentialState, credentialUsable, evolveCredential } from './state';

export interface ApiKeyAggregate {
  key: CredentialState | undefined;
  /** The key's latest name (a rotation's successor keeps it unless told otherwise). */
  name: string | undefined;
}

export type ApiKeyCommand =
  | { kind: 'create'; key: ApiKeyCreatedData }
  | { kind: 'rename'; user_id: string; name: string; now: Date }
  | { kind: 'revoke'; user_id: string; now: Date }
  | { kind: 'rotate'; user_id: string; now: Date; new_key_id: string; grace_until: string };

/** The caller's live key, or 404. */
export function ownLiveKey(s: ApiKeyAggregate, userId: string, now: Date): CredentialState {
  const k = s.key;
  if (!k || k.kind !== 'api_key' || k.user_id !== userId || !credentialUsable(k, now.getTime()))
    throw new NotFoundError('API key not found');
  return k;
}

export const apiKeyDecider: Decider<ApiKeyCommand, ApiKeyAggregate> = {
  initialState: { key: undefined, name: undefined },
  evolve(s, e: Stored) {
    const name = e.type === 'ApiKeyCreated' || e.type === 'ApiKeyRenamed' ? e.data.name : s.name;
    return { key: evolveCredential(s.key, e), name };
  },
  decide(c, s): DomainEvent[] {
    switch (c.kind) {
      case 'create':
        return [{ type: 'ApiKeyCreated', data: c.key }];
      case 'rename': {
        const k = ownLiveKey(s, c.user_id, c.now);
        return [{ type: 'ApiKeyRenamed', data: { key_id: k.id, user_id: c.user_id, name: c.name } }];
      }
      case 'revoke': {
        const k = ownLiveKey(s, c.user_id, c.now);
        return [{ type: 'ApiKeyRevoked', data: { key_id: k.id, user_id: c.user_id } }];
      }
      case 'rotate': {
        const k = ownLiveKey(s, c.user_id, c.now);
        if (k.expires_at)
          throw new ConflictError('This key was already rotated; rotate its successor instead', { key_id: k.id });
        return [
          {
            type: 'ApiKeyRotated',
            data: { old_key_id: k.id, new_key_id: c.new_key_id, user_id: c.user_id, grace_until: c.grace_until },
          },
        ];
      }
    }
  },
};
