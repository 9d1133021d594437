/**
 * Migrations are TypeScript modules listed in code (not discovered on disk), so
 * the same list runs from compiled JavaScript, from tsx and from jest. The
 * list is assembled in workers/migrations.ts: infra's own tables first, then
 * every projection's tables.
 */
import { Knex } from 'knex';

export interface Migration {
  /** Unique, sortable name, e.g. "0001_event_store". Never rename once shipped. */
  name: string;
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

class ListSource implements Knex.MigrationSource<Migration> {
  constructor(private readonly list: Migration[]) {}
  async getMigrations(): Promise<Migration[]> {
    return [...this.list].sort((a, b) => a.name.localeCompare(b.name));
  }
  getMigrationName(m: Migration): string {
    return m.name;
  }
  async getMigration(m: Migration): Promise<Knex.Migration> {
    return { up: m.up, down: m.down };
  }
}

/** Applies every pending migration; returns the names applied. Safe to run concurrently (knex locks). */
export async function migrateLatest(knex: Knex, list: Migration[]): Promise<string[]> {
  const [, applied] = await knex.migrate.latest({ migrationSource: new ListSource(list) });
  return applied as string[];
}

/** Rolls back every migration (used by tests that need an empty schema). */
export async function migrateRollbackAll(knex: Knex, list: Migration[]): Promise<void> {
  await knex.migrate.rollback({ migrationSource: new ListSource(list) }, true);
}
