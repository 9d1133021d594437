/**
 * POST /edit/process and /control/process. The operation table
 * (domain/image/operations.ts) says which inputs are required and which
 * providers can do the operation; the route checks the inputs, picks the
 * provider (a configured vendor first, else the platform itself when it can,
 * else 400 naming the providers that would), stores the input images and
 * executes imageProcessWorkflow — local edits run in the worker too, so the
 * API never runs a pixel loop. The result comes back as a data URL and a URL.
 */
import {
  CONTROL_OPERATIONS,
  CONTROL_SPECS,
  ControlOperation,
  EDIT_OPERATIONS,
  EDIT_SPECS,
  EditOperation,
  missingInputs,
} from '../../domain/image/operations';
import { chooseOperationProvider, PROVIDER_CHOICES, ProviderChoice } from '../../domain/image/providers';
import type { ImageOperationParams, JobInputs, ProcessJob } from '../../domain/image/jobs';
import { ValidationError } from '../../domain/errors';
import { imageProcessWorkflow } from '../../workflows';
import { defineRoute, RouteCtx, RouteDef } from '../kernel/registry';
import { settle, userIdOf } from '../kernel/handler';
import { num, str, withRequired } from '../kernel/schema';
import { executeWorkflow } from '../kernel/workflows';
import {
  base64Of,
  decodeAll,
  domainErrors,
  extOf,
  imageUrl,
  invalid,
  jobId,
  PREFIX,
  secondsSince,
  studioOf,
  tags,
  VENDOR_WORK_ERRORS,
} from './common';
import { imageField, outputFormat, processedSchema, unit } from './schemas';
import type { DecodedImage } from '../../infra/image';

const expand = { type: 'integer', minimum: 0, maximum: 4096, default: 0 };
const common = {
  provider: { enum: [...PROVIDER_CHOICES] },
  model: str(200),
  negative_prompt: str(2000),
  style_preset: str(50, { pattern: '^[A-Za-z0-9_-]*$' }),
  seed: { type: 'integer', minimum: 0, maximum: 4294967294 },
  output_format: outputFormat,
};

interface EditBody {
  image_base64: string;
  operation: EditOperation;
  prompt?: string;
  negative_prompt?: string;
  mask_base64?: string;
  search_prompt?: string;
  select_prompt?: string;
  background_image_base64?: string;
  lighting_image_base64?: string;
  expand_left: number;
  expand_right: number;
  expand_up: number;
  expand_down: number;
  provider?: ProviderChoice;
  model?: string;
  style_preset?: string;
  guidance_scale?: number;
  steps?: number;
  seed?: number;
  output_format: 'png' | 'jpg';
  options?: Record<string, unknown>;
}

/** The control operation's body: its own fields plus the shared operation parameters it accepts. */
interface ControlBody extends Pick<
  ImageOperationParams,
  | 'control_strength'
  | 'fidelity'
  | 'style_strength'
  | 'composition_fidelity'
  | 'change_strength'
  | 'aspect_ratio'
  | 'style_preset'
  | 'seed'
> {
  control_image_base64: string;
  operation: ControlOperation;
  prompt: string;
  style_image_base64?: string;
  negative_prompt?: string;
  provider?: ProviderChoice;
  model?: string;
  output_format: 'png' | 'jpg';
}

type Ctx = RouteCtx;

/** Provider-specific options: flat strings, numbers and booleans only (they become form fields or JSON). */
function primitiveOptions(
  o: Record<string, unknown> | undefined,
): Record<string, string | number | boolean> | undefined {
  if (!o) return undefined;
  const out: Record<string, string | number | boolean> = {};
  for (const [k, v] of Object.entries(o)) {
    if (!['string', 'number', 'boolean'].includes(typeof v))
      throw invalid(`options.${k}`, 'must be a string, number or boolean');
    out[k] = v as string | number | boolean;
  }
  return out;
}

/** Inputs of a job besides its source image, in the order they are stored. */
const OTHER_INPUTS: readonly Exclude<keyof JobInputs, 'image'>[] = ['mask', 'background', 'lighting', 'style_image'];

/** Stores the decoded inputs (the source image, and the others given); keys by job input name. */
async function storeInputs(
  ctx: Ctx,
  images: { image: DecodedImage } & Partial<Record<(typeof OTHER_INPUTS)[number], DecodedImage>>,
): Promise<JobInputs> {
  const storage = studioOf(ctx).storage;
  const put = async (d: DecodedImage) => (await storage.put(d.bytes, extOf(d))).key;
  const [image, others] = await Promise.all([
    put(images.image),
    Promise.all(
      OTHER_INPUTS.map(async (name) => {
        const d = images[name];
        return d && { name, key: await put(d) };
      }),
    ),
  ]);
  const inputs: JobInputs = { image };
  for (const o of others) if (o) inputs[o.name] = o.key;
  return inputs;
}

