/** Every route of the platform, in one list (feature issues add their modules here). */
import type { RouteDef } from '../registry';
import { healthRoutes } from './health';
import { settingsRoutes } from './settings';
import { developerRoutes } from './developer';
import { blogRoutes } from './blog';
import { researchRoutes } from './research';
import { webhookRoutes } from './webhooks';
import { subscriptionRoutes } from './subscription';
import { blogAnalysisRoutes } from './blog-analysis';
import { blogSectionRoutes } from './blog-sections';
import { generalAnalysisRoutes } from './analysis-general';

export const PLATFORM_ROUTES: RouteDef[] = [...healthRoutes, ...settingsRoutes, ...developerRoutes, ...blogRoutes, ...researchRoutes, ...webhookRoutes, ...subscriptionRoutes, ...blogAnalysisRoutes, ...blogSectionRoutes, ...generalAnalysisRoutes];
