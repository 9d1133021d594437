/**
 * vendor_a: OpenAI Images API (https://platform.openai.com/docs/api-reference/images).
 * `POST /images/generations` (JSON) and `POST /images/edits` (multipart),
 * `Authorization: Bearer`; answers `{data: [{b64_json}]}` (or `url`). Sizes
 * are the model's fixed ones (the nearest is asked for; the activity resizes).
 * OpenAI takes no seed. Edit masks are PNGs whose transparent pixels are
 * changed: the platform's masks (white = change) are converted.
 */
import sharp from 'sharp';
import { nearestRatio } from '../../../domain/image/dimensions';
import { VendorBadResponseError } from '../../ai/errors';
import { DEFAULT_INPUT_LIMITS } from '../decode';
import { rawOf } from '../raster';
import { download, formOf, jsonOf, send } from './http';
import type { GenerateRequest, ImageVendorClient, ProcessRequest, VendorHttpSettings, VendorImage } from './types';

const V = 'vendor_a';
const SIZES: Record<string, Record<string, string>> = {
  'gpt-image-1': { '1:1': '1024x1024', '3:2': '1536x1024', '2:3': '1024x1536' },
  'dall-e-3': { '1:1': '1024x1024', '7:4': '1792x1024', '4:7': '1024x1792' },
  'dall-e-2': { '1:1': '1024x1024' },
};
const QUALITY: Record<string, Record<string, string>> = {
  'gpt-image-1': { draft: 'low', standard: 'medium', premium: 'high' },
  'dall-e-3': { draft: 'standard', standard: 'standard', premium: 'hd' },
};

interface ImagesAnswer {
  data?: { b64_json?: string; url?: string }[];
}

/**
 * The OpenAI mask: the image's pixels with alpha 0 where the platform mask is
 * white (an RGBA PNG the image's size). Every decode is bounded by
 * `limitInputPixels`.
 */
export async function openAiMask(
  image: Buffer,
  mask: Buffer,
  limitInputPixels = DEFAULT_INPUT_LIMITS.maxPixels,
): Promise<Buffer> {
  const { width, height } = await sharp(image, { limitInputPixels }).metadata();
  const alpha = await sharp(mask, { limitInputPixels })
    .resize(width, height, { fit: 'fill' })
    .greyscale()
    .negate({ alpha: false })
    .extractChannel(0)
    .raw()
    .toBuffer();
  // Two pipelines: in one, sharp's removeAlpha also drops the channel joined after it.
  const rgb = await sharp(image, { limitInputPixels })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return sharp(rgb.data, { raw: rawOf(rgb.info) })
    .joinChannel(alpha, { raw: { width: width!, height: height!, channels: 1 } })
    .png()
    .toBuffer();
}

export function createOpenAiImagesClient(s: VendorHttpSettings): ImageVendorClient {
  const base = s.baseUrl.replace(/\/+$/, '');
  const limitInputPixels = s.limitInputPixels ?? DEFAULT_INPUT_LIMITS.maxPixels;
  const auth = { authorization: `Bearer ${s.apiKey}` };
  const opts = (signal?: AbortSignal) => ({
    vendor: V,
    timeoutMs: s.timeoutMs,
    maxRetries: s.maxRetries,
    signal,
    fetch: s.fetch,
  });
  const sizeOf = (model: string, w: number, h: number) => {
    const table = SIZES[model] ?? SIZES['gpt-image-1'];
    return table[nearestRatio(w, h, Object.keys(table))];
  };
  async function imageOf(a: ImagesAnswer, model: string, signal?: AbortSignal): Promise<VendorImage> {
    const d = a.data?.[0];
    if (d?.b64_json) return { bytes: Buffer.from(d.b64_json, 'base64'), model };
    if (d?.url) return { bytes: await download(d.url, opts(signal)), model };
    throw new VendorBadResponseError(V, 'no image in data[0]');
  }
  const isDalle = (m: string) => m.startsWith('dall-e');

  return {
    provider: V,
    async generate(r: GenerateRequest) {
      const body: Record<string, unknown> = {
        model: r.model,
        prompt: r.negative_prompt ? `${r.prompt}\nAvoid: ${r.negative_prompt}` : r.prompt,
        n: 1,
        size: sizeOf(r.model, r.width, r.height),
        ...(QUALITY[r.model] ? { quality: QUALITY[r.model][r.quality] } : {}),
        ...(isDalle(r.model) ? { response_format: 'b64_json' } : { output_format: 'png' }),
      };
      const a = await send(
        `${base}/images/generations`,
        { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body) },
        opts(r.signal),
      );
      return imageOf(jsonOf<ImagesAnswer>(a, V), r.model, r.signal);
    },
    async process(r: ProcessRequest) {
      const model = r.model;
      const meta = await sharp(r.image, { limitInputPixels }).metadata();
      const png = await sharp(r.image, { limitInputPixels }).png().toBuffer();
      const form = formOf({
        model,
        image: png,
        mask: r.mask ? await openAiMask(png, r.mask, limitInputPixels) : undefined,
        prompt: r.prompt ?? '',
        n: 1,
        size: sizeOf(model, meta.width ?? 1024, meta.height ?? 1024),
        ...(isDalle(model) ? { response_format: 'b64_json' } : {}),
      });
      const a = await send(`${base}/images/edits`, { method: 'POST', headers: auth, body: form }, opts(r.signal));
      return imageOf(jsonOf<ImagesAnswer>(a, V), model, r.signal);
    },
  };
}
