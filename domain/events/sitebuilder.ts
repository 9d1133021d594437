/**
 * Site publishing (Document 2, /api/sitebuilder). The connection of a user to
 * the website builder lives on stream `sitebuilder-<user_id>` (authorizations
 * started and consumed, connected, token refreshed, disconnected); each
 * publish job records its remote steps on `sitebuilderpost-<task_id>`.
 * Events never carry a token, a PKCE verifier or a raw state: only the
 * state's SHA-256 and the access token's expiry.
 */
import { EventDefinitions, openAllRequired } from './types';
import { anyString, arr, bool, int, iso, nonEmptyString } from '../schema';

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

const nullableStr = { type: ['string', 'null'] };

export const sitebuilderEvents: EventDefinitions<SitebuilderEvent['type']> = {
  SitebuilderAuthorizationStarted: {
    area: 'sitebuilder',
    version: 1,
    schema: openAllRequired({
      user_id: nonEmptyString,
      authorization_id: nonEmptyString,
      state_hash: { type: 'string', pattern: '^[0-9a-f]{64}$' },
      redirect_uri: nonEmptyString,
      scopes: arr(anyString),
      expires_at: iso,
    }),
  },
  SitebuilderAuthorizationConsumed: {
    area: 'sitebuilder',
    version: 1,
    schema: openAllRequired({ user_id: nonEmptyString, authorization_id: nonEmptyString }),
  },
  SitebuilderConnected: {
    area: 'sitebuilder',
    version: 1,
    schema: openAllRequired({
      user_id: nonEmptyString,
      connection_id: nonEmptyString,
      authorization_id: nonEmptyString,
      scopes: arr(anyString),
      site_name: nullableStr,
      site_url: nullableStr,
      access_expires_at: iso,
    }),
  },
  SitebuilderTokenRefreshed: {
    area: 'sitebuilder',
    version: 1,
    schema: openAllRequired({ user_id: nonEmptyString, connection_id: nonEmptyString, access_expires_at: iso }),
  },
  SitebuilderDisconnected: {
    area: 'sitebuilder',
    version: 1,
    schema: openAllRequired({
      user_id: nonEmptyString,
      connection_id: nonEmptyString,
      reason: { enum: ['user_request', 'revoked_by_builder', 'replaced'] },
      revoked_at_builder: bool,
    }),
  },
  SitebuilderCoverUploaded: {
    area: 'sitebuilder',
    version: 1,
    schema: openAllRequired({
      task_id: nonEmptyString,
      user_id: nonEmptyString,
      file_id: nonEmptyString,
      url: nonEmptyString,
      mime_type: nonEmptyString,
      size_bytes: int,
    }),
  },
  SitebuilderDraftCreated: {
    area: 'sitebuilder',
    version: 1,
    schema: openAllRequired({
      task_id: nonEmptyString,
      user_id: nonEmptyString,
      connection_id: nonEmptyString,
      draft_id: nonEmptyString,
      found_existing: bool,
    }),
  },
  SitebuilderPostPublished: {
    area: 'sitebuilder',
    version: 1,
    schema: openAllRequired({
      task_id: nonEmptyString,
      user_id: nonEmptyString,
      draft_id: nonEmptyString,
      post_id: nonEmptyString,
      url: nullableStr,
    }),
  },
};

/** The user's connection stream (authorizations and the connection). */
export const sitebuilderStream = (userId: string) => `sitebuilder-${userId}`;
/** One publish job's remote steps. */
export const sitebuilderPostStream = (taskId: string) => `sitebuilderpost-${taskId}`;
