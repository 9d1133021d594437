/**
 * Decisions on a persona's stream (`persona-<persona_id>`), developer API
 * personas CRUD: create, update (the fields given replace the stored ones;
 * `null` clears an optional field), delete. Another user's, a deleted and an
 * unknown persona are "not found".
 */
import type { Decider, Stored } from '../decider';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import type { DomainEvent } from '../events';
import type { PersonaChanges, PersonaFields } from '../events/content';

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

/** The persona without the fields that have no value (null or undefined). */
function withoutEmpty(p: PersonaFields): PersonaFields {
  const out = { ...p };
  for (const [k, v] of Object.entries(out)) if (v === null || v === undefined) Reflect.deleteProperty(out, k);
  return out;
}

/** The persona with an update applied: a value replaces the stored one, null clears it (decide keeps `name`). */
function applyChanges(p: PersonaFields, changes: PersonaChanges): PersonaFields {
  const out = { ...p };
  for (const [k, v] of Object.entries(changes)) Reflect.set(out, k, v);
  return withoutEmpty(out);
}

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
      return s && { ...s, persona: applyChanges(s.persona, e.data.changes), version: s.version + 1 };
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
          data: { persona_id: c.persona_id, user_id: c.user_id, persona: withoutEmpty(c.persona) },
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
    const stored: Record<string, unknown> = { ...p.persona };
    const changes = Object.fromEntries(
      Object.entries(c.changes).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(stored[k] ?? null)),
    );
    if (Object.keys(changes).length === 0) return [];
    return [
      {
        type: 'PersonaUpdated',
        data: { persona_id: p.persona_id, user_id: p.user_id, changes: changes as PersonaChanges },
      },
    ];
  },
};
