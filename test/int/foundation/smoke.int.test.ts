/**
 * The foundation smoke test: the real Temporal server runs a workflow, the
 * real Kafka broker carries a message, the real PostgreSQL runs a migration.
 */
import { randomUUID } from 'node:crypto';
import { createActivities } from '../../../activities';
import { migrateLatest, migrateRollbackAll, Migration } from '../../../infra/db/migrate';
import { startTestWorker, testConfig, testDb, testKafka, testLogger, testTemporal, uniq } from '../../support/env';
import { smokeWorkflow } from '../../../workflows';

describe('foundation smoke', () => {
  it('runs a workflow with one activity on the Temporal server', async () => {
    const worker = await startTestWorker(createActivities({ logger: testLogger() }));
    const { client, connection } = await testTemporal();
    try {
      const result = await client.workflow.execute(smokeWorkflow, {
        taskQueue: worker.taskQueue,
        workflowId: uniq('smoke'),
        args: ['hello temporal'],
      });
      expect(result).toBe('hello temporal');
    } finally {
      await connection.close();
      await worker.stop();
    }
  });

  it('produces and consumes a Kafka message', async () => {
    const kafka = testKafka();
    const topic = `${testConfig().KAFKA_TOPIC_PREFIX}.smoke-${randomUUID().slice(0, 8)}`;
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ waitForLeaders: true, topics: [{ topic, numPartitions: 1, replicationFactor: 1 }] });
    const producer = kafka.producer();
    const consumer = kafka.consumer({ groupId: `${topic}-group` });
    try {
      await producer.connect();
      await producer.send({ topic, acks: -1, messages: [{ key: 'k', value: 'hello kafka' }] });
      await consumer.connect();
      await consumer.subscribe({ topics: [topic], fromBeginning: true });
      const received = await new Promise<string>((resolve) => {
        void consumer.run({ eachMessage: async ({ message }) => resolve(message.value!.toString()) });
      });
      expect(received).toBe('hello kafka');
    } finally {
      await consumer.disconnect();
      await producer.disconnect();
      await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
      await admin.disconnect();
    }
  });

  it('runs a migration up and down on PostgreSQL', async () => {
    const db = testDb(2);
    const table = `smoke_${randomUUID().slice(0, 8)}`;
    const m: Migration = {
      name: `9999_${table}`,
      up: (k) => k.schema.createTable(table, (t) => t.increments('id')),
      down: (k) => k.schema.dropTable(table),
    };
    // A separate migrations table keeps this experiment apart from the real schema history.
    const cfg = { tableName: `knex_migrations_${table}` };
    try {
      const source = {
        getMigrations: async () => [m],
        getMigrationName: (x: Migration) => x.name,
        getMigration: async (x: Migration) => x,
      };
      await db.migrate.latest({ ...cfg, migrationSource: source });
      expect(await db.schema.hasTable(table)).toBe(true);
      await db.migrate.rollback({ ...cfg, migrationSource: source }, true);
      expect(await db.schema.hasTable(table)).toBe(false);
      // The platform's own list is fully applied (global setup) and re-running it is a no-op.
      const { MIGRATIONS } = await import('../../../workers/migrations');
      expect(await migrateLatest(db, MIGRATIONS)).toEqual([]);
      expect(typeof migrateRollbackAll).toBe('function');
    } finally {
      await db.schema.dropTableIfExists(`knex_migrations_${table}`);
      await db.schema.dropTableIfExists(`knex_migrations_${table}_lock`);
      await db.destroy();
    }
  });
});
