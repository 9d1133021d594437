/**
 * Writer preferences (Document 2 "User preferences"): a user's defaults for
 * every generation of the writers. Stored as events (WriterPreferencesSaved,
 * stream `writerprefs-<user_id>`) decided here; read from the
 * writer-preferences projection; applied by domain/writers/briefs.ts.
 *
 * Saving: `replace` (POST) stores exactly the given preferences (anything not
 * given is cleared); `merge` (PUT) changes only the given fields, and a field
 * given as null is cleared. A save that changes nothing appends nothing.
 */
import type { Decider, Stored } from '../decider';
import type { DomainEvent } from '../events';
import type { WriterPreferences } from '../events/writers';

// The stored shape is declared with the event that carries it (domain/events/writers.ts), so the event catalogue needs
// nothing from this module (no import loop events ⇄ writers).
export type { WriterPreferences };

export type PreferenceGroup = keyof WriterPreferences;
export const PREFERENCE_GROUPS: PreferenceGroup[] = ['content_defaults', 'multimedia_defaults', 'brand_settings'];

/** What a client sends: any subset; in a merge, null clears a field. */
export type PreferencesInput = {
  [G in PreferenceGroup]?: { [K in keyof WriterPreferences[G]]?: WriterPreferences[G][K] | null } | null;
};

export const emptyPreferences = (): WriterPreferences => ({
  content_defaults: {},
  multimedia_defaults: {},
  brand_settings: {},
});

/** The stored form: groups always present, fields only when set. */
export function normalisePreferences(input: PreferencesInput | WriterPreferences): WriterPreferences {
  const out = emptyPreferences();
  for (const g of PREFERENCE_GROUPS) {
    const group = (input as PreferencesInput)[g];
    if (!group) continue;
    for (const [k, v] of Object.entries(group))
      if (v !== null && v !== undefined) (out[g] as Record<string, unknown>)[k] = v;
  }
  return out;
}

export function mergePreferences(current: WriterPreferences, input: PreferencesInput): WriterPreferences {
  const out = normalisePreferences(current);
  for (const g of PREFERENCE_GROUPS) {
    const group = input[g];
    if (group === null) {
      out[g] = {};
      continue;
    }
    if (!group) continue;
    for (const [k, v] of Object.entries(group)) {
      const target = out[g] as Record<string, unknown>;
      if (v === null) delete target[k];
      else if (v !== undefined) target[k] = v;
    }
  }
  return out;
}

/** Dotted paths whose values differ (`content_defaults.tone`). */
export function changedFields(a: WriterPreferences, b: WriterPreferences): string[] {
  const out: string[] = [];
  for (const g of PREFERENCE_GROUPS) {
    const keys = new Set([...Object.keys(a[g]), ...Object.keys(b[g])]);
    for (const k of [...keys].sort()) {
      const x = (a[g] as Record<string, unknown>)[k];
      const y = (b[g] as Record<string, unknown>)[k];
      if (JSON.stringify(x) !== JSON.stringify(y)) out.push(`${g}.${k}`);
    }
  }
  return out;
}

export interface PreferencesState {
  exists: boolean;
  preferences: WriterPreferences;
  updatedAt?: string;
}

export type PreferencesCommand = { kind: 'replace' | 'merge'; user_id: string; preferences: PreferencesInput };

export const preferencesDecider: Decider<PreferencesCommand, PreferencesState> = {
  initialState: { exists: false, preferences: emptyPreferences() },
  evolve(state: PreferencesState, e: Stored): PreferencesState {
    if (e.type !== 'WriterPreferencesSaved') return state;
    return { exists: true, preferences: normalisePreferences(e.data.preferences), updatedAt: e.recordedAt };
  },
  decide(c: PreferencesCommand, state: PreferencesState): DomainEvent[] {
    const next =
      c.kind === 'replace' ? normalisePreferences(c.preferences) : mergePreferences(state.preferences, c.preferences);
    const changed = changedFields(state.preferences, next);
    if (state.exists && changed.length === 0) return [];
    return [{ type: 'WriterPreferencesSaved', data: { user_id: c.user_id, preferences: next, mode: c.kind, changed } }];
  },
};
