/**
 * What the image studio routes share: the studio's adapters, decoding of
 * request images (400 `{detail}` on anything wrong), domain errors as
 * validation errors, storing a result and recording it (ImageStored through
 * the decider, then read-your-writes on the image-assets projection), and the
 * URL and base64 of a stored image.
 */
import { randomUUID } from 'node:crypto';
import { ServiceUnavailableError, ValidationError } from '../../domain/errors';
import { DimensionError } from '../../domain/image/dimensions';
import { ProviderChoiceError } from '../../domain/image/providers';
import { imageAssetDecider, StoredImageFacts } from '../../domain/image/assets';
import { imageAssetStream } from '../../domain/events/image';
import { handleCommand } from '../../infra/eventstore/command';
import { decodeImageInput, DecodedImage, ImageStudioSettings } from '../../infra/image';
import type { ImageExt } from '../../infra/image/storage';
import type { RouteCtx } from '../kernel/registry';
import { requestMeta, settle, userIdOf } from '../kernel/handler';

type Ctx = RouteCtx;

export const tags = ['image studio'];
export const PREFIX = '/api/image-studio';
/** The errors of a route that runs a vendor's or the worker's image work (domainErrors maps the 503's first case). */
export const VENDOR_WORK_ERRORS = {
  502: 'an image vendor failed',
  503: 'no configured vendor can serve the request (names what to set), or background work (Temporal) or image storage unavailable',
};
/** Workflow id of one image job: `image-<kind>-<uuid>`. */
export const jobId = (kind: string) => `image-${kind}-${randomUUID()}`;

export function studioOf(ctx: Ctx): ImageStudioSettings {
  const s = ctx.deps.imageStudio;
  if (!s) throw new ServiceUnavailableError('The image studio has no image storage configured on this API');
  return s;
}

export const invalid = (path: string, message: string) =>
  new ValidationError([{ location: 'body', path, kind: 'constraint', message }]);

/**
 * Domain refusals: sizes and provider choices as 400s naming their field — but a valid request that only a vendor
 * this deployment has not configured could serve is 503 naming what to set (docs/image-studio.md).
 */
export async function domainErrors<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof ProviderChoiceError && e.notConfigured) throw new ServiceUnavailableError(e.message);
    if (e instanceof DimensionError || e instanceof ProviderChoiceError) throw invalid(e.field, e.message);
    throw e;
  }
}

export const decode = (ctx: Ctx, value: string, field: string): Promise<DecodedImage> =>
  decodeImageInput(value, field, studioOf(ctx).input);

/** Decodes the optional image fields that are present. */
export async function decodeAll(ctx: Ctx, fields: Record<string, string | undefined>) {
  const out: Record<string, DecodedImage> = {};
  await Promise.all(
    Object.entries(fields).map(async ([name, v]) => {
      if (v !== undefined) out[name] = await decode(ctx, v, name);
    }),
  );
  return out;
}

export const extOf = (d: DecodedImage): ImageExt => (d.format === 'jpeg' ? 'jpg' : d.format);

/** The public URL of a stored image (the caller's own: GET /api/image-studio/images/{key} checks ownership). */
export function imageUrl(ctx: Ctx, key: string): string {
  const base = ctx.deps.publicBaseUrl ?? `${ctx.req.protocol}://${ctx.req.get('host')}`;
  return `${base}${PREFIX}/images/${key}`;
}

/** The stored bytes of a result (as base64), or a 500 when the storage lost them. */
export async function base64Of(ctx: Ctx, key: string): Promise<string> {
  const b = await studioOf(ctx).storage.read(key);
  if (!b) throw new Error(`stored image ${key} is missing`);
  return b.toString('base64');
}

/** Stores a result made in the API and records it for the caller (read-your-writes included). */
export async function storeAndRecord(
  ctx: Ctx,
  bytes: Buffer,
  ext: ImageExt,
  facts: Omit<StoredImageFacts, 'user_id' | 'key' | 'content_type' | 'bytes'>,
): Promise<{ key: string; contentType: string; bytes: number }> {
  const s = await studioOf(ctx).storage.put(bytes, ext);
  const userId = userIdOf(ctx);
  const r = await handleCommand(
    ctx.deps.store,
    imageAssetStream(userId, s.key),
    imageAssetDecider,
    { kind: 'record', image: { ...facts, user_id: userId, key: s.key, content_type: s.contentType, bytes: s.bytes } },
    { metadata: requestMeta(ctx) },
  );
  await settle(ctx, 'image-assets', r.events);
  return { key: s.key, contentType: s.contentType, bytes: s.bytes };
}

/** Seconds since `t0` (process.hrtime), 3 decimals: `metadata.processing_time`. */
export const secondsSince = (t0: bigint) => Math.round(Number(process.hrtime.bigint() - t0) / 1e6) / 1000;
