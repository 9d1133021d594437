/** Every route of the content calendar (`/v1/calendar`, Document 3); docs/calendar.md describes them. */
import type { RouteDef } from '../kernel/registry';
import { calendarRoutes } from './calendars';
import { eventRoutes } from './events';
import { eventGenerationRoutes } from './generation-event';
import { seriesGenerationRoutes } from './generation-series';
import { schedulingRoutes } from './scheduling';
import { analyticsRoutes } from './analytics';
import { campaignRoutes } from './campaigns';
import { sharingRoutes } from './sharing';
import { calendarWebhookRoutes } from './webhooks';
import { oauthRoutes } from './oauth';

export const calendarAreaRoutes: RouteDef[] = [
  ...calendarRoutes,
  ...eventGenerationRoutes,
  ...seriesGenerationRoutes,
  ...schedulingRoutes,
  ...eventRoutes,
  ...analyticsRoutes,
  ...campaignRoutes,
  ...sharingRoutes,
  ...calendarWebhookRoutes,
  ...oauthRoutes,
];
