/**
 * Every migration of the platform, in one list: infra's tables, then the
 * projection framework's and each projection's tables (declared by the
 * projection itself).
 */
import type { Migration } from '../infra/db/migrate';
import { eventStoreMigration } from '../infra/db/migrations/0001_event_store';
import { rateLimitMigration } from '../infra/db/migrations/0010_rate_limits';
import { platformProcessesMigration } from '../infra/db/migrations/0020_platform_processes';
import { PROJECTION_MIGRATIONS } from '../projections';
import { quotaMigration } from '../infra/quota/migration';
import { quotaAlertsMigration } from '../infra/quota/alerts-migration';
import { webhookSecretsMigration } from '../infra/webhooks/migration';
import { sitebuilderTokensMigration } from '../infra/sitebuilder/migration';
import { outreachMigration } from '../infra/outreach/migration';
import { calendarCapacityMigration } from '../infra/calendar/capacity';
import { integrationCredentialsMigration } from '../infra/seo/credentials';
import { idempotencyMigration } from '../infra/idempotency/postgres';
import { apiSpeedMigration } from '../infra/db/migrations/0050_api_speed';
import { taskSlotsMigration } from '../infra/fair-use/task-slots';
import { eventsByWorkflowMigration } from '../infra/db/migrations/0070_events_by_workflow';

export const MIGRATIONS: Migration[] = [
  eventStoreMigration,
  quotaMigration,
  quotaAlertsMigration,
  rateLimitMigration,
  platformProcessesMigration,
  webhookSecretsMigration,
  sitebuilderTokensMigration,
  outreachMigration,
  calendarCapacityMigration,
  integrationCredentialsMigration,
  idempotencyMigration,
  apiSpeedMigration,
  taskSlotsMigration,
  eventsByWorkflowMigration,
  ...PROJECTION_MIGRATIONS,
];
