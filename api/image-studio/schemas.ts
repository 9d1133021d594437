/** JSON Schemas of the image studio's bodies (Document 2 "Image studio"), for ajv and the OpenAPI document. */
import type { JsonSchema } from '../kernel/envelopes/common';
import { allRequired, anyString, arr, bool, int, num, withRequired } from '../kernel/schema';
import { PLATFORMS } from '../../domain/image/formats';

const nullableStr = { type: ['string', 'null'] };

/** An image field: raw base64 or a data URL (decoded and checked by the route: 400 when it is not an image). */
export const imageField = (description: string): JsonSchema => ({
  type: 'string',
  minLength: 1,
  // The body limit bounds it; 10 MB of image is ~14 M characters of base64.
  maxLength: 15_000_000,
  description,
});
export const unit: JsonSchema = { type: 'number', minimum: 0, maximum: 1 };
export const outputFormat: JsonSchema = { enum: ['png', 'jpg'], default: 'png' };

export const templateSchema = allRequired({
  id: anyString,
  name: anyString,
  category: anyString,
  platform: anyString,
  aspect_ratio: allRequired({ ratio: anyString, width: int, height: int, label: anyString }),
  description: anyString,
  recommended_provider: anyString,
  style_preset: anyString,
  quality: { enum: ['draft', 'standard', 'premium'] },
  use_cases: arr(anyString),
});
export const templatesSchema = allRequired({ templates: arr(templateSchema), total: int });

export const providerSchema = withRequired(
  {
    name: anyString,
    models: arr(anyString),
    capabilities: arr({ enum: ['generation', 'editing', 'upscaling'] }),
    max_resolution: { type: 'string', pattern: '^[0-9]+x[0-9]+$' },
    cost_range: anyString,
    available: bool,
    api: anyString,
    configure: arr(anyString),
  },
  ['name', 'models', 'capabilities', 'max_resolution', 'cost_range', 'available'],
);

const fieldsSchema = withRequired(
  Object.fromEntries(
    [
      'prompt',
      'mask',
      'negative_prompt',
      'search_prompt',
      'select_prompt',
      'background',
      'lighting',
      'expansion',
      'style_image',
      'control_strength',
      'fidelity',
    ].map((k) => [k, bool]),
  ),
  ['prompt', 'mask', 'negative_prompt', 'search_prompt', 'select_prompt', 'background', 'lighting', 'expansion'],
);
export const operationMetaSchema = withRequired(
  {
    label: anyString,
    description: anyString,
    provider: { type: 'string', description: 'the provider `auto` uses now (`none` when no configured provider can)' },
    fields: fieldsSchema,
    providers: arr(anyString),
    required: arr(anyString),
    available: bool,
  },
  ['label', 'description', 'provider', 'fields'],
);
export const operationsSchema = allRequired({
  operations: { type: 'object', additionalProperties: operationMetaSchema },
});

export const safeZoneSchema = allRequired({ top: unit, bottom: unit, left: unit, right: unit });
export const formatSchema = allRequired({
  name: anyString,
  width: int,
  height: int,
  ratio: anyString,
  safe_zone: safeZoneSchema,
  file_type: { enum: ['jpg', 'png'] },
  max_size_mb: num,
});
export const specsSchema = allRequired({
  name: anyString,
  formats: arr(allRequired({ name: anyString, ratio: anyString, size: anyString })),
  file_types: arr(anyString),
  max_file_size: anyString,
});

export const platformParam = allRequired({
  platform: { type: 'string', maxLength: 50, description: `one of ${PLATFORMS.join(', ')}; any other is 404` },
});

export const generatedSchema = withRequired(
  {
    image_base64: { type: 'string', description: 'PNG, base64' },
    image_url: anyString,
    content_type: anyString,
    width: int,
    height: int,
    provider: anyString,
    model: anyString,
    variation: int,
    seed: { type: ['integer', 'null'] },
  },
  ['image_base64', 'width', 'height', 'provider', 'model', 'variation'],
);

export const createResponseSchema = withRequired(
  {
    success: bool,
    request: withRequired(
      {
        prompt: anyString,
        enhanced_prompt: nullableStr,
        template_id: nullableStr,
        template_name: nullableStr,
        provider: anyString,
        model: anyString,
        dimensions: { type: 'string', pattern: '^[0-9]+x[0-9]+$' },
        quality: anyString,
        style_preset: nullableStr,
        persona: {
          type: ['object', 'null'],
          properties: { persona_id: anyString, name: anyString, audience: anyString },
          description: 'The persona the image was made for (use_persona), and what it added to the prompt',
        },
        prompt_enhancement: {
          type: ['object', 'null'],
          properties: { provider: anyString, model: anyString, offline: bool },
        },
      },
      ['prompt', 'enhanced_prompt', 'template_id', 'template_name', 'provider', 'model', 'dimensions', 'quality'],
    ),
    results: arr(generatedSchema),
    total_generated: int,
    total_failed: int,
    failures: arr(allRequired({ variation: int, code: anyString, message: anyString })),
  },
  ['success', 'request', 'results', 'total_generated', 'total_failed'],
);

export const processedSchema = (metadata: JsonSchema): JsonSchema =>
  withRequired(
    {
      success: bool,
      operation: anyString,
      provider: anyString,
      model: anyString,
      image_base64: anyString,
      image_url: anyString,
      width: int,
      height: int,
      metadata,
    },
    ['success', 'operation', 'provider', 'image_base64', 'width', 'height', 'metadata'],
  );
