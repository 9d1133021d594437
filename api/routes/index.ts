/** Every route of the platform, in one list (feature issues add their modules here). */
import type { RouteDef } from '../registry';
import { healthRoutes } from './health';
import { settingsRoutes } from './settings';
import { developerRoutes } from './developer';

export const PLATFORM_ROUTES: RouteDef[] = [...healthRoutes, ...settingsRoutes, ...developerRoutes];
