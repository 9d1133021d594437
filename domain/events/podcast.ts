/**
 * Events of the podcast maker, all on the project's stream `podcast-<project_id>`:
 * the project's own changes (decided by domain/podcast/decide.ts from the API)
 * and the results the podcast workflows' activities record once each (notes of
 * the analysis stage, the script, audio, images, videos, avatars, dubs). The
 * tasks themselves (status, progress, result) are the task streams'.
 */
import { EventDefinitions, obj, str } from './types';
import type { NoteField, PodcastAsset, PodcastScript } from '../podcast/types';

type Ids = { project_id: string; user_id: string };

export type PodcastEvent =
  | {
      type: 'PodcastProjectCreated';
      data: Ids & { title: string; idea: string; state: Record<string, unknown> };
    }
  | {
      type: 'PodcastProjectUpdated';
      data: Ids & { changes: { title?: string; idea?: string; state?: Record<string, unknown> } };
    }
  | { type: 'PodcastProjectFavoriteSet'; data: Ids & { favorite: boolean } }
  | { type: 'PodcastProjectDeleted'; data: Ids }
  | { type: 'PodcastNotesRecorded'; data: Ids & { field: NoteField; value: unknown; task_id: string } }
  | { type: 'PodcastScriptWritten'; data: Ids & { script: PodcastScript; version: number; task_id: string } }
  | { type: 'PodcastScriptApproved'; data: Ids & { version: number; approved_at: string } }
  | { type: 'PodcastAssetRecorded'; data: Ids & { asset: PodcastAsset } };

const ids = { project_id: str, user_id: str };
const anyObject = { type: 'object' };
const area = 'podcast';

export const podcastEvents: EventDefinitions<PodcastEvent['type']> = {
  PodcastProjectCreated: {
    area,
    version: 1,
    schema: obj({ ...ids, title: { type: 'string' }, idea: { type: 'string' }, state: anyObject }),
  },
  PodcastProjectUpdated: { area, version: 1, schema: obj({ ...ids, changes: anyObject }) },
  PodcastProjectFavoriteSet: { area, version: 1, schema: obj({ ...ids, favorite: { type: 'boolean' } }) },
  PodcastProjectDeleted: { area, version: 1, schema: obj(ids) },
  PodcastNotesRecorded: {
    area,
    version: 1,
    schema: obj({
      ...ids,
      field: { enum: ['enhanced_idea', 'analysis', 'queries', 'research'] },
      value: {},
      task_id: str,
    }),
  },
  PodcastScriptWritten: {
    area,
    version: 1,
    schema: obj({
      ...ids,
      script: obj({ title: str, scenes: { type: 'array', minItems: 1 }, speakers: { type: 'array', minItems: 1 } }),
      version: { type: 'integer', minimum: 1 },
      task_id: str,
    }),
  },
  PodcastScriptApproved: {
    area,
    version: 1,
    schema: obj({ ...ids, version: { type: 'integer', minimum: 1 }, approved_at: str }),
  },
  PodcastAssetRecorded: {
    area,
    version: 1,
    schema: obj({ ...ids, asset: obj({ kind: str, created_at: str }) }),
  },
};

export const podcastStream = (projectId: string) => `podcast-${projectId}`;
