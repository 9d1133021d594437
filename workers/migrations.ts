/**
 * Every migration of the platform, in one list: infra's tables, then the
 * projection framework's and each projection's tables (declared by the
 * projection itself).
 */
import type { Migration } from '../infra/db/migrate';
import { eventStoreMigration } from '../infra/db/migrations/0001_event_store';
import { PROJECTION_MIGRATIONS } from '../projections';
import { quotaMigration } from '../infra/quota/migration';
import { quotaAlertsMigration } from '../infra/quota/alerts-migration';

export const MIGRATIONS: Migration[] = [eventStoreMigration, quotaMigration, quotaAlertsMigration, ...PROJECTION_MIGRATIONS];
