/**
 * POST /api/image-studio/upscale. `fast` and `conservative` run here, in the
 * API: Lanczos3 resampling (conservative adds mild sharpening) on sharp's own
 * thread pool, bounded by the input and output pixel limits, so a request
 * takes well under a second and the event loop stays free; they spend no
 * budget, so rule 1 does not send them to a workflow. `creative` asks a vendor
 * (metered) through imageProcessWorkflow. `auto` is `conservative`: a
 * paid mode is only used when asked for.
 */
import { chooseUpscaleProvider, UPSCALE_MODES, UpscaleMode } from '../../domain/image/providers';
import { upscaleLocal } from '../../infra/image/raster';
import { imageProcessWorkflow } from '../../workflows';
import { defineRoute, RouteDef } from '../kernel/registry';
import { settle, userIdOf } from '../kernel/handler';
import { num, str, withRequired } from '../kernel/schema';
import { executeWorkflow } from '../kernel/workflows';
import {
  base64Of,
  decode,
  domainErrors,
  extOf,
  imageUrl,
  invalid,
  jobId,
  PREFIX,
  secondsSince,
  storeAndRecord,
  studioOf,
  tags,
} from './common';
import { imageField } from './schemas';

/** Scale factor of each preset when no target size is given. */
export const PRESET_FACTOR = { web: 2, social: 1.5, print: 4 } as const;
export const DEFAULT_FACTOR = 2;
/** Largest factor in one upscale. */
export const MAX_FACTOR = 8;

interface UpscaleBody {
  image_base64: string;
  mode: UpscaleMode;
  target_width?: number;
  target_height?: number;
  preset?: keyof typeof PRESET_FACTOR;
  prompt?: string;
}

/** Output size: the target (keeping the ratio: the smaller of the two factors when both are given), else the preset's or default factor. */
export function upscaleTarget(
  w: number,
  h: number,
  b: Pick<UpscaleBody, 'target_width' | 'target_height' | 'preset'>,
): { width: number; height: number; factor: number } {
  let factor: number;
  if (b.target_width || b.target_height)
    factor = Math.min(b.target_width ? b.target_width / w : Infinity, b.target_height ? b.target_height / h : Infinity);
  else factor = b.preset ? PRESET_FACTOR[b.preset] : DEFAULT_FACTOR;
  return { width: Math.round(w * factor), height: Math.round(h * factor), factor: Math.round(factor * 1000) / 1000 };
}

export const imageUpscaleRoutes: RouteDef[] = [
  defineRoute<UpscaleBody>({
    method: 'post',
    path: `${PREFIX}/upscale`,
    auth: 'user',
    tags,
    summary: 'Upscale an image: fast/conservative locally (Lanczos3), creative through a vendor',
    description: `Presets: web x${PRESET_FACTOR.web}, social x${PRESET_FACTOR.social}, print x${PRESET_FACTOR.print}; default x${DEFAULT_FACTOR}. target_width/target_height keep the aspect ratio (both: the smaller factor). The factor must lie between 1 and ${MAX_FACTOR}, and the output within the output pixel limit (400 otherwise). creative needs a prompt on vendor_c.`,
    request: {
      body: withRequired(
        {
          image_base64: imageField('the image: base64 or data URL'),
          mode: { enum: [...UPSCALE_MODES], default: 'auto' },
          target_width: { type: 'integer', minimum: 1, maximum: 32768 },
          target_height: { type: 'integer', minimum: 1, maximum: 32768 },
          preset: { enum: Object.keys(PRESET_FACTOR) },
          prompt: str(4000),
        },
        ['image_base64'],
      ),
    },
    responses: {
      200: {
        description: 'The upscaled image (PNG, base64)',
        data: withRequired(
          {
            success: { type: 'boolean' },
            mode: str(),
            provider: str(),
            model: str(),
            image_base64: str(),
            image_url: str(),
            width: { type: 'integer' },
            height: { type: 'integer' },
            metadata: withRequired(
              {
                preset: { type: ['string', 'null'] },
                original_width: { type: 'integer' },
                original_height: { type: 'integer' },
                upscale_factor: num,
                processing_time: num,
              },
              ['preset', 'original_width', 'original_height', 'upscale_factor'],
            ),
          },
          ['success', 'mode', 'image_base64', 'width', 'height', 'metadata'],
        ),
      },
    },
    errors: {
      502: 'an image vendor failed (creative mode)',
      503: 'creative mode without a configured vendor (names what to set), or background work (Temporal, creative mode) or image storage unavailable',
    },
    handler: async (ctx) => {
      const t0 = process.hrtime.bigint();
      const b = ctx.body;
      const studio = studioOf(ctx);
      const mode = b.mode === 'auto' ? 'conservative' : b.mode;
      const choice = await domainErrors(() => chooseUpscaleProvider(mode, studio.configured));
      if (choice.provider === 'vendor_c' && !b.prompt?.trim())
        throw invalid('prompt', 'creative upscaling on vendor_c needs a prompt describing the image');
      const src = await decode(ctx, b.image_base64, 'image_base64');
      const t = upscaleTarget(src.width, src.height, b);
      if (t.factor < 1)
        throw invalid(
          'target_width',
          `the target is smaller than the image (${src.width}x${src.height}); upscaling only enlarges`,
        );
      if (t.factor > MAX_FACTOR)
        throw invalid('target_width', `the factor ${t.factor} is above the largest, ${MAX_FACTOR}`);
      if (t.width * t.height > studio.maxOutputPixels)
        throw invalid(
          b.target_width || b.target_height ? 'target_width' : 'preset',
          `the output would be ${t.width}x${t.height} = ${t.width * t.height} pixels; at most ${studio.maxOutputPixels} pixels are produced`,
        );
      let result: { key: string; width: number; height: number; provider: string; model: string };
      if (choice.provider === 'local') {
        const up = await upscaleLocal(src.bytes, t, mode as 'fast' | 'conservative', studio.input.maxPixels);
        const s = await storeAndRecord(ctx, up.bytes, 'png', {
          width: up.width,
          height: up.height,
          operation: `upscale.${mode}`,
          provider: 'local',
          model: choice.model,
        });
        result = { key: s.key, width: up.width, height: up.height, provider: 'local', model: choice.model };
      } else {
        const input = await studio.storage.put(src.bytes, extOf(src));
        const out = await executeWorkflow(ctx.deps, imageProcessWorkflow, {
          workflowId: jobId('upscale'),
          userId: userIdOf(ctx),
          args: [
            {
              userId: userIdOf(ctx),
              job: {
                kind: 'upscale',
                operation: mode,
                provider: choice.provider,
                model: choice.model,
                inputs: { image: input.key },
                output_format: 'png',
                resize_to: { width: t.width, height: t.height },
                params: { prompt: b.prompt },
              },
            },
          ],
        });
        await settle(ctx, 'image-assets', out.recorded);
        result = out.image;
      }
      return {
        data: {
          success: true,
          mode,
          provider: result.provider,
          model: result.model,
          image_base64: await base64Of(ctx, result.key),
          image_url: imageUrl(ctx, result.key),
          width: result.width,
          height: result.height,
          metadata: {
            preset: b.preset ?? null,
            original_width: src.width,
            original_height: src.height,
            upscale_factor: Math.round((result.width / src.width) * 1000) / 1000,
            processing_time: secondsSince(t0),
          },
        },
      };
    },
  }),
];
