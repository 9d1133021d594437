/**
 * Events by the workflow that wrote them (`metadata.workflow_id`, stamped on every append an activity makes:
 * infra/eventstore/ambient.ts): the kernel reads what a task wrote by its id, and its children's by the id prefix
 * (EventStore.writtenBy), to wait for exactly those streams before answering. Partial: only events written by
 * workflows are indexed.
 */
import type { Migration } from '../migrate';

export const eventsByWorkflowMigration: Migration = {
  name: '0070_events_by_workflow',
  async up(knex) {
    await knex.raw(`
      CREATE INDEX es_events_workflow ON es_events ((metadata->>'workflow_id') text_pattern_ops)
        WHERE (metadata->>'workflow_id') IS NOT NULL;
    `);
  },
  async down(knex) {
    await knex.raw('DROP INDEX IF EXISTS es_events_workflow');
  },
};
