/**
 * What the image studio's workflows take and return (workflows/image.ts):
 * plain data, with images as storage keys — never pixels, which would not fit
 * Temporal's payload limits. The API builds the plans and shapes the bodies.
 */
import type { Quality } from './dimensions';
import type { EnrichInput } from './enrich';
import type { ImageProvider } from './providers';

export interface GenerationPlan {
  prompt: string;
  enhance: boolean;
  enrich: EnrichInput;
  provider: ImageProvider;
  model: string;
  width: number;
  height: number;
  quality: Quality;
  style_preset?: string;
  negative_prompt?: string;
  guidance_scale?: number;
  steps?: number;
  /** One seed per variation (its index is the variation number - 1). */
  seeds: number[];
  /** Text the offline renderer writes on the image (quote and title templates). */
  overlay?: { kind: 'quote' | 'title'; text: string };
}

export interface GenerateImageInput extends Omit<GenerationPlan, 'seeds' | 'enhance' | 'enrich'> {
  userId: string;
  seed: number;
  variation: number;
}

/** A stored image (key = content address in the image storage). */
export interface ImageRef {
  key: string;
  width: number;
  height: number;
  bytes: number;
  content_type: string;
}

export interface GeneratedImage extends ImageRef {
  provider: ImageProvider;
  model: string;
  variation: number;
  seed?: number;
  /** What the offline renderer drew (local provider only). */
  motifs?: string[];
}

export interface PromptEnhancement {
  prompt: string;
  provider: string;
  model: string;
  /** True when the offline enrichment wrote it (no text vendor configured). */
  offline: boolean;
}

export interface VariationFailure {
  variation: number;
  code: string;
  message: string;
}

export interface RecordedAt {
  streamId: string;
  streamPosition: number;
}

export interface GenerationOutcome {
  enhancement?: PromptEnhancement;
  results: GeneratedImage[];
  failures: VariationFailure[];
  /** Where the ImageStored events are (the API waits for the image-assets projection). */
  recorded: RecordedAt[];
}

/** Named input images of a processing job (storage keys). */
export interface JobInputs {
  image: string;
  mask?: string;
  background?: string;
  lighting?: string;
  style_image?: string;
}

/** What an edit, control or upscale operation is asked (the request's fields; a vendor request carries them too). */
export interface ImageOperationParams {
  prompt?: string;
  negative_prompt?: string;
  search_prompt?: string;
  select_prompt?: string;
  expand?: { left: number; right: number; up: number; down: number };
  seed?: number;
  style_preset?: string;
  guidance_scale?: number;
  steps?: number;
  control_strength?: number;
  fidelity?: number;
  style_strength?: number;
  composition_fidelity?: number;
  change_strength?: number;
  aspect_ratio?: string;
  options?: Record<string, string | number | boolean>;
}

export interface ProcessJob {
  kind: 'edit' | 'control' | 'upscale';
  operation: string;
  provider: ImageProvider;
  model: string;
  inputs: JobInputs;
  output_format: 'png' | 'jpg';
  /** Size the result is resized to (upscale targets), when the vendor's own size differs. */
  resize_to?: { width: number; height: number };
  params: ImageOperationParams;
}

export interface ProcessedImage extends ImageRef {
  provider: ImageProvider;
  model: string;
  seed?: number;
  /** Facts of a local operation (background colour found, ...). */
  details?: Record<string, unknown>;
}

export interface ProcessOutcome {
  image: ProcessedImage;
  recorded: RecordedAt[];
}
