/**
 * vendor_d: Black Forest Labs FLUX API v1 (https://docs.bfl.ai).
 * `POST /v1/<model>` with JSON and header `x-key`; the answer is a task
 * `{id, polling_url}`, polled (with `x-key`) until `status: "Ready"`, whose
 * `result.sample` is a signed URL of the image, downloaded without the key.
 * Images go in as base64 (`input_image`, `image`, `mask`, `control_image`).
 */
import { nearestRatio } from '../../../domain/image/dimensions';
import { VendorBadResponseError, VendorRequestRejectedError } from '../../ai/errors';
import { download, jsonOf, pollUntil, send } from './http';
import type { GenerateRequest, ImageVendorClient, ProcessRequest, VendorHttpSettings, VendorImage } from './types';

const V = 'vendor_d';
const ULTRA_RATIOS = ['21:9', '16:9', '3:2', '4:3', '1:1', '3:4', '2:3', '9:16', '9:21'];

interface Task {
  id?: string;
  polling_url?: string;
}
interface TaskResult {
  status?: string;
  result?: { sample?: string; seed?: number };
}

const side32 = (v: number) => Math.min(1440, Math.max(256, Math.round(v / 32) * 32));

/** The parent domain of a host (`api.us1.bfl.ai` → `bfl.ai`): the key only goes to the vendor's own hosts. */
const parentOf = (host: string) => host.split('.').slice(-2).join('.');

export function createBflClient(s: VendorHttpSettings): ImageVendorClient {
  const base = s.baseUrl.replace(/\/+$/, '');
  const baseHost = new URL(base).hostname;
  const opts = (signal?: AbortSignal) => ({
    vendor: V,
    timeoutMs: s.timeoutMs,
    maxRetries: s.maxRetries,
    signal,
    fetch: s.fetch,
  });

  async function run(
    model: string,
    body: Record<string, unknown>,
    r: { signal?: AbortSignal; onWait?: () => void },
  ): Promise<VendorImage> {
    const a = await send(
      `${base}/v1/${model}`,
      {
        method: 'POST',
        headers: { 'x-key': s.apiKey, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined))),
      },
      opts(r.signal),
    );
    const task = jsonOf<Task>(a, V);
    if (!task.id) throw new VendorBadResponseError(V, 'no task id in the answer');
    const pollUrl = task.polling_url ?? `${base}/v1/get_result?id=${encodeURIComponent(task.id)}`;
    const host = new URL(pollUrl).hostname;
    if (host !== baseHost && parentOf(host) !== parentOf(baseHost))
      throw new VendorBadResponseError(V, `polling URL on a foreign host ${host}`);
    const done = await pollUntil(
      V,
      async () => {
        const p = jsonOf<TaskResult>(
          await send(pollUrl, { headers: { 'x-key': s.apiKey, accept: 'application/json' } }, opts(r.signal)),
          V,
        );
        const st = p.status ?? '';
        if (st === 'Ready') return p;
        if (/moderated/i.test(st)) throw new VendorRequestRejectedError(V, 422, `the task was refused: ${st}`);
        if (st === 'Error' || st === 'Failed' || st === 'Task not found')
          throw new VendorBadResponseError(V, `the task ended with status ${st}`);
        return undefined;
      },
      { intervalMs: s.pollIntervalMs ?? 1000, totalMs: s.taskTimeoutMs ?? 300_000, signal: r.signal, onWait: r.onWait },
    );
    if (!done.result?.sample) throw new VendorBadResponseError(V, 'a ready task without result.sample');
    return { bytes: await download(done.result.sample, opts(r.signal)), model, seed: done.result.seed };
  }

  return {
    provider: V,
    generate(r: GenerateRequest) {
      const ultra = r.model.endsWith('-ultra');
      return run(
        r.model,
        {
          prompt: r.prompt,
          // FLUX takes sides that are multiples of 32 (256-1440); the activity resizes the answer to the exact size.
          ...(ultra
            ? { aspect_ratio: nearestRatio(r.width, r.height, ULTRA_RATIOS) }
            : { width: side32(r.width), height: side32(r.height) }),
          seed: r.seed,
          steps: r.steps,
          guidance: r.guidance_scale,
          output_format: 'png',
          prompt_upsampling: false,
        },
        r,
      );
    },
    process(r: ProcessRequest) {
      const b64 = (x?: Buffer) => x?.toString('base64');
      const extra = r.options ?? {};
      switch (r.model) {
        case 'flux-kontext-pro':
          return run(
            r.model,
            { prompt: r.prompt, input_image: b64(r.image), seed: r.seed, output_format: 'png', ...extra },
            r,
          );
        case 'flux-pro-1.0-fill':
          return run(
            r.model,
            { prompt: r.prompt, image: b64(r.image), mask: b64(r.mask), seed: r.seed, output_format: 'png', ...extra },
            r,
          );
        case 'flux-pro-1.0-expand':
          return run(
            r.model,
            {
              prompt: r.prompt,
              image: b64(r.image),
              top: r.expand?.up,
              bottom: r.expand?.down,
              left: r.expand?.left,
              right: r.expand?.right,
              seed: r.seed,
              output_format: 'png',
              ...extra,
            },
            r,
          );
        case 'flux-pro-1.0-canny':
        case 'flux-pro-1.0-depth':
          return run(
            r.model,
            {
              prompt: r.prompt,
              control_image: b64(r.image),
              seed: r.seed,
              steps: r.steps,
              guidance: r.guidance_scale,
              output_format: 'png',
              ...extra,
            },
            r,
          );
        default:
          throw new Error(`vendor_d has no model ${r.model}`);
      }
    },
  };
}
