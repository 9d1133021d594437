/** Every route of the professional-network (/api/profnet) and social-network (/api/socialnet-writer) writers. */
import type { RouteDef } from '../kernel/registry';
import { writerBatchRoutes } from './batch';
import { writerEngagementRoutes } from './engagement';
import { writerGenerateRoutes } from './generate';
import { writerHealthRoutes } from './health';
import { writerPreferenceRoutes } from './preferences';

export const writerRoutes: RouteDef[] = [
  ...writerHealthRoutes,
  ...writerGenerateRoutes,
  ...writerBatchRoutes,
  ...writerPreferenceRoutes,
  ...writerEngagementRoutes,
];
