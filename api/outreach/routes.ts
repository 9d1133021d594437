/** Every backlink outreach route (Document 3, /api/v1/backlink-outreach), one module per part of the table. */
import type { RouteDef } from '../kernel/registry';
import { campaignRoutes } from './campaigns';
import { templateRoutes } from './templates';
import { sendingRoutes } from './sending';
import { suppressionRoutes } from './suppression';
import { replyRoutes } from './replies';
import { emailRoutes } from './emails';
import { discoveryRoutes } from './discovery';
import { reportingRoutes } from './reporting';

export const outreachRoutes: RouteDef[] = [
  ...campaignRoutes,
  ...templateRoutes,
  ...sendingRoutes,
  ...suppressionRoutes,
  ...replyRoutes,
  ...emailRoutes,
  ...discoveryRoutes,
  ...reportingRoutes,
];
