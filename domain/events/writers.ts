/**
 * Events of the professional-network and social-network writers.
 *  - `WriterPreferencesSaved` (stream `writerprefs-<user_id>`): the user's
 *    writer preferences after a save, in full (so a fold never needs history).
 *  - `WriterBatchAccepted`, `WriterBatchNotificationAttempted`, `...Finished`
 *    (stream `writerbatch-<batch_id>`): what a batch holds, and the signed
 *    notification of a finished batch.
 * Generations and batches themselves are tasks (domain/events/tasks.ts).
 */
import { EventDefinitions, openAllRequired } from './types';
import { anyString, int, nonEmptyString } from '../schema';

/** A user's writer preferences as stored (domain/writers/preferences.ts decides and applies them). */
export interface WriterPreferences {
  content_defaults: { tone?: string; industry?: string; include_hashtags?: boolean; max_length?: number };
  multimedia_defaults: {
    video_style?: string;
    avatar_preference?: string;
    voice_preference?: string;
    background_music?: string;
  };
  brand_settings: { colors?: string[]; logo_url?: string; brand_voice?: string };
}

export type WriterEvent =
  | {
      type: 'WriterPreferencesSaved';
      data: { user_id: string; preferences: WriterPreferences; mode: 'replace' | 'merge'; changed: string[] };
    }
  | {
      type: 'WriterBatchAccepted';
      data: {
        batch_id: string;
        user_id: string;
        platform: string;
        total: number;
        types: string[];
        notification_url: string | null;
      };
    }
  | {
      type: 'WriterBatchNotificationAttempted';
      data: {
        batch_id: string;
        user_id: string;
        message_id: string;
        attempt: number;
        status_code: number | null;
        outcome: 'succeeded' | 'failed' | 'blocked';
        error: string | null;
      };
    }
  | {
      type: 'WriterBatchNotificationFinished';
      data: { batch_id: string; user_id: string; message_id: string; status: 'delivered' | 'failed'; attempts: number };
    };

const prefs = {
  type: 'object',
  properties: {
    content_defaults: { type: 'object' },
    multimedia_defaults: { type: 'object' },
    brand_settings: { type: 'object' },
  },
  required: ['content_defaults', 'multimedia_defaults', 'brand_settings'],
};

export const writerEvents: EventDefinitions<WriterEvent['type']> = {
  WriterPreferencesSaved: {
    area: 'writers',
    version: 1,
    schema: openAllRequired({
      user_id: nonEmptyString,
      preferences: prefs,
      mode: { enum: ['replace', 'merge'] },
      changed: { type: 'array', items: anyString },
    }),
  },
  WriterBatchAccepted: {
    area: 'writers',
    version: 1,
    schema: openAllRequired({
      batch_id: nonEmptyString,
      user_id: nonEmptyString,
      platform: nonEmptyString,
      total: int,
      types: { type: 'array', items: anyString },
      notification_url: { type: ['string', 'null'] },
    }),
  },
  WriterBatchNotificationAttempted: {
    area: 'writers',
    version: 1,
    schema: openAllRequired({
      batch_id: nonEmptyString,
      user_id: nonEmptyString,
      message_id: nonEmptyString,
      attempt: int,
      status_code: { type: ['integer', 'null'] },
      outcome: { enum: ['succeeded', 'failed', 'blocked'] },
      error: { type: ['string', 'null'] },
    }),
  },
  WriterBatchNotificationFinished: {
    area: 'writers',
    version: 1,
    schema: openAllRequired({
      batch_id: nonEmptyString,
      user_id: nonEmptyString,
      message_id: nonEmptyString,
      status: { enum: ['delivered', 'failed'] },
      attempts: int,
    }),
  },
};

export const writerPreferencesStream = (userId: string) => `writerprefs-${userId}`;
export const writerBatchStream = (batchId: string) => `writerbatch-${batchId}`;
