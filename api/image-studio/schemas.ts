/** JSON Schemas of the image studio's bodies (Document 2 "Image studio"), for ajv and the OpenAPI document. */
import type { JsonSchema } from '../kernel/envelopes/common';
import { arr, bool, int, num, obj, str } from '../kernel/schema';
import { PLATFORMS } from '../../domain/image/formats';

const s = { type: 'string' };
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

export const templateSchema = obj({
  id: s,
  name: s,
  category: s,
  platform: s,
  aspect_ratio: obj({ ratio: s, width: int, height: int, label: s }),
  description: s,
  recommended_provider: s,
  style_preset: s,
  quality: { enum: ['draft', 'standard', 'premium'] },
  use_cases: arr(s),
});
export const templatesSchema = obj({ templates: arr(templateSchema), total: int });

export const providerSchema = obj(
  {
    name: s,
    models: arr(s),
    capabilities: arr({ enum: ['generation', 'editing', 'upscaling'] }),
    max_resolution: { type: 'string', pattern: '^[0-9]+x[0-9]+$' },
    cost_range: s,
    available: bool,
    api: s,
    configure: arr(s),
  },
  ['name', 'models', 'capabilities', 'max_resolution', 'cost_range', 'available'],
);

const fieldsSchema = obj(
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
export const operationMetaSchema = obj(
  {
    label: s,
    description: s,
    provider: { type: 'string', description: 'the provider `auto` uses now (`none` when no configured provider can)' },
    fields: fieldsSchema,
    providers: arr(s),
    required: arr(s),
    available: bool,
  },
  ['label', 'description', 'provider', 'fields'],
);
export const operationsSchema = obj({ operations: { type: 'object', additionalProperties: operationMetaSchema } });

export const safeZoneSchema = obj({ top: unit, bottom: unit, left: unit, right: unit });
export const formatSchema = obj({
  name: s,
  width: int,
  height: int,
  ratio: s,
  safe_zone: safeZoneSchema,
  file_type: { enum: ['jpg', 'png'] },
  max_size_mb: num,
});
export const specsSchema = obj({
  name: s,
  formats: arr(obj({ name: s, ratio: s, size: s })),
  file_types: arr(s),
  max_file_size: s,
});

export const platformParam = obj({
  platform: { type: 'string', maxLength: 50, description: `one of ${PLATFORMS.join(', ')}; any other is 404` },
});

export const generatedSchema = obj(
  {
    image_base64: { type: 'string', description: 'PNG, base64' },
    image_url: s,
    content_type: s,
    width: int,
    height: int,
    provider: s,
    model: s,
    variation: int,
    seed: { type: ['integer', 'null'] },
  },
  ['image_base64', 'width', 'height', 'provider', 'model', 'variation'],
);

export const createResponseSchema = obj(
  {
    success: bool,
    request: obj(
      {
        prompt: s,
        enhanced_prompt: nullableStr,
        template_id: nullableStr,
        template_name: nullableStr,
        provider: s,
        model: s,
        dimensions: { type: 'string', pattern: '^[0-9]+x[0-9]+$' },
        quality: s,
        style_preset: nullableStr,
        persona: {
          type: ['object', 'null'],
          properties: { persona_id: s, name: s, audience: s },
          description: 'The persona the image was made for (use_persona), and what it added to the prompt',
        },
        prompt_enhancement: {
          type: ['object', 'null'],
          properties: { provider: s, model: s, offline: bool },
        },
      },
      ['prompt', 'enhanced_prompt', 'template_id', 'template_name', 'provider', 'model', 'dimensions', 'quality'],
    ),
    results: arr(generatedSchema),
    total_generated: int,
    total_failed: int,
    failures: arr(obj({ variation: int, code: s, message: s })),
  },
  ['success', 'request', 'results', 'total_generated', 'total_failed'],
);

export const processedSchema = (metadata: JsonSchema): JsonSchema =>
  obj(
    {
      success: bool,
      operation: s,
      provider: s,
      model: s,
      image_base64: s,
      image_url: s,
      width: int,
      height: int,
      metadata,
    },
    ['success', 'operation', 'provider', 'image_base64', 'width', 'height', 'metadata'],
  );

export { str };
