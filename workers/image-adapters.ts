/**
 * The image studio's adapters, built once from the configuration: the image
 * storage (local directory or S3-compatible), the image vendor clients (only
 * those with a key), and what the API and the activities get of them.
 */
import path from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../infra/config';
import { projectRoot } from '../infra/paths';
import { createLocalImageStorage, createS3ImageStorage, ImageStorage } from '../infra/image/storage';
import { configuredOf, DEFAULT_BASE_URLS, ImageVendors, VENDOR_FACTORIES } from '../infra/image/vendors';
import type { ImageStudioSettings } from '../infra/image';
import { IMAGE_VENDORS, ImageVendor } from '../domain/image/providers';
import type { EventStore } from '../infra/eventstore';
import type { AiGateway } from '../infra/ai/completion';
import type { ImageActivityDeps, ImageMeter } from '../activities/image';

const LETTER: Record<ImageVendor, 'A' | 'C' | 'D' | 'E'> = {
  vendor_a: 'A',
  vendor_c: 'C',
  vendor_d: 'D',
  vendor_e: 'E',
};
const vendorVar = (v: ImageVendor, k: 'API_KEY' | 'BASE_URL' | 'MODEL') =>
  `IMAGE_VENDOR_${LETTER[v]}_${k}` as keyof Config;

export function imageStorageFromConfig(c: Config): ImageStorage {
  if (c.IMAGE_STORAGE === 's3') {
    if (!c.IMAGE_S3_ENDPOINT || !c.IMAGE_S3_BUCKET)
      throw new Error('IMAGE_STORAGE=s3 needs IMAGE_S3_ENDPOINT and IMAGE_S3_BUCKET (and the access keys)');
    return createS3ImageStorage({
      endpoint: c.IMAGE_S3_ENDPOINT,
      bucket: c.IMAGE_S3_BUCKET,
      region: c.IMAGE_S3_REGION,
      accessKeyId: c.IMAGE_S3_ACCESS_KEY_ID,
      secretAccessKey: c.IMAGE_S3_SECRET_ACCESS_KEY,
      prefix: c.IMAGE_S3_PREFIX,
    });
  }
  return createLocalImageStorage(c.IMAGE_STORAGE_DIR || path.join(projectRoot(), '.run', 'images'));
}

export function imageVendorsFromConfig(c: Config): ImageVendors {
  const out: ImageVendors = {};
  for (const v of IMAGE_VENDORS) {
    const key = c[vendorVar(v, 'API_KEY')] as string;
    if (!key) continue;
    out[v] = VENDOR_FACTORIES[v]({
      baseUrl: (c[vendorVar(v, 'BASE_URL')] as string) || DEFAULT_BASE_URLS[v],
      apiKey: key,
      model: c[vendorVar(v, 'MODEL')] as string,
      timeoutMs: c.IMAGE_VENDOR_TIMEOUT_MS,
      maxRetries: c.IMAGE_VENDOR_MAX_RETRIES,
      taskTimeoutMs: c.IMAGE_VENDOR_TASK_TIMEOUT_MS,
      limitInputPixels: c.IMAGE_MAX_INPUT_PIXELS,
    });
  }
  return out;
}

/** What the API's image routes get. */
export function imageStudioSettings(c: Config, storage = imageStorageFromConfig(c)): ImageStudioSettings {
  const configured = Object.fromEntries(IMAGE_VENDORS.map((v) => [v, !!c[vendorVar(v, 'API_KEY')]])) as Record<
    ImageVendor,
    boolean
  >;
  return {
    storage,
    configured,
    defaultModels: Object.fromEntries(IMAGE_VENDORS.map((v) => [v, c[vendorVar(v, 'MODEL')] as string])),
    input: { maxBytes: c.IMAGE_MAX_INPUT_BYTES, maxPixels: c.IMAGE_MAX_INPUT_PIXELS },
    maxOutputPixels: c.IMAGE_MAX_OUTPUT_PIXELS,
  };
}

/** What the worker's image activities get. */
export function imageActivityDeps(
  c: Config,
  store: EventStore,
  gateway: AiGateway,
  meter: ImageMeter,
  logger?: Logger,
): ImageActivityDeps {
  const vendors = imageVendorsFromConfig(c);
  logger?.info({ image_vendors: configuredOf(vendors), storage: c.IMAGE_STORAGE }, 'image studio adapters');
  return {
    storage: imageStorageFromConfig(c),
    vendors,
    gateway,
    meter,
    store,
    limitInputPixels: c.IMAGE_MAX_INPUT_PIXELS,
  };
}
