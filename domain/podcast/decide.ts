/**
 * Decisions on a podcast project's stream (`podcast-<project_id>`): create,
 * update, favourite, delete, approve the script, attach an image or avatar.
 * Results of background work (notes, scripts, audio, videos, dubs) are
 * recorded by the workflows' activities and folded here the same way, so the
 * state holds everything a user needs to resume. Another user's project and
 * a deleted one are "not found"; audio needs the current script approved.
 */
import type { Decider, Stored } from '../decider';
import { ConflictError, NotFoundError } from '../errors';
import type { DomainEvent } from '../events';
import type { PodcastAsset, PodcastProject } from './types';

export interface PodcastState {
  project?: PodcastProject;
  deleted?: boolean;
}

export type PodcastCommand =
  | { kind: 'create'; project_id: string; user_id: string; title: string; idea: string; state: Record<string, unknown> }
  | {
      kind: 'update';
      user_id: string;
      changes: { title?: string; idea?: string; state?: Record<string, unknown> };
    }
  | { kind: 'favorite'; user_id: string; favorite: boolean }
  | { kind: 'delete'; user_id: string }
  | { kind: 'approve_script'; user_id: string; version?: number; now: string }
  | { kind: 'attach'; user_id: string; asset: Extract<PodcastAsset, { kind: 'image' | 'avatar' }> };

/** The caller's live project, or 404. */
export function ownProject(s: PodcastState, userId: string): PodcastProject {
  if (!s.project || s.deleted || s.project.user_id !== userId) throw new NotFoundError('Podcast project not found');
  return s.project;
}

/** Refuses audio work on a script that is missing or not approved (409 naming what to do). */
export function requireApprovedScript(p: PodcastProject) {
  if (!p.script)
    throw new ConflictError('the project has no script yet: write one with POST /api/podcast/script', {
      reason: 'SCRIPT_MISSING',
    });
  if (!p.script_approved_at)
    throw new ConflictError(
      `script version ${p.script_version} is not approved: approve it with POST /api/podcast/script/approve before making audio or video`,
      { reason: 'SCRIPT_NOT_APPROVED', script_version: p.script_version },
    );
  return p.script;
}

export const podcastDecider: Decider<PodcastCommand, PodcastState> = {
  initialState: {},
  evolve(s, e: Stored): PodcastState {
    const p = s.project;
    switch (e.type) {
      case 'PodcastProjectCreated':
        return {
          project: {
            project_id: e.data.project_id,
            user_id: e.data.user_id,
            title: e.data.title,
            idea: e.data.idea,
            favorite: false,
            state: e.data.state,
            notes: {},
            script_version: 0,
            assets: [],
          },
        };
      case 'PodcastProjectUpdated':
        return p ? { ...s, project: { ...p, ...e.data.changes } } : s;
      case 'PodcastProjectFavoriteSet':
        return p ? { ...s, project: { ...p, favorite: e.data.favorite } } : s;
      case 'PodcastProjectDeleted':
        return { ...s, deleted: true };
      case 'PodcastNotesRecorded':
        return p ? { ...s, project: { ...p, notes: { ...p.notes, [e.data.field]: e.data.value } } } : s;
      case 'PodcastScriptWritten': {
        if (!p) return s;
        const { script_approved_at: _old, ...rest } = p;
        return { ...s, project: { ...rest, script: e.data.script, script_version: e.data.version } };
      }
      case 'PodcastScriptApproved':
        return p && e.data.version === p.script_version
          ? { ...s, project: { ...p, script_approved_at: e.data.approved_at } }
          : s;
      case 'PodcastAssetRecorded':
        return p ? { ...s, project: { ...p, assets: [...p.assets, e.data.asset] } } : s;
      default:
        return s;
    }
  },
  decide(c, s): DomainEvent[] {
    if (c.kind === 'create') {
      if (s.project) throw new ConflictError('the project exists already');
      const { kind: _k, ...data } = c;
      return [{ type: 'PodcastProjectCreated', data }];
    }
    const p = ownProject(s, c.user_id);
    const ids = { project_id: p.project_id, user_id: p.user_id };
    switch (c.kind) {
      case 'update':
        return [{ type: 'PodcastProjectUpdated', data: { ...ids, changes: c.changes } }];
      case 'favorite':
        return p.favorite === c.favorite
          ? []
          : [{ type: 'PodcastProjectFavoriteSet', data: { ...ids, favorite: c.favorite } }];
      case 'delete':
        return [{ type: 'PodcastProjectDeleted', data: ids }];
      case 'approve_script': {
        if (!p.script)
          throw new ConflictError('the project has no script to approve: write one with POST /api/podcast/script', {
            reason: 'SCRIPT_MISSING',
          });
        if (c.version !== undefined && c.version !== p.script_version)
          throw new ConflictError(`script version ${c.version} is not the current one (${p.script_version})`, {
            reason: 'SCRIPT_VERSION_MISMATCH',
            script_version: p.script_version,
          });
        if (p.script_approved_at) return [];
        return [{ type: 'PodcastScriptApproved', data: { ...ids, version: p.script_version, approved_at: c.now } }];
      }
      case 'attach':
        return [{ type: 'PodcastAssetRecorded', data: { ...ids, asset: c.asset } }];
    }
  },
};