/**
 * The model of an edit or control job: vendor_a and vendor_e take a model name from the request (the vendor checks
 * it); vendor_c and vendor_d choose their endpoint by operation, and the local provider has one implementation each.
 */
function jobModel(choice: { provider: string; model: string }, requested?: string): string {
  if (!requested || requested === choice.model) return choice.model;
  if (choice.provider === 'vendor_a' || choice.provider === 'vendor_e') return requested;
  throw invalid('model', `${choice.provider} does this operation with ${choice.model}; model cannot choose another`);
}

async function runJob(ctx: Ctx, job: ProcessJob) {
  const out = await executeWorkflow(ctx.deps, imageProcessWorkflow, {
    workflowId: jobId(job.kind),
    userId: userIdOf(ctx),
    args: [{ userId: userIdOf(ctx), job }],
  });
  await settle(ctx, 'image-assets', out.recorded);
  return out.image;
}

function refuseMissing(op: string, missing: [string, string][]) {
  if (missing.length)
    throw new ValidationError(missing.map(([path, message]) => ({ location: 'body', path, kind: 'missing', message })));
  return op;
}

export const imageProcessRoutes: RouteDef[] = [
  defineRoute<EditBody>({
    method: 'post',
    path: `${PREFIX}/edit/process`,
    auth: 'user',
    tags,
    summary:
      'Edit an image: remove_background, inpaint, outpaint, search_replace, search_recolor, general_edit, replace_background_and_relight',
    description:
      'Required inputs per operation: GET /edit/operations (`required`). A mask is white where the image changes. Local operations (no vendor configured): remove_background (flat backgrounds; options.tolerance 1-200, default 48) and outpaint (edge extension). Output larger than the output pixel limit: 400.',
    request: {
      body: withRequired(
        {
          image_base64: imageField('the image: base64 or data URL (PNG, JPEG, WebP; at most 10 MB)'),
          operation: { enum: [...EDIT_OPERATIONS] },
          prompt: str(4000),
          mask_base64: imageField('mask: white = change'),
          search_prompt: str(500),
          select_prompt: str(500),
          background_image_base64: imageField('background reference image'),
          lighting_image_base64: imageField('lighting reference image'),
          expand_left: expand,
          expand_right: expand,
          expand_up: expand,
          expand_down: expand,
          guidance_scale: { type: 'number', minimum: 0, maximum: 50 },
          steps: { type: 'integer', minimum: 1, maximum: 150 },
          options: {
            type: 'object',
            maxProperties: 20,
            description: 'provider-specific fields (strings, numbers, booleans)',
          },
          ...common,
        },
        ['image_base64', 'operation'],
      ),
    },
    responses: {
      200: {
        description: 'The edited image (image_base64 is a data URL)',
        data: processedSchema(
          withRequired({ operation: str(), processing_time: num }, ['operation', 'processing_time']),
        ),
      },
    },
    errors: VENDOR_WORK_ERRORS,
    handler: async (ctx) => {
      const t0 = process.hrtime.bigint();
      const b = ctx.body;
      const studio = studioOf(ctx);
      const ex = { left: b.expand_left, right: b.expand_right, up: b.expand_up, down: b.expand_down };
      refuseMissing(
        b.operation,
        missingInputs(b.operation, EDIT_SPECS[b.operation], {
          prompt: b.prompt,
          mask: !!b.mask_base64,
          search_prompt: b.search_prompt,
          select_prompt: b.select_prompt,
          expansion: ex.left + ex.right + ex.up + ex.down,
          background_image: !!b.background_image_base64,
        }),
      );
      const options = primitiveOptions(b.options);
      const choice = await domainErrors(() =>
        chooseOperationProvider('edit', b.operation, b.provider, studio.configured),
      );
      const img = await decodeAll(ctx, {
        image_base64: b.image_base64,
        mask_base64: b.mask_base64,
        background_image_base64: b.background_image_base64,
        lighting_image_base64: b.lighting_image_base64,
      });
      const src = img.image_base64;
      if (b.operation === 'outpaint') {
        const px = (src.width + ex.left + ex.right) * (src.height + ex.up + ex.down);
        if (px > studio.maxOutputPixels)
          throw invalid(
            'expand_left',
            `the outpainted image would have ${px} pixels; at most ${studio.maxOutputPixels}`,
          );
      }
      const model = jobModel(choice, b.model);
      const inputs = await storeInputs(ctx, {
        image: src,
        mask: img.mask_base64,
        background: img.background_image_base64,
        lighting: img.lighting_image_base64,
      });
      const r = await runJob(ctx, {
        kind: 'edit',
        operation: b.operation,
        provider: choice.provider,
        model,
        inputs,
        output_format: b.output_format,
        params: {
          prompt: b.prompt,
          negative_prompt: b.negative_prompt,
          search_prompt: b.search_prompt,
          select_prompt: b.select_prompt,
          expand: ex,
          seed: b.seed,
          style_preset: b.style_preset,
          guidance_scale: b.guidance_scale,
          steps: b.steps,
          options,
        },
      });
      return {
        data: {
          success: true,
          operation: b.operation,
          provider: r.provider,
          model: r.model,
          image_base64: `data:${r.content_type};base64,${await base64Of(ctx, r.key)}`,
          image_url: imageUrl(ctx, r.key),
          width: r.width,
          height: r.height,
          metadata: {
            operation: b.operation,
            processing_time: secondsSince(t0),
            original_width: src.width,
            original_height: src.height,
            ...(r.seed !== undefined ? { seed: r.seed } : {}),
            ...(r.details ?? {}),
          },
        },
      };
    },
  }),
  defineRoute<ControlBody>({
    method: 'post',
    path: `${PREFIX}/control/process`,
    auth: 'user',
    tags,
    summary: 'Generate from a control image: sketch, structure, style, style_transfer (vendors only)',
    description:
      'control_strength applies to sketch and structure, fidelity to style, style_strength/composition_fidelity/change_strength to style_transfer (all 0-1). No configured vendor for the operation: 400 naming the providers that can.',
    request: {
      body: withRequired(
        {
          control_image_base64: imageField('the control image (sketch, structure source, style reference)'),
          operation: { enum: [...CONTROL_OPERATIONS] },
          prompt: { type: 'string', minLength: 1, maxLength: 4000 },
          style_image_base64: imageField('style reference (style_transfer)'),
          control_strength: unit,
          fidelity: unit,
          style_strength: unit,
          composition_fidelity: unit,
          change_strength: unit,
          aspect_ratio: { enum: ['21:9', '16:9', '3:2', '5:4', '1:1', '4:5', '2:3', '9:16', '9:21'] },
          ...common,
        },
        ['control_image_base64', 'operation', 'prompt'],
      ),
    },
    responses: {
      200: {
        description: 'The generated image',
        data: processedSchema(
          withRequired({ operation: str(), control_strength: { type: ['number', 'null'] }, processing_time: num }, [
            'operation',
            'control_strength',
          ]),
        ),
      },
    },
    errors: VENDOR_WORK_ERRORS,
    handler: async (ctx) => {
      const t0 = process.hrtime.bigint();
      const b = ctx.body;
      const studio = studioOf(ctx);
      refuseMissing(
        b.operation,
        missingInputs(b.operation, CONTROL_SPECS[b.operation], {
          prompt: b.prompt,
          style_image: !!b.style_image_base64,
        }),
      );
      const choice = await domainErrors(() =>
        chooseOperationProvider('control', b.operation, b.provider, studio.configured),
      );
      const img = await decodeAll(ctx, {
        control_image_base64: b.control_image_base64,
        style_image_base64: b.style_image_base64,
      });
      const inputs = await storeInputs(ctx, { image: img.control_image_base64, style_image: img.style_image_base64 });
      const r = await runJob(ctx, {
        kind: 'control',
        operation: b.operation,
        provider: choice.provider,
        model: jobModel(choice, b.model),
        inputs,
        output_format: b.output_format,
        params: {
          prompt: b.prompt,
          negative_prompt: b.negative_prompt,
          seed: b.seed,
          style_preset: b.style_preset,
          control_strength: b.control_strength,
          fidelity: b.fidelity,
          style_strength: b.style_strength,
          composition_fidelity: b.composition_fidelity,
          change_strength: b.change_strength,
          aspect_ratio: b.aspect_ratio,
        },
      });
      return {
        data: {
          success: true,
          operation: b.operation,
          provider: r.provider,
          model: r.model,
          image_base64: await base64Of(ctx, r.key),
          image_url: imageUrl(ctx, r.key),
          width: r.width,
          height: r.height,
          metadata: {
            operation: b.operation,
            control_strength: b.control_strength ?? null,
            processing_time: secondsSince(t0),
            ...(b.fidelity !== undefined ? { fidelity: b.fidelity } : {}),
            ...(r.seed !== undefined ? { seed: r.seed } : {}),
          },
        },
      };
    },
  }),
];
