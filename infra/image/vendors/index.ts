/**
 * The image vendor adapters, built from their settings (workers/adapters.ts
 * builds them from the configuration: a vendor without a key is absent).
 */
import type { ImageVendor } from '../../../domain/image/providers';
import { createBflClient } from './bfl';
import { createOpenAiImagesClient } from './openai';
import { createReplicateClient } from './replicate';
import { createStabilityClient } from './stability';
import type { ImageVendorClient, VendorHttpSettings } from './types';

export * from './types';
export { createBflClient, createOpenAiImagesClient, createReplicateClient, createStabilityClient };

export const VENDOR_FACTORIES: Record<ImageVendor, (s: VendorHttpSettings) => ImageVendorClient> = {
  vendor_c: createStabilityClient,
  vendor_d: createBflClient,
  vendor_e: createReplicateClient,
  vendor_a: createOpenAiImagesClient,
};

/** Default base URLs of the public APIs. */
export const DEFAULT_BASE_URLS: Record<ImageVendor, string> = {
  vendor_c: 'https://api.stability.ai',
  vendor_d: 'https://api.bfl.ai',
  vendor_e: 'https://api.replicate.com/v1',
  vendor_a: 'https://api.openai.com/v1',
};

export type ImageVendors = Partial<Record<ImageVendor, ImageVendorClient>>;

/** Which vendors are configured, for routing and the provider listing. */
export const configuredOf = (v: ImageVendors): Record<ImageVendor, boolean> => ({
  vendor_c: !!v.vendor_c,
  vendor_d: !!v.vendor_d,
  vendor_e: !!v.vendor_e,
  vendor_a: !!v.vendor_a,
});
