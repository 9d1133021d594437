/**
 * PostgreSQL access through knex. One pool per process; callers receive it by
 * injection rather than importing a global, so tests can point at their own
 * database.
 */
import knexFactory, { Knex } from 'knex';

export interface DbOptions {
  /** postgres:// connection string */
  url: string;
  /** Largest pool size (default 10). */
  poolMax?: number;
  /** application_name shown in pg_stat_activity (default "content-platform"). */
  applicationName?: string;
}

export function createDb(opts: DbOptions): Knex {
  return knexFactory({
    client: 'pg',
    connection: { connectionString: opts.url, application_name: opts.applicationName ?? 'content-platform' },
    pool: { min: 0, max: opts.poolMax ?? 10 },
  });
}
