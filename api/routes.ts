/** Every route of the platform, in one list (feature issues add their modules here). */
import type { RouteDef } from './kernel/registry';
import { healthRoutes } from './health/routes';
import { settingsRoutes } from './identity/routes';
import { developerRoutes } from './developer/routes';
import { blogRoutes } from './blog/tasks';
import { researchRoutes } from './research/routes';
import { webhookRoutes } from './webhooks/routes';
import { subscriptionRoutes } from './subscription/routes';
import { blogAnalysisRoutes } from './blog/analysis';
import { blogSectionRoutes } from './blog/sections';
import { generalAnalysisRoutes } from './analysis/routes';
import { videoRoutes } from './video/routes';

export const PLATFORM_ROUTES: RouteDef[] = [
  ...healthRoutes,
  ...settingsRoutes,
  ...developerRoutes,
  ...blogRoutes,
  ...researchRoutes,
  ...webhookRoutes,
  ...subscriptionRoutes,
  ...blogAnalysisRoutes,
  ...blogSectionRoutes,
  ...generalAnalysisRoutes,
  ...videoRoutes,
];
