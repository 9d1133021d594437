/**
 * The writers' side of rendering through the studios: what the API offers a
 * generation (the image studio when it has image storage: its configured
 * vendor, else the offline `local` renderer; the video studio when it has
 * media storage), decided once when the job is built, and read-your-writes
 * for a finished piece's files, so the URLs in `rendering` answer at once.
 */
import { imageAssetStream } from '../../domain/events/image';
import { videoRenderStream } from '../../domain/events/video';
import { chooseGenerationProvider, chooseModel } from '../../domain/image/providers';
import type { RenderServices } from '../../domain/writers/render';
import type { RenderingStatus } from '../../domain/writers/finish';
import { settleStreams, userIdOf } from '../kernel/handler';
import type { AppDeps, RouteCtx } from '../kernel/types';

type AnyCtx = RouteCtx;

/** What the image studio and the video studio can render for a generation on this API. */
export function renderServices(deps: AppDeps): RenderServices {
  const studio = deps.imageStudio;
  const off = deps.settings.writersRendering === false;
  const turnedOff = 'rendering from the writers is turned off on this deployment (WRITERS_RENDERING=false)';
  let image: RenderServices['image'];
  if (off) image = { available: false, reason: turnedOff };
  else if (!studio)
    image = {
      available: false,
      reason: 'the image studio has no image storage configured on this deployment (set IMAGE_STORAGE_DIR)',
    };
  else {
    const provider = chooseGenerationProvider('auto', studio.configured);
    image = {
      available: true,
      provider,
      model: chooseModel(provider, undefined, provider === 'local' ? undefined : studio.defaultModels[provider]),
    };
  }
  const video: RenderServices['video'] = off
    ? { available: false, reason: turnedOff }
    : deps.media
      ? { available: true, speechVendor: deps.media.speechVendorConfigured }
      : {
          available: false,
          reason: 'the video studio has no media storage configured on this deployment (set MEDIA_STORAGE_DIR)',
        };
  return { image, video, baseUrl: deps.publicBaseUrl ?? '' };
}

const IMAGE_KEY = /\/api\/image-studio\/images\/([^/?#]+)$/;

/**
 * Waits until the projections that serve a piece's rendered files have them
 * (image-assets for images, video for a render's files): the file routes
 * answer as soon as the piece is returned.
 */
export async function settleRendered(ctx: AnyCtx, result: unknown): Promise<void> {
  const rendering = (result as { rendering?: RenderingStatus[] } | undefined)?.rendering;
  if (!Array.isArray(rendering)) return;
  const userId = userIdOf(ctx);
  const images: string[] = [];
  const renders: string[] = [];
  for (const r of rendering) {
    if (r.service === 'video_studio' && r.task_id && r.assets?.some((a) => a.status === 'rendered'))
      renders.push(videoRenderStream(r.task_id));
    if (r.service === 'image_studio')
      for (const a of r.assets ?? []) {
        const key = a.status === 'rendered' && a.url ? IMAGE_KEY.exec(a.url)?.[1] : undefined;
        if (key) images.push(imageAssetStream(userId, key));
      }
  }
  await Promise.all([settleStreams(ctx, 'image-assets', images), settleStreams(ctx, 'video', renders)]);
}
