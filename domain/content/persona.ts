/**
 * Decisions on a persona's stream (`persona-<persona_id>`), developer API
 * personas CRUD: create, update (the fields given replace the stored ones;
 * `null` clears an optional field), delete. Another user's, a deleted and an
 * unknown persona are "not found".
 */
import type { Decider, Stored } from '../decider';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import type { DomainEvent } from '../events';
import type { PersonaFields } from '../events/content';

export interface PersonaState {
  persona_id: string;
  user_id: string;
  persona: PersonaFields;
  version: number;
  deleted: boolean;
}

export type PersonaCommand =
  | { kind: 'create'; persona_id: string; user_id: string; persona: PersonaFields }
  | { kind: 'update'; user_id: string; changes: Partial<Record<keyof PersonaFields, unknown>> }
  | { kind: 'delete'; user_id: string };

const clean = (p: Record<string, unknown>): PersonaFields =>
  Object.fromEntries(Object.entries(p).filter(([, v]) => v !== null && v !== undefined)) as unknown as PersonaFields;

export function evolvePersona(s: PersonaState | undefined, e: Stored): PersonaState | undefined {
  switch (e.type) {
    case 'PersonaCreated':
      return {
        persona_id: e.data.persona_id,
        user_id: e.data.user_id,
        persona: e.data.persona,
        version: 1,
        deleted: false,
      };
    case 'PersonaUpdated':
      return s && { ...s, persona: clean({ ...s.persona, ...e.data.changes }), version: s.version + 1 };
    case 'PersonaDeleted':
      return s && { ...s, deleted: true };
    default:
      return s;
  }
}

export function ownPersona(s: PersonaState | undefined, userId: string): PersonaState {
  if (!s || s.user_id !== userId || s.deleted) throw new NotFoundError('Persona not found');
  return s;
}

export const personaDecider: Decider<PersonaCommand, PersonaState | undefined> = {
  initialState: undefined,
  evolve: evolvePersona,
  decide(c, s): DomainEvent[] {
    if (c.kind === 'create') {
      if (s) throw new ConflictError('persona id already in use');
      return [
        {
          type: 'PersonaCreated',
          data: { persona_id: c.persona_id, user_id: c.user_id, persona: clean({ ...c.persona }) },
        },
      ];
    }
    const p = ownPersona(s, c.user_id);
    if (c.kind === 'delete')
      return [{ type: 'PersonaDeleted', data: { persona_id: p.persona_id, user_id: p.user_id } }];
    if (c.changes.name === null)
      throw new ValidationError([
        { location: 'body', path: 'name', kind: 'constraint', message: 'name cannot be cleared' },
      ]);
    const changes = Object.fromEntries(
      Object.entries(c.changes).filter(
        ([k, v]) => JSON.stringify(v) !== JSON.stringify((p.persona as unknown as Record<string, unknown>)[k] ?? null),
      ),
    );
    if (Object.keys(changes).length === 0) return [];
    return [
      {
        type: 'PersonaUpdated',
        data: { persona_id: p.persona_id, user_id: p.user_id, changes: changes as Partial<PersonaFields> },
      },
    ];
  },
};
