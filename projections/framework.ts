/**
 * The projection framework. A projection declares the event types it handles,
 * its tables, and a pure `apply` per event type that returns changes (never
 * writes itself). The runner (runner.ts) turns changes into SQL inside the
 * transaction that also stores the consumer's position, for the live
 * projector and for `replay` alike, so both build identical tables.
 *
 * Rule that keeps replay identical to live consumption: Kafka keeps the order
 * of one stream (key = stream id) but not across streams, so a row is written
 * either by the events of one stream only, or by changes that commute
 * (increments, insert-if-absent keyed by something unique in the event).
 * Timestamps come from the event (recordedAt), never from the clock.
 */
import type { Knex } from 'knex';
import type { EventOfType, EventType } from '../domain/events';
import type { RecordedEvent } from '../infra/eventstore/port';
import type { Migration } from '../infra/db/migrate';

export type Scalar = string | number | boolean | null;
export type Row = Record<string, Scalar | object>;

/** Column expressions beyond plain values. */
export type Expr =
  | { $inc: number } // col = col + n
  | { $append: unknown } // jsonb array col = col || [value]
  | { $greatest: Scalar }; // col = greatest(col, value)

export type SetValues = Record<string, Scalar | object | Expr>;

export type Change =
  /** Insert; on conflict of `key` columns, apply `update` (or do nothing when absent). */
  | { op: 'upsert'; table: string; key: Row; insert: Row; update?: SetValues }
  /** Update rows matching key (and optional `whereIn` guard column values). */
  | { op: 'update'; table: string; key: Row; set: SetValues; whereIn?: { column: string; values: Scalar[] } }
  | { op: 'delete'; table: string; key: Row };

/** Read access for the rare apply that must look at current state (same transaction). */
export interface ReadView {
  get(table: string, key: Row): Promise<Record<string, unknown> | undefined>;
}

export type Handler<T extends EventType> = (
  event: RecordedEvent<EventOfType<T>>,
  view: ReadView,
) => Change[] | Promise<Change[]>;

export interface Projection {
  /** Stable name: consumer group suffix, CLI argument. */
  name: string;
  /** Domain areas (Kafka topics) it reads. */
  areas: string[];
  /** Logical names of the tables it owns. */
  tables: string[];
  /** Creates its tables under the given physical names (live names in the migration, fresh names in replay). */
  createTables(knex: Knex, name: (logical: string) => string): Promise<void>;
  /** Primary-key columns per table, for the deterministic content hash. */
  keys: Record<string, string[]>;
  handlers: { [T in EventType]?: Handler<T> };
  /** Migration name of its tables. */
  migrationName: string;
  /**
   * Later changes of its tables, in order, each its own migration (a shipped
   * migration is never edited). Replay runs them after createTables, so fresh
   * tables get the same columns, in the same order, as the live ones.
   */
  upgrades?: ProjectionUpgrade[];
  /**
   * Tables whose changed rows are announced when a live batch commits:
   * `NOTIFY projection_changes, '<schema> <projectionRowTag>'`, so caches of
   * those rows in API processes drop them (infra/db/notified-cache.ts).
   */
  notify?: string[];
}

/** The channel projection row changes are announced on. */
export const PROJECTION_CHANNEL = 'projection_changes';

/** A changed row's tag: `<table>:<key values joined by |>` (task_status:<task_id>). */
export const projectionRowTag = (table: string, key: Scalar[]) => `${table}:${key.map(String).join('|')}`;

export interface ProjectionUpgrade {
  /** Migration name, sorting after the projection's own. */
  name: string;
  up(knex: Knex, name: (logical: string) => string): Promise<void>;
  down(knex: Knex): Promise<void>;
}

/** The migrations of a projection's upgrades (live table names). */
export function projectionUpgradeMigrations(p: Projection): Migration[] {
  return (p.upgrades ?? []).map((u) => ({
    name: u.name,
    up: (knex) => u.up(knex, (t) => t),
    down: (knex) => u.down(knex),
  }));
}

/** Creates a projection's tables as they are now: createTables, then every upgrade. */
export async function createCurrentTables(p: Projection, knex: Knex, name: (logical: string) => string): Promise<void> {
  await p.createTables(knex, name);
  for (const u of p.upgrades ?? []) await u.up(knex, name);
}

/** The migration that creates a projection's live tables. */
export function projectionMigration(p: Projection): Migration {
  return {
    name: p.migrationName,
    up: (knex) => p.createTables(knex, (t) => t),
    down: async (knex) => {
      for (const t of [...p.tables].reverse()) await knex.schema.dropTableIfExists(t);
    },
  };
}

export function defineProjection(p: Projection): Projection {
  for (const t of [...Object.keys(p.keys), ...(p.notify ?? [])])
    if (!p.tables.includes(t)) throw new Error(`${p.name}: key or notify for unknown table ${t}`);
  return p;
}
