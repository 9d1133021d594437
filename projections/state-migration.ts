/**
 * The framework's own tables: where each projection's consumer stands in each
 * Kafka partition (authoritative; the consumer seeks here on assignment), and
 * the last stream position it applied per stream (de-duplication of
 * at-least-once delivery, and the read-your-writes wait).
 */
import type { Migration } from '../infra/db/migrate';

export const projectionStateMigration: Migration = {
  name: '0002_projection_state',
  async up(knex) {
    await knex.raw(`
      CREATE TABLE projection_offsets (
        projection text NOT NULL,
        topic text NOT NULL,
        partition integer NOT NULL,
        next_offset bigint NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (projection, topic, partition)
      );
      CREATE TABLE projection_streams (
        projection text NOT NULL,
        stream_id text NOT NULL,
        position integer NOT NULL,
        PRIMARY KEY (projection, stream_id)
      );
    `);
  },
  async down(knex) {
    await knex.raw('DROP TABLE IF EXISTS projection_streams; DROP TABLE IF EXISTS projection_offsets;');
  },
};
