/** Every projection of the platform; the projector runs each in its own consumer group. */
import type { Migration } from '../infra/db/migrate';
import { Projection, projectionMigration } from './framework';
import { projectionUpgradeMigrations } from './framework';
import { projectionStateMigration } from './state-migration';
import { projectionPendingMigration } from './pending-migration';
import { taskStatusProjection } from './task-status';
import { usageProjection } from './usage';
import { alertsProjection } from './alerts';
import { webhookDeliveriesProjection } from './webhook-deliveries';
import { identityProjection } from './identity';
import { sectionContinuityProjection } from './section-continuity';
import { sitebuilderConnectionsProjection } from './sitebuilder-connections';
import { imageAssetsProjection } from './image-assets';
import { outreachProjection } from './outreach';
import { outreachActivityProjection } from './outreach-activity';
import { writerPreferencesProjection } from './writer-preferences';
import { writerBatchesProjection } from './writer-batches';
import { calendarsProjection } from './calendars';
import { seoPerformanceProjection } from './seo-performance';
import { contentRecordsProjection } from './content-records';
import { personasProjection } from './personas';
import { videoProjection } from './video';
import { podcastProjection } from './podcast';

export const PROJECTIONS: Projection[] = [
  taskStatusProjection,
  usageProjection,
  alertsProjection,
  webhookDeliveriesProjection,
  identityProjection,
  sectionContinuityProjection,
  sitebuilderConnectionsProjection,
  imageAssetsProjection,
  outreachProjection,
  outreachActivityProjection,
  writerPreferencesProjection,
  writerBatchesProjection,
  calendarsProjection,
  seoPerformanceProjection,
  contentRecordsProjection,
  personasProjection,
  videoProjection,
  podcastProjection,
];

export function findProjection(name: string): Projection | undefined {
  return PROJECTIONS.find((p) => p.name === name);
}

export const PROJECTION_MIGRATIONS: Migration[] = [
  projectionStateMigration,
  projectionPendingMigration,
  ...PROJECTIONS.map(projectionMigration),
  // Later changes of projection tables (their own migrations, never edits of shipped ones).
  ...PROJECTIONS.flatMap(projectionUpgradeMigrations),
];
