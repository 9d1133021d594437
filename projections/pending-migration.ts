/**
 * Stream positions can reach a projection out of order: two transactions
 * appending to one stream take its row lock in one order but may hold
 * transaction ids in the other, and readAll follows transaction ids. So
 * projection_streams keeps, besides the contiguous watermark `position`, the
 * applied positions above it (`pending`): an event is applied exactly once
 * whatever the order.
 */
import type { Migration } from '../infra/db/migrate';

export const projectionPendingMigration: Migration = {
  name: '0005_projection_pending_positions',
  async up(knex) {
    await knex.raw(`ALTER TABLE projection_streams ADD COLUMN pending integer[] NOT NULL DEFAULT '{}'`);
  },
  async down(knex) {
    await knex.raw('ALTER TABLE projection_streams DROP COLUMN pending');
  },
};
