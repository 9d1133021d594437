/**
 * Once per jest run (int and e2e): bring the test database to the latest
 * schema and build the workflow bundle that every test worker reuses. Runs
 * twice when both projects run; both steps are idempotent and the bundle is
 * reused when fresh.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { loadConfig } from '../../infra/config';
import { createDb } from '../../infra/db/knex';
import { migrateLatest } from '../../infra/db/migrate';
import { MIGRATIONS } from '../../workers/migrations';

export const BUNDLE_PATH = path.resolve(__dirname, '../../.run/test-workflow-bundle.js');

export default async function globalSetup(): Promise<void> {
  const config = loadConfig();
  if (!/_test\b/.test(config.DATABASE_URL) && process.env.ALLOW_NON_TEST_DB !== '1') {
    throw new Error(`Refusing to run integration tests against ${config.DATABASE_URL}: use scripts/test (database platform_test)`);
  }
  const db = createDb({ url: config.DATABASE_URL, poolMax: 2 });
  try {
    await migrateLatest(db, MIGRATIONS);
  } finally {
    await db.destroy();
  }
  const started = Number(process.env.TEST_RUN_STARTED ?? 0);
  if (!existsSync(BUNDLE_PATH) || statSync(BUNDLE_PATH).mtimeMs < started) {
    execFileSync('npx', ['tsx', 'scripts/build-workflows.ts', BUNDLE_PATH], { cwd: path.resolve(__dirname, '../..'), stdio: 'inherit' });
  }
}
