/**
 * POST /api/image-studio/create: images from a prompt. The route resolves the
 * template, the provider (domain/image/providers.ts), the model, the size and
 * one seed per variation, then executes imageGenerateWorkflow (vendor calls
 * and the prompt rewrite spend budget: rule 1) and answers with every image
 * as base64 and URL; variations that failed are counted in total_failed.
 */
import { randomInt } from 'node:crypto';
import { findTemplate, Template } from '../../domain/image/templates';
import { ASPECT_RATIO_PATTERN, QUALITIES, Quality, resolveDimensions } from '../../domain/image/dimensions';
import {
  chooseGenerationProvider,
  chooseModel,
  PROVIDER_CHOICES,
  PROVIDER_INFO,
  ProviderChoice,
} from '../../domain/image/providers';
import { overlayText } from '../../domain/image/procedural';
import type { GenerationPlan } from '../../domain/image/jobs';
import { imageGenerateWorkflow } from '../../workflows';
import { defineRoute, RouteDef } from '../kernel/registry';
import { settle, userIdOf } from '../kernel/handler';
import { bool, str, text, withRequired } from '../kernel/schema';
import { executeWorkflow } from '../kernel/workflows';
import { base64Of, domainErrors, imageUrl, invalid, jobId, PREFIX, studioOf, tags, VENDOR_WORK_ERRORS } from './common';
import { createResponseSchema } from './schemas';
import type { Knex } from 'knex';
import { getPersona } from '../../projections/personas';
import type { PersonaFields } from '../../domain/events/content';

const MAX_SEED = 4294967294;

export interface CreateBody {
  prompt: string;
  template_id?: string;
  provider?: ProviderChoice;
  model?: string;
  width?: number;
  height?: number;
  aspect_ratio?: string;
  style_preset?: string;
  quality?: Quality;
  negative_prompt?: string;
  guidance_scale?: number;
  steps?: number;
  seed?: number;
  num_variations: number;
  enhance_prompt: boolean;
  use_persona: boolean;
  persona_id?: string;
}

const side = { type: 'integer', minimum: 64, maximum: 8192 };

export const createBodySchema = withRequired(
  {
    prompt: text(4000),
    template_id: str(100),
    provider: {
      enum: [...PROVIDER_CHOICES],
      description:
        "`auto` (default): the template's recommended vendor when configured, else the first configured vendor, else `local`",
    },
    model: str(200),
    width: side,
    height: side,
    aspect_ratio: { type: 'string', pattern: ASPECT_RATIO_PATTERN, maxLength: 20 },
    style_preset: str(50, { pattern: '^[A-Za-z0-9_-]*$' }),
    quality: { enum: [...QUALITIES], description: "default: the template's quality, else `standard`" },
    negative_prompt: str(2000),
    guidance_scale: { type: 'number', minimum: 0, maximum: 50 },
    steps: { type: 'integer', minimum: 1, maximum: 150 },
    seed: { type: 'integer', minimum: 0, maximum: MAX_SEED },
    num_variations: { type: 'integer', minimum: 1, maximum: 10, default: 1 },
    enhance_prompt: { ...bool, default: true },
    use_persona: {
      ...bool,
      default: false,
      description:
        'Make the image for a persona of the caller (persona_id, from /v1/personas): its audience is added to the prompt',
    },
    persona_id: str(100, { description: 'A persona of the caller (/v1/personas); required with use_persona' }),
  },
  ['prompt'],
);

/** The caller's persona `id` (400 naming persona_id when absent or not theirs: a field of this request). */
async function personaOf(ctx: { deps: { db: Knex } } & Parameters<typeof userIdOf>[0], id: string | undefined) {
  if (!id) throw invalid('persona_id', 'persona_id is required with use_persona (GET /v1/personas lists yours)');
  const p = await getPersona(ctx.deps.db, userIdOf(ctx), id);
  if (!p) throw invalid('persona_id', `no persona "${id}" of yours (GET /v1/personas lists yours)`);
  return p;
}

/** What a persona adds to an image prompt: who the image is for, in the persona's own words. */
export function audienceOf(p: PersonaFields): string {
  const who = [p.profession, p.age_range && `aged ${p.age_range}`, p.industry && `in ${p.industry}`]
    .filter(Boolean)
    .join(', ');
  const goals = p.goals?.length ? `, whose goals are: ${p.goals.slice(0, 2).join('; ')}` : '';
  return `Made for ${p.name}${who ? ` (${who})` : ''}${goals}${p.tone ? `; ${p.tone} in feel` : ''}.`;
}

