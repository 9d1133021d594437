/**
 * Events of the podcast maker, all on the project's stream `podcast-<project_id>`:
 * the project's own changes (decided by domain/podcast/decide.ts from the API)
 * and the results the podcast workflows' activities record once each (notes of
 * the analysis stage, the script, audio, images, videos, avatars, dubs). The
 * tasks themselves (status, progress, result) are the task streams'.
 */
import { EventDefinitions, openAllRequired } from './types';
import { nonEmptyString } from '../schema';
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

const ids = { project_id: nonEmptyString, user_id: nonEmptyString };
const anyObject = { type: 'object' };
const area = 'podcast';

export const podcastEvents: EventDefinitions<PodcastEvent['type']> = {
  PodcastProjectCreated: {
    area,
    version: 1,
    schema: openAllRequired({ ...ids, title: { type: 'string' }, idea: { type: 'string' }, state: anyObject }),
  },
  PodcastProjectUpdated: { area, version: 1, schema: openAllRequired({ ...ids, changes: anyObject }) },
  PodcastProjectFavoriteSet: { area, version: 1, schema: openAllRequired({ ...ids, favorite: { type: 'boolean' } }) },
  PodcastProjectDeleted: { area, version: 1, schema: openAllRequired(ids) },
  PodcastNotesRecorded: {
    area,
    version: 1,
    schema: openAllRequired({
      ...ids,
      field: { enum: ['enhanced_idea', 'analysis', 'queries', 'research'] },
      value: {},
      task_id: nonEmptyString,
    }),
  },
  PodcastScriptWritten: {
    area,
    version: 1,
    schema: openAllRequired({
      ...ids,
      script: openAllRequired({
        title: nonEmptyString,
        scenes: { type: 'array', minItems: 1 },
        speakers: { type: 'array', minItems: 1 },
      }),
      version: { type: 'integer', minimum: 1 },
      task_id: nonEmptyString,
    }),
  },
  PodcastScriptApproved: {
    area,
    version: 1,
    schema: openAllRequired({ ...ids, version: { type: 'integer', minimum: 1 }, approved_at: nonEmptyString }),
  },
  PodcastAssetRecorded: {
    area,
    version: 1,
    schema: openAllRequired({ ...ids, asset: openAllRequired({ kind: nonEmptyString, created_at: nonEmptyString }) }),
  },
};

export const podcastStream = (projectId: string) => `podcast-${projectId}`;
