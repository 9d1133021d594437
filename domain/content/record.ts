/**
 * Decisions on a content record's stream (`content-<content_id>`): revise
 * (PUT /v1/content/{id}: a new version with the whole text, so every version
 * can be read back) and delete. Version 1 is ContentCreated, written by the
 * generating workflow. Another user's, a deleted and an unknown record are all
 * "not found". A revision may name the version it was made from
 * (`expected_version`): a different current version is a conflict (409), so
 * two editors cannot silently overwrite each other.
 */
import type { Decider, Stored } from '../decider';
import { ConflictError, NotFoundError } from '../errors';
import type { DomainEvent } from '../events';

export interface ContentState {
  content_id: string;
  user_id: string;
  type: string;
  topic: string;
  title: string | null;
  content: string;
  metadata: Record<string, unknown>;
  version: number;
  deleted: boolean;
}

export type ContentCommand =
  | {
      kind: 'revise';
      user_id: string;
      title?: string | null;
      content?: string;
      metadata?: Record<string, unknown>;
      expected_version?: number;
    }
  | { kind: 'delete'; user_id: string };

export function evolveContent(s: ContentState | undefined, e: Stored): ContentState | undefined {
  switch (e.type) {
    case 'ContentCreated':
      return {
        content_id: e.data.content_id,
        user_id: e.data.user_id,
        type: e.data.type,
        topic: e.data.topic,
        title: e.data.title,
        content: e.data.content,
        metadata: e.data.metadata,
        version: 1,
        deleted: false,
      };
    case 'ContentRevised':
      return (
        s && { ...s, title: e.data.title, content: e.data.content, metadata: e.data.metadata, version: e.data.version }
      );
    case 'ContentDeleted':
      return s && { ...s, deleted: true };
    default:
      return s;
  }
}

/** The caller's live record, or 404. */
export function ownContent(s: ContentState | undefined, userId: string): ContentState {
  if (!s || s.user_id !== userId || s.deleted) throw new NotFoundError('Content not found');
  return s;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export const contentDecider: Decider<ContentCommand, ContentState | undefined> = {
  initialState: undefined,
  evolve: evolveContent,
  decide(c, state): DomainEvent[] {
    const s = ownContent(state, c.user_id);
    if (c.kind === 'delete')
      return [{ type: 'ContentDeleted', data: { content_id: s.content_id, user_id: s.user_id } }];
    if (c.expected_version !== undefined && c.expected_version !== s.version)
      throw new ConflictError(`content is at version ${s.version}, not ${c.expected_version}`, {
        current_version: s.version,
      });
    const next = {
      title: c.title !== undefined ? c.title : s.title,
      content: c.content ?? s.content,
      metadata: c.metadata !== undefined ? { ...s.metadata, ...c.metadata } : s.metadata,
    };
    const changed = (['title', 'content', 'metadata'] as const).filter((k) => !same(next[k], s[k]));
    if (changed.length === 0) return [];
    return [
      {
        type: 'ContentRevised',
        data: { content_id: s.content_id, user_id: s.user_id, version: s.version + 1, ...next, changed },
      },
    ];
  },
};
