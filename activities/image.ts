/**
 * Activities of the image studio (workflows/image.ts): prompt enhancement
 * through the AI text gateway, one generated image per activity (metered per
 * image under the activity's idempotency key: a retry is charged once), one
 * edit/control/upscale per activity, and the ImageStored events. Images move
 * as storage keys; pixels stay in the image storage.
 */
import type { AiGateway } from '../infra/ai/completion';
import { VendorBadResponseError, VendorNotConfiguredError } from '../infra/ai/errors';
import type { ActualUsage, Reservation, ReserveRequest } from '../infra/quota/meter';
import type { EventStore } from '../infra/eventstore';
import { uuidFromKey } from '../infra/eventstore/ids';
import type { ImageStorage, ImageExt } from '../infra/image/storage';
import type { ImageVendors } from '../infra/image/vendors';
import { encodeAs, renderSvgToPng } from '../infra/image/raster';
import { outpaintLocal, removeBackgroundLocal, DEFAULT_TOLERANCE } from '../infra/image/local-edits';
import { ValidationError } from '../domain/errors';
import { imagePriceOf, ImagePriceOperation } from '../domain/pricing';
import { renderSvg } from '../domain/image/procedural';
import {
  cleanEnhanced,
  enhancePromptMessages,
  enrichPrompt,
  EnrichInput,
  LOCAL_ENRICHMENT,
  LOCAL_RENDER_DESCRIPTION,
} from '../domain/image/enrich';
import { PROVIDER_INFO, ImageProvider, ImageVendor } from '../domain/image/providers';
import type {
  GeneratedImage,
  GenerateImageInput,
  ImageRef,
  ProcessedImage,
  ProcessJob,
  PromptEnhancement,
  RecordedAt,
} from '../domain/image/jobs';
import { imageAssetStream } from '../domain/events/image';
import type { StoredImageFacts } from '../domain/image/assets';
import { withHeartbeat } from './heartbeat';
import { activityKey, currentWorkflowId } from './tasks';
import { Context } from '@temporalio/activity';

/** The usage meter as the image activities use it (infra/quota/meter.ts PostgresUsageMeter). */
export interface ImageMeter {
  reserve(r: ReserveRequest): Promise<Reservation>;
  settle(r: Reservation, a: ActualUsage): Promise<void>;
  release(r: Reservation): Promise<void>;
}

export interface ImageActivityDeps {
  storage: ImageStorage;
  vendors: ImageVendors;
  gateway: AiGateway;
  meter: ImageMeter;
  store: EventStore;
  /** sharp's limitInputPixels for every decode in the worker. */
  limitInputPixels: number;
}

/** A request the platform cannot carry out as given: non-retryable, 400 at the API (domain/failures.ts). */
class InvalidImageRequest extends Error {
  readonly code = 'INVALID_REQUEST';
}

const PRICE_OP: Record<ProcessJob['kind'], ImagePriceOperation> = {
  edit: 'edit',
  control: 'control',
  upscale: 'upscale',
};

