/**
 * vendor_c: Stability AI REST API v2beta (https://platform.stability.ai/docs/api-reference).
 * Multipart requests with `Authorization: Bearer <key>` and
 * `Accept: application/json`; answers `{image: <base64>, finish_reason, seed}`.
 * Slow operations (creative upscale, replace background and relight) answer
 * `{id}` and are polled at `GET /v2beta/results/{id}` (202 while running).
 * Generation takes an aspect ratio, not pixels: the nearest supported ratio
 * is sent and the activity resizes the answer to the requested size.
 */
import { nearestRatio } from '../../../domain/image/dimensions';
import { VendorBadResponseError, VendorRequestRejectedError } from '../../ai/errors';
import { formOf, jsonOf, pollUntil, send } from './http';
import type { GenerateRequest, ImageVendorClient, ProcessRequest, VendorHttpSettings, VendorImage } from './types';

const V = 'vendor_c';
export const STABILITY_RATIOS = ['21:9', '16:9', '3:2', '5:4', '1:1', '4:5', '2:3', '9:16', '9:21'] as const;
const GENERATE_PATH: Record<string, string> = {
  'stable-image-ultra': '/v2beta/stable-image/generate/ultra',
  'stable-image-core': '/v2beta/stable-image/generate/core',
};
const ASYNC = new Set(['creative', 'replace-background-and-relight']);

interface StabilityAnswer {
  image?: string;
  finish_reason?: string;
  seed?: number | string;
  id?: string;
}

export function createStabilityClient(s: VendorHttpSettings): ImageVendorClient {
  const base = s.baseUrl.replace(/\/+$/, '');
  const opts = (signal?: AbortSignal) => ({
    vendor: V,
    timeoutMs: s.timeoutMs,
    maxRetries: s.maxRetries,
    signal,
    fetch: s.fetch,
  });
  const headers = { authorization: `Bearer ${s.apiKey}`, accept: 'application/json' };

  const imageOf = (a: StabilityAnswer, model: string): VendorImage => {
    if (a.finish_reason === 'CONTENT_FILTERED')
      throw new VendorRequestRejectedError(V, 422, 'the result was withheld by the content filter (CONTENT_FILTERED)');
    if (!a.image) throw new VendorBadResponseError(V, 'no image in the answer');
    const seed = a.seed === undefined ? undefined : Number(a.seed);
    return { bytes: Buffer.from(a.image, 'base64'), model, seed: Number.isFinite(seed) ? seed : undefined };
  };

  async function post(
    path: string,
    fields: Parameters<typeof formOf>[0],
    model: string,
    r: { signal?: AbortSignal; onWait?: () => void },
    async = false,
  ): Promise<VendorImage> {
    const a = await send(`${base}${path}`, { method: 'POST', headers, body: formOf(fields) }, opts(r.signal));
    const answer = jsonOf<StabilityAnswer>(a, V);
    if (!async && (answer.image || answer.finish_reason)) return imageOf(answer, model);
    if (!answer.id) throw new VendorBadResponseError(V, 'neither an image nor a task id in the answer');
    const id = answer.id;
    return pollUntil(
      V,
      async () => {
        const p = await send(`${base}/v2beta/results/${encodeURIComponent(id)}`, { headers }, opts(r.signal));
        if (p.status === 202) return undefined;
        return imageOf(jsonOf<StabilityAnswer>(p, V), model);
      },
      { intervalMs: s.pollIntervalMs ?? 2000, totalMs: s.taskTimeoutMs ?? 300_000, signal: r.signal, onWait: r.onWait },
    );
  }

  return {
    provider: V,
    async generate(r: GenerateRequest) {
      const model = r.model;
      const path = GENERATE_PATH[model] ?? '/v2beta/stable-image/generate/sd3';
      return post(
        path,
        {
          prompt: r.prompt,
          negative_prompt: r.negative_prompt,
          aspect_ratio: nearestRatio(r.width, r.height, STABILITY_RATIOS),
          seed: r.seed % 4294967295,
          output_format: 'png',
          ...(model === 'stable-image-core' && r.style_preset ? { style_preset: r.style_preset } : {}),
          ...(path.endsWith('/sd3') ? { model, cfg_scale: r.guidance_scale } : {}),
        },
        model,
        r,
      );
    },
    async process(r: ProcessRequest) {
      const common = {
        negative_prompt: r.negative_prompt,
        seed: r.seed === undefined ? undefined : r.seed % 4294967295,
        output_format: 'png',
        ...(r.options as Record<string, string | number | boolean> | undefined),
      };
      const path = (p: string) =>
        r.kind === 'upscale'
          ? `/v2beta/stable-image/upscale/${p}`
          : r.kind === 'control'
            ? `/v2beta/stable-image/${p}`
            : `/v2beta/stable-image/edit/${p}`;
      const m = r.model;
      switch (m) {
        case 'remove-background':
          return post(path(m), { image: r.image, output_format: 'png' }, m, r);
        case 'inpaint':
          return post(
            path(m),
            { ...common, image: r.image, mask: r.mask, prompt: r.prompt, style_preset: r.style_preset },
            m,
            r,
          );
        case 'outpaint':
          return post(
            path(m),
            {
              ...common,
              image: r.image,
              prompt: r.prompt,
              left: r.expand?.left,
              right: r.expand?.right,
              up: r.expand?.up,
              down: r.expand?.down,
            },
            m,
            r,
          );
        case 'search-and-replace':
          return post(path(m), { ...common, image: r.image, prompt: r.prompt, search_prompt: r.search_prompt }, m, r);
        case 'search-and-recolor':
          return post(path(m), { ...common, image: r.image, prompt: r.prompt, select_prompt: r.select_prompt }, m, r);
        case 'replace-background-and-relight':
          return post(
            path(m),
            {
              ...common,
              subject_image: r.image,
              background_reference: r.background,
              background_prompt: r.prompt,
              light_reference: r.lighting,
            },
            m,
            r,
            true,
          );
        case 'fast':
        case 'conservative':
        case 'creative':
          return post(path(m), { ...common, image: r.image, prompt: r.prompt }, m, r, ASYNC.has(m));
        case 'control/sketch':
        case 'control/structure':
          return post(
            path(m),
            { ...common, image: r.image, prompt: r.prompt, control_strength: r.control_strength },
            m,
            r,
          );
        case 'control/style':
          return post(
            path(m),
            { ...common, image: r.image, prompt: r.prompt, fidelity: r.fidelity, aspect_ratio: r.aspect_ratio },
            m,
            r,
          );
        case 'control/style-transfer':
          return post(
            path(m),
            {
              ...common,
              init_image: r.image,
              style_image: r.style_image,
              prompt: r.prompt,
              style_strength: r.style_strength,
              composition_fidelity: r.composition_fidelity,
              change_strength: r.change_strength,
            },
            m,
            r,
          );
        default:
          throw new Error(`vendor_c has no endpoint ${m}`);
      }
    },
  };
}
