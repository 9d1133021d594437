/** Every route of the video studio (Document 2, /api/videonet) and the media tasks' cancel route. */
import type { RouteDef } from '../kernel/registry';
import { storyCancelRoute } from '../media/tasks';
import { videoFileRoute } from './files';
import { videoPlanRoutes } from './plans';
import { videoRenderRoutes } from './render';

export const videoRoutes: RouteDef[] = [...videoPlanRoutes, ...videoRenderRoutes, videoFileRoute, storyCancelRoute];
