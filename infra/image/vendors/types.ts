/**
 * What the image activities ask of a vendor adapter. Each adapter speaks one
 * public HTTP API (domain/image/providers.ts lists which) and answers with
 * image bytes; resizing to the requested size, storage and metering are the
 * activity's job.
 */
import type { ImageVendor } from '../../../domain/image/providers';
import type { Quality } from '../../../domain/image/dimensions';
import type { ImageOperationParams } from '../../../domain/image/jobs';

export interface VendorCall {
  signal?: AbortSignal;
  /** Called while the adapter waits on an asynchronous vendor task (the activity heartbeats). */
  onWait?: () => void;
}

export interface GenerateRequest extends VendorCall {
  prompt: string;
  negative_prompt?: string;
  width: number;
  height: number;
  seed: number;
  model: string;
  quality: Quality;
  style_preset?: string;
  guidance_scale?: number;
  steps?: number;
}

export interface ProcessRequest extends VendorCall, Omit<ImageOperationParams, 'options'> {
  kind: 'edit' | 'control' | 'upscale';
  /** The operation or upscale mode (`inpaint`, `sketch`, `creative`, ...). */
  operation: string;
  /** The endpoint or model the operation table names for this vendor. */
  model: string;
  image: Buffer;
  mask?: Buffer;
  background?: Buffer;
  lighting?: Buffer;
  style_image?: Buffer;
  /** Provider-specific fields passed through as given (Document 2 `options`). */
  options?: Record<string, unknown>;
}

export interface VendorImage {
  bytes: Buffer;
  model: string;
  /** The seed the vendor used, when it reports or accepts one. */
  seed?: number;
}

export interface ImageVendorClient {
  readonly provider: ImageVendor;
  generate(r: GenerateRequest): Promise<VendorImage>;
  process(r: ProcessRequest): Promise<VendorImage>;
}

export interface VendorHttpSettings {
  baseUrl: string;
  apiKey: string;
  /** Default generation model. */
  model?: string;
  /** Time-out of one HTTP attempt. */
  timeoutMs: number;
  /** Retries of 429/5xx/network errors inside one call. */
  maxRetries: number;
  /** How long an asynchronous vendor task may take in total. */
  taskTimeoutMs?: number;
  /** Interval between polls of an asynchronous task. */
  pollIntervalMs?: number;
  /** sharp's limitInputPixels for images an adapter decodes (default DEFAULT_INPUT_LIMITS.maxPixels, 40 MP). */
  limitInputPixels?: number;
  fetch?: typeof fetch;
}
