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
import { sitebuilderRoutes } from './sitebuilder/routes';
import { imageStudioRoutes } from './image-studio/routes';
import { outreachRoutes } from './outreach/routes';
import { writerRoutes } from './writers/routes';
import { calendarAreaRoutes } from './calendar/routes';
import { taskRoutes } from './tasks/routes';
import { contentRoutes } from './content/routes';
import { keywordRoutes } from './seo/keywords';
import { performanceRoutes } from './seo/performance';
import { developerContentRoutes } from './developer/content';
import { developerPersonaRoutes } from './developer/personas';
import { developerAnalyticsRoutes } from './developer/analytics';
import { videoRoutes } from './video/routes';
import { podcastRoutes } from './podcast/routes';

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
  ...sitebuilderRoutes,
  ...imageStudioRoutes,
  ...outreachRoutes,
  ...writerRoutes,
  ...calendarAreaRoutes,
  ...taskRoutes,
  ...contentRoutes,
  ...keywordRoutes,
  ...performanceRoutes,
  ...developerContentRoutes,
  ...developerPersonaRoutes,
  ...developerAnalyticsRoutes,
  ...videoRoutes,
  ...podcastRoutes,
];
