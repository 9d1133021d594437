/**
 * The writers' side of rendering through the studios: what the API offers a
 * generation (the image studio when it has image storage: its configured
 * vendor, else the offline `local` renderer; the video studio when it has
 * media storage), decided once when the job is built. Read-your-writes of a
 * finished piece's files (so the URLs in `rendering` answer at once) is the
 * kernel's: settleWrittenBy covers the task's render children.
 */
import { chooseGenerationProvider, chooseModel } from '../../domain/image/providers';
import type { RenderServices } from '../../domain/writers/render';
import type { AppDeps } from '../kernel/types';

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
