/**
 * Site publishing (Document 2, /api/sitebuilder). The connection of a user to
 * the website builder lives on stream `sitebuilder-<user_id>` (authorizations
 * started and consumed, connected, token refreshed, disconnected); each
 * publish job records its remote steps on `sitebuilderpost-<task_id>`.
 * Events never carry a token, a PKCE verifier or a raw state: only the
 * state's SHA-256 and the access token's expiry.
 */
import { anyStr, bool, EventDefinitions, int, isoTime, obj, str } from './types';

export type DisconnectReason = 'user_request' | 'revoked_by_builder' | 'replaced';

export type SitebuilderEvent =
  | {
      type: 'SitebuilderAuthorizationStarted';
      data: {
        user_id: string;
        authorization_id: string;
        /** SHA-256 (hex) of the state sent to the builder; the state itself is only known to the client. */
        state_hash: string;
        redirect_uri: string;
        scopes: string[];
        expires_at: string;
      };
    }
  | { type: 'SitebuilderAuthorizationConsumed'; data: { user_id: string; authorization_id: string } }
  | {
      type: 'SitebuilderConnected';
      data: {
        user_id: string;
        connection_id: string;
        authorization_id: string;
        scopes: string[];
        site_name: string | null;
        site_url: string | null;
        access_expires_at: string;
      };
    }
  | { type: 'SitebuilderTokenRefreshed'; data: { user_id: string; connection_id: string; access_expires_at: string } }
  | {
      type: 'SitebuilderDisconnected';
      data: { user_id: string; connection_id: string; reason: DisconnectReason; revoked_at_builder: boolean };
    }
  | {
      type: 'SitebuilderCoverUploaded';
      data: { task_id: string; user_id: string; file_id: string; url: string; mime_type: string; size_bytes: number };
    }
  | {
      type: 'SitebuilderDraftCreated';
      data: {
        task_id: string;
        user_id: string;
        connection_id: string;
        draft_id: string;
        /** The draft was found by its idempotency marker (an earlier attempt created it) instead of created now. */
        found_existing: boolean;
      };
    }
  | {
      type: 'SitebuilderPostPublished';
      data: { task_id: string; user_id: string; draft_id: string; post_id: string; url: string | null };
    };

const strs = { type: 'array', items: anyStr };
const nullableStr = { type: ['string', 'null'] };

export const sitebuilderEvents: EventDefinitions<SitebuilderEvent['type']> = {
  SitebuilderAuthorizationStarted: {
    area: 'sitebuilder',
    version: 1,
    schema: obj({
      user_id: str,
      authorization_id: str,
      state_hash: { type: 'string', pattern: '^[0-9a-f]{64}$' },
      redirect_uri: str,
      scopes: strs,
      expires_at: isoTime,
    }),
  },
  SitebuilderAuthorizationConsumed: {
    area: 'sitebuilder',
    version: 1,
    schema: obj({ user_id: str, authorization_id: str }),
  },
  SitebuilderConnected: {
    area: 'sitebuilder',
    version: 1,
    schema: obj({
      user_id: str,
      connection_id: str,
      authorization_id: str,
      scopes: strs,
      site_name: nullableStr,
      site_url: nullableStr,
      access_expires_at: isoTime,
    }),
  },
  SitebuilderTokenRefreshed: {
    area: 'sitebuilder',
    version: 1,
    schema: obj({ user_id: str, connection_id: str, access_expires_at: isoTime }),
  },
  SitebuilderDisconnected: {
    area: 'sitebuilder',
    version: 1,
    schema: obj({
      user_id: str,
      connection_id: str,
      reason: { enum: ['user_request', 'revoked_by_builder', 'replaced'] },
      revoked_at_builder: bool,
    }),
  },
  SitebuilderCoverUploaded: {
    area: 'sitebuilder',
    version: 1,
    schema: obj({ task_id: str, user_id: str, file_id: str, url: str, mime_type: str, size_bytes: int }),
  },
  SitebuilderDraftCreated: {
    area: 'sitebuilder',
    version: 1,
    schema: obj({ task_id: str, user_id: str, connection_id: str, draft_id: str, found_existing: bool }),
  },
  SitebuilderPostPublished: {
    area: 'sitebuilder',
    version: 1,
    schema: obj({ task_id: str, user_id: str, draft_id: str, post_id: str, url: nullableStr }),
  },
};

/** The user's connection stream (authorizations and the connection). */
export const sitebuilderStream = (userId: string) => `sitebuilder-${userId}`;
/** One publish job's remote steps. */
export const sitebuilderPostStream = (taskId: string) => `sitebuilderpost-${taskId}`;
