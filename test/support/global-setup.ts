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
import { randomUUID } from 'node:crypto';
import { connectTemporal } from '../../infra/temporal';
import { createKafka } from '../../infra/kafka';
import { deleteTopicsWhere } from '../../infra/kafka-topics';
import type { Knex } from 'knex';

/**
 * Workflows left running by earlier runs (a webhook delivery waiting on its retry timer, a test that was killed)
 * would pile up in the dev server of the test namespace: terminate them. Only ever the test namespace, and only
 * workflows started more than an hour ago, so a test run going on beside this one (another checkout) keeps its own.
 */
async function terminateLeftovers(address: string, namespace: string): Promise<void> {
  if (!/test/.test(namespace)) return;
  const { connection } = await connectTemporal({ address, namespace });
  try {
    await connection.workflowService.startBatchOperation({
      namespace,
      jobId: `test-cleanup-${randomUUID()}`,
      visibilityQuery: `ExecutionStatus='Running' AND StartTime < '${new Date(Date.now() - 3600_000).toISOString()}'`,
      reason: 'left running by an earlier test run',
      terminationOperation: {},
    });
  } catch (e) {
    // A batch with nothing to do, or a server without batch support, is not a reason to stop the tests.
    if (!/no workflow|not found|not supported/i.test((e as Error).message))
      process.stderr.write(`cleanup of old test workflows failed: ${(e as Error).message}\n`);
  } finally {
    await connection.close();
  }
}

/**
 * Topics of test schemas that no longer exist (every file's, once its schema is dropped: a consumer may still be
 * leaving its group then, so they are deleted here, by the next run): each keeps files open in the broker, and
 * thousands of them, left by earlier runs, once ran the development broker out of file descriptors mid-run. Only `test-t_<id>.*` topics whose schema `t_<id>` is gone, so the topics of a run going
 * on beside this one (its schemas exist) stay.
 */
async function deleteOrphanTopics(db: Knex, brokers: string): Promise<void> {
  const schemas = new Set(
    (await db.raw(`select schema_name from information_schema.schemata where schema_name like 't\\_%'`)).rows.map(
      (r: { schema_name: string }) => r.schema_name,
    ),
  );
  await deleteTopicsWhere(createKafka({ brokers, clientId: `jest-setup-${process.pid}` }), (t) => {
    const m = /^test-(t_[0-9a-f]{12})\./.exec(t);
    return m !== null && !schemas.has(m[1]);
  });
}

export const BUNDLE_PATH = path.resolve(__dirname, '../../.run/test-workflow-bundle.js');

export default async function globalSetup(): Promise<void> {
  const config = loadConfig();
  if (!/_test\b/.test(config.DATABASE_URL) && process.env.ALLOW_NON_TEST_DB !== '1') {
    throw new Error(
      `Refusing to run integration tests against ${config.DATABASE_URL}: use scripts/test (database platform_test)`,
    );
  }
  const db = createDb({ url: config.DATABASE_URL, poolMax: 2 });
  try {
    await migrateLatest(db, MIGRATIONS);
    await deleteOrphanTopics(db, config.KAFKA_BROKERS);
  } finally {
    await db.destroy();
  }
  const started = Number(process.env.TEST_RUN_STARTED ?? 0);
  // Once per run (global setup runs once per project; the second finds the bundle fresh and skips this too).
  if (!existsSync(BUNDLE_PATH) || statSync(BUNDLE_PATH).mtimeMs < started)
    await terminateLeftovers(config.TEMPORAL_ADDRESS, config.TEMPORAL_NAMESPACE);
  if (!existsSync(BUNDLE_PATH) || statSync(BUNDLE_PATH).mtimeMs < started) {
    execFileSync('npx', ['tsx', 'scripts/build-workflows.ts', BUNDLE_PATH], {
      cwd: path.resolve(__dirname, '../..'),
      stdio: 'inherit',
    });
  }
}
