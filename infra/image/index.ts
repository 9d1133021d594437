/**
 * The image studio's adapters: input decoding, raster work, local edits,
 * storage and vendor clients. `ImageStudioSettings` is what the API gets
 * (built in workers/ from the configuration).
 */
import type { ImageVendor } from '../../domain/image/providers';
import type { InputLimits } from './decode';
import type { ImageStorage } from './storage';

export interface ImageStudioSettings {
  storage: ImageStorage;
  /** Which image vendors have keys (the API never holds the vendor clients: they run in activities). */
  configured: Record<ImageVendor, boolean>;
  /** Generation model of each vendor when the request names none (IMAGE_VENDOR_*_MODEL). */
  defaultModels: Partial<Record<ImageVendor, string>>;
  input: InputLimits;
  /** Largest width x height of an output (upscale, outpaint). */
  maxOutputPixels: number;
}

export { decodeImageInput, inspectImage, base64Bytes, DEFAULT_INPUT_LIMITS } from './decode';
export type { DecodedImage, InputLimits } from './decode';
