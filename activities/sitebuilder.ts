/**
 * Site publishing activities (docs/sitebuilder.md): connection
 * (sitebuilder-connection.ts) and the steps of a publish job
 * (sitebuilder-publish.ts). Their adapters are built once in
 * workers/adapters.ts from the configuration; when the builder is not
 * configured the activities are still registered and fail with
 * VENDOR_NOT_CONFIGURED naming the variables.
 */
import type { Logger } from 'pino';
import type { EventStore } from '../infra/eventstore';
import type { SitebuilderApi } from '../infra/sitebuilder/blog-api';
import type { ImageFetchOptions } from '../infra/sitebuilder/media';
import type { OAuthClient } from '../infra/sitebuilder/oauth';
import type { SitebuilderSettings } from '../infra/sitebuilder/settings';
import type { SitebuilderTokenStore, TokenManager } from '../infra/sitebuilder/tokens';
import { createSitebuilderConnectionActivities } from './sitebuilder-connection';
import { createSitebuilderPublishActivities } from './sitebuilder-publish';

export interface SitebuilderActivityDeps {
  store: EventStore;
  settings: Pick<SitebuilderSettings, 'missing' | 'pkceKey' | 'scopes'>;
  oauth: OAuthClient;
  api: SitebuilderApi;
  tokens: SitebuilderTokenStore;
  tokenManager: TokenManager;
  /** SSRF rules, size cap and time-out of cover image downloads. */
  media: ImageFetchOptions;
  /** Base URL for the SEO metadata when the connected site has no published URL. */
  publicBaseUrl: string;
  logger?: Logger;
  now?: () => Date;
}

export function createSitebuilderActivities(deps: SitebuilderActivityDeps) {
  return { ...createSitebuilderConnectionActivities(deps), ...createSitebuilderPublishActivities(deps) };
}

export type SitebuilderActivities = ReturnType<typeof createSitebuilderActivities>;
