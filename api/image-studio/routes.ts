/** Every route of the image studio (Document 2, `/api/image-studio`), in the order of the spec's table, plus the stored-image route. */
import type { RouteDef } from '../kernel/registry';
import { imageCreateRoutes } from './create';
import { imageCatalogueRoutes } from './catalogue';
import { imageProcessRoutes } from './process';
import { imageUpscaleRoutes } from './upscale';
import { imageSocialRoutes } from './social';
import { imageFileRoutes } from './files';

export const imageStudioRoutes: RouteDef[] = [
  ...imageCreateRoutes,
  ...imageCatalogueRoutes,
  ...imageProcessRoutes,
  ...imageUpscaleRoutes,
  ...imageSocialRoutes,
  ...imageFileRoutes,
];
