/** `npm run migrate`: applies pending migrations to DATABASE_URL and prints what it did. */
import { loadConfig } from '../infra/config';
import { createDb } from '../infra/db/knex';
import { migrateLatest } from '../infra/db/migrate';
import { MIGRATIONS } from './migrations';

async function main(): Promise<void> {
  const config = loadConfig();
  const db = createDb({ url: config.DATABASE_URL, poolMax: 2, applicationName: 'migrate' });
  try {
    const applied = await migrateLatest(db, MIGRATIONS);
    process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'database is up to date\n');
  } finally {
    await db.destroy();
  }
}

main().catch((e) => {
  process.stderr.write(`migration failed: ${(e as Error).message}\n`);
  process.exit(1);
});
