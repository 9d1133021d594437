/**
 * Events of stored content and personas (developer API, docs/content.md):
 * - content records, stream `content-<content_id>`: ContentCreated (version 1,
 *   written by the generating workflow or POST /v1/content), ContentRevised
 *   (each PUT: the whole new text, so every version can be read back),
 *   ContentDeleted;
 * - personas, stream `persona-<persona_id>`: PersonaCreated, PersonaUpdated
 *   (the changed fields), PersonaDeleted.
 */
import { EventDefinitions, openAllRequired } from './types';
import { anyString, int, nonEmptyString } from '../schema';

export interface PersonaFields {
  name: string;
  description?: string;
  age_range?: string;
  profession?: string;
  industry?: string;
  goals?: string[];
  pain_points?: string[];
  preferred_channels?: string[];
  tone?: string;
  notes?: string;
}

/** A persona's update as recorded: the fields given replace the stored ones, `null` clears an optional one. */
export type PersonaChanges = { [K in keyof PersonaFields]?: PersonaFields[K] | null };

export type ContentEvent =
  | {
      type: 'ContentCreated';
      data: {
        content_id: string;
        user_id: string;
        type: string;
        topic: string;
        title: string | null;
        content: string;
        metadata: Record<string, unknown>;
        /** The task that generated it, when generated. */
        origin_task_id: string | null;
      };
    }
  | {
      type: 'ContentRevised';
      data: {
        content_id: string;
        user_id: string;
        version: number;
        title: string | null;
        content: string;
        metadata: Record<string, unknown>;
        /** Fields this revision changed. */
        changed: string[];
      };
    }
  | { type: 'ContentDeleted'; data: { content_id: string; user_id: string } }
  | { type: 'PersonaCreated'; data: { persona_id: string; user_id: string; persona: PersonaFields } }
  | {
      type: 'PersonaUpdated';
      data: { persona_id: string; user_id: string; changes: PersonaChanges };
    }
  | { type: 'PersonaDeleted'; data: { persona_id: string; user_id: string } };

const nullableText = { type: ['string', 'null'] };
const object = { type: 'object' };

export const contentEvents: EventDefinitions<ContentEvent['type']> = {
  ContentCreated: {
    area: 'content',
    version: 1,
    schema: openAllRequired({
      content_id: nonEmptyString,
      user_id: nonEmptyString,
      type: nonEmptyString,
      topic: anyString,
      title: nullableText,
      content: anyString,
      metadata: object,
      origin_task_id: nullableText,
    }),
  },
  ContentRevised: {
    area: 'content',
    version: 1,
    schema: openAllRequired({
      content_id: nonEmptyString,
      user_id: nonEmptyString,
      version: int,
      title: nullableText,
      content: anyString,
      metadata: object,
      changed: { type: 'array', items: anyString },
    }),
  },
  ContentDeleted: {
    area: 'content',
    version: 1,
    schema: openAllRequired({ content_id: nonEmptyString, user_id: nonEmptyString }),
  },
  PersonaCreated: {
    area: 'content',
    version: 1,
    schema: openAllRequired({
      persona_id: nonEmptyString,
      user_id: nonEmptyString,
      persona: openAllRequired({ name: nonEmptyString }),
    }),
  },
  PersonaUpdated: {
    area: 'content',
    version: 1,
    schema: openAllRequired({ persona_id: nonEmptyString, user_id: nonEmptyString, changes: object }),
  },
  PersonaDeleted: {
    area: 'content',
    version: 1,
    schema: openAllRequired({ persona_id: nonEmptyString, user_id: nonEmptyString }),
  },
};

export const contentStream = (contentId: string) => `content-${contentId}`;
export const personaStream = (personaId: string) => `persona-${personaId}`;