export function createImageActivities(deps: ImageActivityDeps) {
  const vendor = (p: ImageVendor) => {
    const v = deps.vendors[p];
    if (!v) throw new VendorNotConfiguredError(p, PROVIDER_INFO[p].configure);
    return v;
  };
  const heartbeat = () => Context.current().heartbeat();
  const store = async (bytes: Buffer, ext: ImageExt, width: number, height: number): Promise<ImageRef> => {
    const s = await deps.storage.put(bytes, ext);
    return { key: s.key, width, height, bytes: s.bytes, content_type: s.contentType };
  };
  const load = async (key: string): Promise<Buffer> => {
    const b = await deps.storage.read(key);
    if (!b) throw new InvalidImageRequest(`input image ${key} is no longer stored`);
    return b;
  };

  /**
   * Runs `work` under a reservation of `cost` dollars for `provider` (one image);
   * settles it with the actual cost, or releases it when the work fails.
   */
  async function metered<T>(
    userId: string,
    provider: ImageProvider,
    model: string,
    cost: number,
    work: () => Promise<T>,
  ) {
    const r = await deps.meter.reserve({
      userId,
      provider,
      estimatedTokens: 0,
      estimatedCost: cost,
      idempotencyKey: activityKey(),
    });
    let out: T;
    try {
      out = await withHeartbeat(work);
    } catch (e) {
      await deps.meter.release(r);
      throw e;
    }
    await deps.meter.settle(r, { provider, model, tokens_in: 0, tokens_out: 0, cost });
    return out;
  }

  return {
    /**
     * Rewrites the prompt through the text gateway; offline (local writer) a deterministic enrichment. For the
     * offline renderer, always the description of what it draws: a vendor's rewrite would promise what it cannot draw.
     */
    async enhanceImagePrompt(a: { userId: string; input: EnrichInput }): Promise<PromptEnhancement> {
      if (a.input.renderer === 'local')
        return { prompt: enrichPrompt(a.input), provider: 'local', model: LOCAL_RENDER_DESCRIPTION, offline: true };
      if (deps.gateway.resolve('auto') === 'local')
        return { prompt: enrichPrompt(a.input), provider: 'local', model: LOCAL_ENRICHMENT, offline: true };
      const resp = await withHeartbeat(() =>
        deps.gateway.complete({
          userId: a.userId,
          purpose: 'image.enhance_prompt',
          messages: enhancePromptMessages(a.input),
          maxTokens: 200,
          temperature: 0.7,
          idempotencyKey: activityKey(),
        }),
      );
      const prompt = cleanEnhanced(resp.text);
      if (!prompt) throw new VendorBadResponseError(resp.provider, 'the rewritten prompt is empty');
      return { prompt, provider: resp.provider, model: resp.model, offline: false };
    },

    /** One image of one variation: rendered offline or asked of the vendor, stored, metered. */
    async generateImage(a: GenerateImageInput): Promise<GeneratedImage> {
      if (a.provider === 'local') {
        const r = renderSvg({
          prompt: a.prompt,
          width: a.width,
          height: a.height,
          seed: a.seed,
          quality: a.quality,
          style_preset: a.style_preset,
          overlay: a.overlay,
        });
        return metered(a.userId, 'local', a.model, 0, async () => {
          const png = await renderSvgToPng(r.svg);
          const ref = await store(png.bytes, 'png', png.width, png.height);
          return {
            ...ref,
            provider: 'local' as const,
            model: a.model,
            variation: a.variation,
            seed: a.seed,
            motifs: r.motifs,
          };
        });
      }
      const client = vendor(a.provider);
      const price = imagePriceOf(a.provider, a.model, 'generate').cost_per_request;
      return metered(a.userId, a.provider, a.model, price, async () => {
        const img = await client.generate({
          prompt: a.prompt,
          negative_prompt: a.negative_prompt,
          width: a.width,
          height: a.height,
          seed: a.seed,
          model: a.model,
          quality: a.quality,
          style_preset: a.style_preset,
          guidance_scale: a.guidance_scale,
          steps: a.steps,
          onWait: heartbeat,
        });
        // Vendors render at their own sizes: the answer is cropped and resized to exactly what was asked.
        const out = await encodeAs(img.bytes, 'png', deps.limitInputPixels, { width: a.width, height: a.height }).catch(
          (e: Error) => {
            throw new VendorBadResponseError(a.provider, `the image could not be read: ${e.message}`);
          },
        );
        const ref = await store(out.bytes, 'png', out.width, out.height);
        return {
          ...ref,
          provider: a.provider,
          model: img.model,
          variation: a.variation,
          seed: img.seed ?? (a.provider === 'vendor_a' ? undefined : a.seed),
        };
      });
    },

    /** One edit, control transform or vendor upscale. */
    async processImage(a: { userId: string; job: ProcessJob }): Promise<ProcessedImage> {
      const j = a.job;
      const image = await load(j.inputs.image);
      const ext: ImageExt = j.output_format === 'jpg' ? 'jpg' : 'png';
      if (j.provider === 'local') {
        const local = async () => {
          if (j.kind === 'edit' && j.operation === 'remove_background') {
            const tol = Number(j.params.options?.tolerance ?? DEFAULT_TOLERANCE);
            if (!(tol >= 1 && tol <= 200))
              throw new InvalidImageRequest('options.tolerance must be a number from 1 to 200');
            const r = await removeBackgroundLocal(image, deps.limitInputPixels, tol);
            return {
              bytes: r.bytes,
              width: r.width,
              height: r.height,
              details: {
                background: r.background,
                removed_fraction: Math.round(r.removed * 1000) / 1000,
                tolerance: tol,
              },
            };
          }
          if (j.kind === 'edit' && j.operation === 'outpaint') {
            const r = await outpaintLocal(image, j.params.expand!, deps.limitInputPixels);
            return { ...r, details: { method: 'mirrored edges, blurred with distance' } };
          }
          throw new InvalidImageRequest(`the local provider cannot do ${j.kind} ${j.operation}`);
        };
        let r: { bytes: Buffer; width: number; height: number; details?: Record<string, unknown> };
        try {
          r = await local();
        } catch (e) {
          if (e instanceof ValidationError) throw new InvalidImageRequest(e.issues.map((i) => i.message).join('; '));
          throw e;
        }
        // Transparency needs PNG: a jpg output of a cut-out is flattened on white by encodeAs.
        const out = ext === 'png' ? r : await encodeAs(r.bytes, 'jpg', deps.limitInputPixels);
        const ref = await store(out.bytes, ext, out.width, out.height);
        return { ...ref, provider: 'local', model: j.model, details: r.details };
      }
      const client = vendor(j.provider);
      const [mask, background, lighting, style_image] = await Promise.all(
        [j.inputs.mask, j.inputs.background, j.inputs.lighting, j.inputs.style_image].map((k) =>
          k ? load(k) : undefined,
        ),
      );
      const price = imagePriceOf(j.provider, j.model, PRICE_OP[j.kind]).cost_per_request;
      return metered(a.userId, j.provider, j.model, price, async () => {
        const img = await client.process({
          kind: j.kind,
          operation: j.operation,
          model: j.model,
          image,
          mask,
          background,
          lighting,
          style_image,
          ...j.params,
          onWait: heartbeat,
        });
        const out = await encodeAs(img.bytes, ext, deps.limitInputPixels, j.resize_to).catch((e: Error) => {
          throw new VendorBadResponseError(j.provider, `the image could not be read: ${e.message}`);
        });
        const ref = await store(out.bytes, ext, out.width, out.height);
        return { ...ref, provider: j.provider, model: img.model, seed: img.seed };
      });
    },

    /** ImageStored for each image the user got (idempotent per user and content address). */
    async recordImages(a: { userId: string; images: StoredImageFacts[] }): Promise<RecordedAt[]> {
      const out: RecordedAt[] = [];
      for (const img of a.images) {
        const streamId = imageAssetStream(a.userId, img.key);
        const r = await deps.store.appendOnce(
          streamId,
          { type: 'ImageStored', eventId: uuidFromKey(`imageasset:${a.userId}:${img.key}`), data: img },
          { user_id: a.userId, workflow_id: currentWorkflowId() },
        );
        out.push({ streamId, streamPosition: r.event.streamPosition });
      }
      return out;
    },
  };
}

export type ImageActivities = ReturnType<typeof createImageActivities>;
