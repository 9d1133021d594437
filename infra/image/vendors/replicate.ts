/**
 * vendor_e: Replicate HTTP API v1 (https://replicate.com/docs/reference/http).
 * `POST /v1/models/<owner>/<name>/predictions` (or `/v1/predictions` with
 * `version` for `owner/name:version`) with `{input}`, `Authorization: Bearer`
 * and `Prefer: wait` (the answer holds the output when the model finishes in
 * time); otherwise the prediction is polled at `urls.get` until `succeeded`,
 * `failed` or `canceled`. The output (a URL or a list of URLs) is downloaded.
 */
import { nearestRatio } from '../../../domain/image/dimensions';
import { VendorBadResponseError, VendorRequestRejectedError } from '../../ai/errors';
import { dataUrl, download, jsonOf, pollUntil, send } from './http';
import type { GenerateRequest, ImageVendorClient, ProcessRequest, VendorHttpSettings, VendorImage } from './types';

const V = 'vendor_e';
const FLUX_RATIOS = ['21:9', '16:9', '3:2', '4:3', '5:4', '1:1', '4:5', '3:4', '2:3', '9:16', '9:21'];

interface Prediction {
  id?: string;
  status?: string;
  output?: unknown;
  error?: unknown;
  urls?: { get?: string };
}

export function createReplicateClient(s: VendorHttpSettings): ImageVendorClient {
  const base = s.baseUrl.replace(/\/+$/, '');
  const auth = { authorization: `Bearer ${s.apiKey}` };
  const opts = (signal?: AbortSignal) => ({
    vendor: V,
    timeoutMs: s.timeoutMs,
    maxRetries: s.maxRetries,
    signal,
    fetch: s.fetch,
  });

  async function predict(
    model: string,
    input: Record<string, unknown>,
    r: { signal?: AbortSignal; onWait?: () => void },
  ): Promise<VendorImage> {
    const [name, version] = model.split(':');
    const url = version ? `${base}/predictions` : `${base}/models/${name}/predictions`;
    const clean = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
    const a = await send(
      url,
      {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json', prefer: 'wait=60' },
        body: JSON.stringify(version ? { version, input: clean } : { input: clean }),
      },
      opts(r.signal),
    );
    let p = jsonOf<Prediction>(a, V);
    const terminal = (x: Prediction) => ['succeeded', 'failed', 'canceled'].includes(x.status ?? '');
    if (!terminal(p)) {
      if (!p.id) throw new VendorBadResponseError(V, 'a prediction without id');
      const getUrl = p.urls?.get ?? `${base}/predictions/${encodeURIComponent(p.id)}`;
      if (new URL(getUrl).origin !== new URL(base).origin)
        throw new VendorBadResponseError(V, `prediction URL on a foreign host ${new URL(getUrl).host}`);
      p = await pollUntil(
        V,
        async () => {
          const x = jsonOf<Prediction>(await send(getUrl, { headers: auth }, opts(r.signal)), V);
          return terminal(x) ? x : undefined;
        },
        {
          intervalMs: s.pollIntervalMs ?? 1000,
          totalMs: s.taskTimeoutMs ?? 300_000,
          signal: r.signal,
          onWait: r.onWait,
        },
      );
    }
    if (p.status !== 'succeeded')
      throw new VendorRequestRejectedError(
        V,
        422,
        `the prediction ${p.status}: ${String(p.error ?? 'no reason given').slice(0, 200)}`,
      );
    const out = Array.isArray(p.output) ? p.output[0] : p.output;
    if (typeof out !== 'string') throw new VendorBadResponseError(V, 'a prediction without an output URL');
    const seed = typeof clean.seed === 'number' ? clean.seed : undefined;
    return { bytes: await download(out, opts(r.signal)), model, seed };
  }

  return {
    provider: V,
    generate(r: GenerateRequest) {
      return predict(
        r.model,
        {
          prompt: r.prompt,
          aspect_ratio: nearestRatio(r.width, r.height, FLUX_RATIOS),
          seed: r.seed,
          num_outputs: 1,
          output_format: 'png',
          num_inference_steps: r.steps,
          guidance: r.guidance_scale,
        },
        r,
      );
    },
    process(r: ProcessRequest) {
      const extra = r.options ?? {};
      if (r.kind === 'upscale') return predict(r.model, { image: dataUrl(r.image), ...extra }, r);
      if (r.kind === 'control')
        return predict(
          r.model,
          {
            prompt: r.prompt,
            control_image: dataUrl(r.image),
            seed: r.seed,
            steps: r.steps,
            guidance: r.guidance_scale,
            output_format: 'png',
            ...extra,
          },
          r,
        );
      return predict(
        r.model,
        { prompt: r.prompt, input_image: dataUrl(r.image), seed: r.seed, output_format: 'png', ...extra },
        r,
      );
    },
  };
}