/** The workflow's plan: everything decided before any budget is spent. */
export function planGeneration(
  b: CreateBody,
  template: Template | undefined,
  configured: Parameters<typeof chooseGenerationProvider>[1],
  defaultModels: Partial<Record<string, string>>,
): GenerationPlan {
  const provider = chooseGenerationProvider(b.provider, configured, template?.recommended_provider);
  const model = chooseModel(provider, b.model, provider === 'local' ? undefined : defaultModels[provider]);
  const quality = b.quality ?? template?.quality ?? 'standard';
  const { width, height } = resolveDimensions(
    { width: b.width, height: b.height, aspect_ratio: b.aspect_ratio, quality, template: template?.aspect_ratio },
    PROVIDER_INFO[provider].limits,
  );
  const style = b.style_preset || template?.style_preset;
  // Each variation has its own seed: the request's seed + index, else a random one.
  const seeds = Array.from({ length: b.num_variations }, (_, i) =>
    b.seed !== undefined ? (b.seed + i) % (MAX_SEED + 1) : randomInt(0, MAX_SEED),
  );
  // Vendors read text from the prompt; the offline renderer writes the template's overlay itself.
  const overlay =
    provider === 'local' && template?.overlay
      ? { kind: template.overlay, text: overlayText(template.overlay, b.prompt) }
      : undefined;
  return {
    prompt: b.prompt,
    enhance: b.enhance_prompt,
    enrich: {
      prompt: b.prompt,
      style_preset: style,
      quality,
      template: template
        ? { name: template.name, use_cases: template.use_cases, aspect_label: template.aspect_ratio.label }
        : undefined,
      // The offline renderer's enhanced prompt describes what it draws (domain/image/enrich.ts).
      renderer: provider === 'local' ? 'local' : 'vendor',
      overlay,
    },
    provider,
    model,
    width,
    height,
    quality,
    style_preset: style,
    negative_prompt: b.negative_prompt,
    guidance_scale: b.guidance_scale,
    steps: b.steps,
    seeds,
    overlay,
  };
}

export const imageCreateRoutes: RouteDef[] = [
  defineRoute<CreateBody>({
    method: 'post',
    path: `${PREFIX}/create`,
    auth: 'user',
    tags,
    summary: 'Generate 1-10 images from a prompt (template, provider, size, style, quality)',
    description:
      "Size: width+height, else one side + aspect_ratio (or the template ratio), else aspect_ratio at the quality's long edge (draft 768, standard 1024, premium 1536), else the template's size, else a square; always scaled into the provider's largest size. Every image is metered (plan limits: 429). use_persona=true with persona_id (a persona of /v1/personas) adds the persona's audience to the prompt and names it in request.persona; without persona_id, or with one the caller does not have, 400.",
    request: { body: createBodySchema },
    responses: { 200: { description: 'The images', data: createResponseSchema } },
    errors: VENDOR_WORK_ERRORS,
    handler: async (ctx) => {
      const b = ctx.body;
      const studio = studioOf(ctx);
      const persona = b.use_persona ? await personaOf(ctx, b.persona_id) : undefined;
      const template = b.template_id ? findTemplate(b.template_id) : undefined;
      if (b.template_id && !template)
        throw invalid('template_id', `unknown template "${b.template_id}" (GET ${PREFIX}/templates)`);
      const asked = persona ? { ...b, prompt: `${b.prompt}\n${audienceOf(persona)}` } : b;
      const plan = await domainErrors(() => planGeneration(asked, template, studio.configured, studio.defaultModels));
      const out = await executeWorkflow(ctx.deps, imageGenerateWorkflow, {
        workflowId: jobId('generate'),
        userId: userIdOf(ctx),
        args: [{ userId: userIdOf(ctx), plan }],
      });
      await settle(ctx, 'image-assets', out.recorded);
      const results = await Promise.all(
        out.results.map(async (r) => ({
          image_base64: await base64Of(ctx, r.key),
          image_url: imageUrl(ctx, r.key),
          content_type: r.content_type,
          width: r.width,
          height: r.height,
          provider: r.provider,
          model: r.model,
          variation: r.variation,
          seed: r.seed ?? null,
        })),
      );
      return {
        data: {
          success: true,
          request: {
            prompt: b.prompt,
            enhanced_prompt: out.enhancement?.prompt ?? null,
            template_id: template?.id ?? null,
            template_name: template?.name ?? null,
            provider: plan.provider,
            model: plan.model,
            dimensions: `${plan.width}x${plan.height}`,
            quality: plan.quality,
            style_preset: plan.style_preset ?? null,
            persona: persona
              ? { persona_id: persona.persona_id, name: persona.name, audience: audienceOf(persona) }
              : null,
            prompt_enhancement: out.enhancement
              ? { provider: out.enhancement.provider, model: out.enhancement.model, offline: out.enhancement.offline }
              : null,
          },
          results: results.sort((x, y) => x.variation - y.variation),
          total_generated: results.length,
          total_failed: out.failures.length,
          failures: out.failures,
        },
      };
    },
  }),
];
