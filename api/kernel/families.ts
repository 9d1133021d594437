/**
 * Route families (docs/api.md "Route families"). The family of a route is
 * decided by its path prefix and picks the error and success envelopes, the
 * accepted credential kinds and the rate-limit scheme. Longest prefix wins;
 * everything else is the general family.
 */
import type { RateScheme } from '../../domain/plans';
import type { CredentialKind } from '../../domain/identity';

export type Family = 'general' | 'subscription' | 'developer' | 'calendar' | 'outreach' | 'image_studio';
export const FAMILIES: Family[] = ['general', 'subscription', 'developer', 'calendar', 'outreach', 'image_studio'];

const PREFIXES: [string, Family][] = [
  ['/api/v1/backlink-outreach', 'outreach'],
  ['/api/image-studio', 'image_studio'],
  ['/api/subscription', 'subscription'],
  ['/v1/calendar', 'calendar'],
  ['/v1', 'developer'],
];

export function familyOf(path: string): Family {
  for (const [prefix, family] of PREFIXES) if (path === prefix || path.startsWith(`${prefix}/`)) return family;
  return 'general';
}

/** Credential kinds each family accepts in `Authorization: Bearer ...`. */
export const CREDENTIALS: Record<Family, CredentialKind[]> = {
  general: ['api_key'],
  subscription: ['api_key'],
  developer: ['api_key'],
  // The spec's ACCESS_TOKEN of the image studio may be either: an API key, or a session token made with one.
  image_studio: ['api_key', 'session'],
  calendar: ['api_key', 'oauth'],
  outreach: ['session'],
};

/** Rate scheme of a family (a route may choose `integration` instead). */
export const RATE_SCHEME: Record<Family, RateScheme> = {
  general: 'general',
  subscription: 'general',
  image_studio: 'general',
  outreach: 'general',
  developer: 'developer',
  calendar: 'calendar',
};
