/** Every route of the podcast maker (Document 2, /api/podcast: 35 routes). */
import type { RouteDef } from '../kernel/registry';
import { analysisRoutes } from './analysis';
import { audioRoutes } from './audio';
import { avatarRoutes } from './avatars';
import { dubRoutes } from './dub';
import { dubVoiceRoutes } from './dub-voices';
import { projectRoutes } from './projects';
import { visualRoutes } from './visuals';

export const podcastRoutes: RouteDef[] = [
  ...analysisRoutes,
  ...audioRoutes,
  ...visualRoutes,
  ...avatarRoutes,
  ...projectRoutes,
  ...dubRoutes,
  ...dubVoiceRoutes,
];
