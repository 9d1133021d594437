/** What the writers' route modules share: the two writers' path prefixes and names, and the user's preferences. */
import { emptyPreferences, WriterPreferences } from '../../domain/writers/preferences';
import type { WriterKind, WriterPlatform } from '../../domain/writers/types';
import { getWriterPreferences } from '../../projections/writer-preferences';
import type { AppDeps } from '../kernel/types';

export const PREFIX: Record<WriterPlatform, string> = { profnet: '/api/profnet', socialnet: '/api/socialnet-writer' };
export const TAG: Record<WriterPlatform, string> = {
  profnet: 'professional-network writer',
  socialnet: 'social-network writer',
};

/** Path of each generation route, as Document 2 names them. */
export const GENERATE_PATH: Record<WriterPlatform, Partial<Record<WriterKind, string>>> = {
  profnet: {
    post: '/generate-post',
    article: '/generate-article',
    video_post: '/generate-video-post',
    carousel: '/generate-carousel',
  },
  socialnet: {
    post: '/post/generate',
    story: '/story/generate',
    reel: '/reel/generate',
    carousel: '/carousel/generate',
    event: '/event/generate',
    group_post: '/group-post/generate',
    page_about: '/page-about/generate',
    ad_copy: '/ad-copy/generate',
  },
};

/** The user's saved writer preferences (empty when none were saved). */
export async function preferencesOf(deps: AppDeps, userId: string): Promise<WriterPreferences> {
  return (await getWriterPreferences(deps.db, userId))?.preferences ?? emptyPreferences();
}

/** Extra error statuses of routes that run generation workflows. */
export const WORKFLOW_ERRORS = {
  409: 'The task id was already used (retry)',
  502: 'The text vendor failed or answered something unusable (UPSTREAM_ERROR, details.code names the failure)',
  503: 'Background work is unavailable, or the chosen text vendor is not configured (SERVICE_UNAVAILABLE)',
};
