/**
 * Configuration variables of the image studio (api/image-studio/,
 * activities/image.ts; docs/image-studio.md): storage, vendors and input
 * limits. A vendor without a key is not configured.
 * Part of CONFIG_VARS (infra/config/index.ts).
 */
import type { VarSpec } from './spec';

export const IMAGE_VARS = {
  IMAGE_STORAGE: {
    type: 'string',
    default: 'local',
    description: 'Where image files are stored: local (IMAGE_STORAGE_DIR, shared by API and worker) or s3 (IMAGE_S3_*)',
    schema: { enum: ['local', 's3'] },
  },
  IMAGE_STORAGE_DIR: {
    type: 'string',
    default: '',
    description: 'Folder of the local image storage (content-addressed files); empty = .run/images of the project',
  },
  IMAGE_S3_ENDPOINT: {
    type: 'string',
    default: '',
    description: 'S3-compatible endpoint (path-style requests, SigV4), e.g. https://s3.eu-west-1.amazonaws.com',
    schema: { pattern: '^(|https?://.+)$' },
  },
  IMAGE_S3_BUCKET: { type: 'string', default: '', description: 'Bucket of the S3 image storage' },
  IMAGE_S3_REGION: { type: 'string', default: 'us-east-1', description: 'Region the S3 requests are signed for' },
  IMAGE_S3_ACCESS_KEY_ID: { type: 'string', default: '', description: 'Access key id of the S3 image storage' },
  IMAGE_S3_SECRET_ACCESS_KEY: { type: 'string', default: '', description: 'Secret access key of the S3 image storage' },
  IMAGE_S3_PREFIX: { type: 'string', default: '', description: 'Prefix of every object key, e.g. images/' },
  IMAGE_VENDOR_C_API_KEY: {
    type: 'string',
    default: '',
    description: 'Key of image vendor vendor_c (Stability AI REST API v2beta); empty = not configured',
  },
  IMAGE_VENDOR_C_BASE_URL: {
    type: 'string',
    default: '',
    description: 'Base URL of vendor_c; empty = https://api.stability.ai',
    schema: { pattern: '^(|https?://.+)$' },
  },
  IMAGE_VENDOR_C_MODEL: {
    type: 'string',
    default: 'stable-image-core',
    description:
      'Generation model of vendor_c when a request names none (stable-image-core, stable-image-ultra, sd3.5-large, sd3.5-large-turbo, sd3.5-medium); priced by domain/pricing.ts',
  },
  IMAGE_VENDOR_D_API_KEY: {
    type: 'string',
    default: '',
    description: 'Key of image vendor vendor_d (Black Forest Labs FLUX API); empty = not configured',
  },
  IMAGE_VENDOR_D_BASE_URL: {
    type: 'string',
    default: '',
    description: 'Base URL of vendor_d; empty = https://api.bfl.ai',
    schema: { pattern: '^(|https?://.+)$' },
  },
  IMAGE_VENDOR_D_MODEL: {
    type: 'string',
    default: 'flux-pro-1.1',
    description:
      'Generation model of vendor_d when a request names none (flux-pro-1.1, flux-pro-1.1-ultra, flux-dev); priced by domain/pricing.ts',
  },
  IMAGE_VENDOR_E_API_KEY: {
    type: 'string',
    default: '',
    description: 'Key of image vendor vendor_e (Replicate predictions API); empty = not configured',
  },
  IMAGE_VENDOR_E_BASE_URL: {
    type: 'string',
    default: '',
    description: 'Base URL of vendor_e; empty = https://api.replicate.com/v1',
    schema: { pattern: '^(|https?://.+)$' },
  },
  IMAGE_VENDOR_E_MODEL: {
    type: 'string',
    default: 'black-forest-labs/flux-schnell',
    description:
      'Generation model of vendor_e when a request names none (an official model owner/name, or owner/name:version); priced by domain/pricing.ts',
  },
  IMAGE_VENDOR_A_API_KEY: {
    type: 'string',
    default: '',
    description: 'Key of image vendor vendor_a (OpenAI Images API); empty = not configured',
  },
  IMAGE_VENDOR_A_BASE_URL: {
    type: 'string',
    default: '',
    description: 'Base URL of vendor_a; empty = https://api.openai.com/v1',
    schema: { pattern: '^(|https?://.+)$' },
  },
  IMAGE_VENDOR_A_MODEL: {
    type: 'string',
    default: 'gpt-image-1',
    description:
      'Generation model of vendor_a when a request names none (gpt-image-1, dall-e-3, dall-e-2); priced by domain/pricing.ts',
  },
  IMAGE_VENDOR_TIMEOUT_MS: {
    type: 'integer',
    default: 120000,
    description: 'Time-out of one HTTP attempt to an image vendor',
    schema: { minimum: 100, maximum: 600000 },
  },
  IMAGE_VENDOR_MAX_RETRIES: {
    type: 'integer',
    default: 2,
    description: 'Retries of 429/5xx/network errors within one image vendor call (the activity retry policy adds more)',
    schema: { minimum: 0, maximum: 10 },
  },
  IMAGE_VENDOR_TASK_TIMEOUT_MS: {
    type: 'integer',
    default: 300000,
    description: 'How long an asynchronous vendor task (polled by id) may take',
    schema: { minimum: 1000, maximum: 340000 },
  },
  IMAGE_MAX_INPUT_BYTES: {
    type: 'integer',
    default: 10485760,
    description: 'Largest decoded input image (bytes); larger is 400',
    schema: { minimum: 1024 },
  },
  IMAGE_MAX_INPUT_PIXELS: {
    type: 'integer',
    default: 40000000,
    description: "Largest input width x height (sharp's limitInputPixels): decompression bombs are 400",
    schema: { minimum: 1024, maximum: 268402689 },
  },
  IMAGE_MAX_OUTPUT_PIXELS: {
    type: 'integer',
    default: 33554432,
    description: 'Largest output width x height of upscale and outpaint (400 above)',
    schema: { minimum: 1024, maximum: 268402689 },
  },
} as const satisfies Record<string, VarSpec>;
