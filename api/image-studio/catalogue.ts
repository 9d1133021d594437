/**
 * The image studio's read-only routes: templates (list, search, recommend),
 * providers, cost estimates, the edit and control operation tables, platform
 * formats and specs, and health. Pure look-ups in domain/image, answered by
 * the API itself.
 */
import { NotFoundError } from '../../domain/errors';
import { listTemplates, recommendTemplates, searchTemplates } from '../../domain/image/templates';
import { formatsOf, isPlatform, platformSpecs } from '../../domain/image/formats';
import {
  capabilities,
  chooseGenerationProvider,
  chooseModel,
  chooseOperationProvider,
  Configured,
  costRange,
  creditsPerImage,
  IMAGE_VENDORS,
  ImageProvider,
  PROVIDER_CHOICES,
  PROVIDER_INFO,
  ProviderChoice,
  ProviderChoiceError,
  USD_PER_CREDIT,
} from '../../domain/image/providers';
import { CONTROL_SPECS, EDIT_SPECS, OperationSpec } from '../../domain/image/operations';
import { ANY_MODEL, imagePriceOf } from '../../domain/pricing';
import { defineRoute, RouteDef } from '../kernel/registry';
import { allRequired, int, num, str, text, withRequired } from '../kernel/schema';
import { VERSION } from '../health/routes';
import { domainErrors, invalid, PREFIX, studioOf, tags } from './common';
import { formatSchema, operationsSchema, platformParam, providerSchema, specsSchema, templatesSchema } from './schemas';

const templates = (list: ReturnType<typeof listTemplates>) => ({
  data: { templates: list.map(({ overlay: _o, ...t }) => t), total: list.length },
});

function operationTable(kind: 'edit' | 'control', configured: Configured) {
  const specs: Record<string, OperationSpec> = kind === 'edit' ? EDIT_SPECS : CONTROL_SPECS;
  return Object.fromEntries(
    Object.entries(specs).map(([name, spec]) => {
      let provider = 'none';
      try {
        provider = chooseOperationProvider(kind, name as never, 'auto', configured).provider;
      } catch (e) {
        if (!(e instanceof ProviderChoiceError)) throw e;
      }
      return [
        name,
        {
          label: spec.label,
          description: spec.description,
          provider,
          fields: spec.fields,
          providers: Object.keys(spec.providers),
          required: spec.required,
          available: provider !== 'none',
        },
      ];
    }),
  );
}

const ESTIMATE_OPERATIONS = ['generate', 'edit', 'upscale', 'control'] as const;

export const imageCatalogueRoutes: RouteDef[] = [
  defineRoute<unknown, { platform?: string; category?: string }>({
    method: 'get',
    path: `${PREFIX}/templates`,
    auth: 'user',
    tags,
    summary: 'Templates, optionally of one platform and/or category',
    description:
      'Templates of platform `any` match every platform. Categories: social_post, quote, banner, story, thumbnail, advertising, blog, placeholder.',
    request: { query: withRequired({ platform: str(50), category: str(50) }, []) },
    responses: { 200: { description: 'Templates', data: templatesSchema } },
    handler: (ctx) => templates(listTemplates(ctx.query)),
  }),
  defineRoute<unknown, { query: string }>({
    method: 'get',
    path: `${PREFIX}/templates/search`,
    auth: 'user',
    tags,
    summary: 'Templates ranked by relevance of name, use cases and description to the query',
    description:
      "For each query word: 3 points when it is a word of the template's name, else 2 for a word of a use case, else 1 for its description, category or platform (words match when equal, or when one is a prefix of the other and both have at least 3 letters); 4 more when the whole query is a phrase of the name or a use case. Templates scoring 0 are left out; ties keep catalogue order. `total` counts the matches.",
    request: { query: allRequired({ query: text(200) }) },
    responses: { 200: { description: 'Matching templates, best first', data: templatesSchema } },
    handler: (ctx) => templates(searchTemplates(ctx.query.query)),
  }),
  defineRoute<unknown, { use_case: string; platform?: string }>({
    method: 'get',
    path: `${PREFIX}/templates/recommend`,
    auth: 'user',
    tags,
    summary: 'Templates for a use case (and platform), best first',
    description:
      "The relevance of GET /templates/search, scored against `use_case`; templates scoring 0 are left out. With `platform`, only that platform's templates and the `any` ones, the platform's own first at equal relevance. A platform with no templates of its own (or an unknown one) gets only the `any` templates, not an error.",
    request: { query: withRequired({ use_case: text(200), platform: str(50) }, ['use_case']) },
    responses: { 200: { description: 'Recommended templates', data: templatesSchema } },
    handler: (ctx) => templates(recommendTemplates(ctx.query.use_case, ctx.query.platform)),
  }),
  defineRoute({
    method: 'get',
    path: `${PREFIX}/providers`,
    auth: 'user',
    tags,
    summary: 'Image providers: models, capabilities, largest output, cost range and availability',
    description:
      '`available` is true for configured vendors and for `local` (offline). `configure` names the settings that make a vendor available.',
    responses: {
      200: {
        description: 'Providers keyed by token',
        data: allRequired({ providers: { type: 'object', additionalProperties: providerSchema } }),
      },
    },
    handler: (ctx) => {
      const { configured, defaultModels } = studioOf(ctx);
      const all: ImageProvider[] = [...IMAGE_VENDORS, 'local'];
      const providers = Object.fromEntries(
        all.map((p) => {
          const info = PROVIDER_INFO[p];
          const first = p === 'local' ? undefined : defaultModels[p];
          const models = first ? [first, ...info.models.filter((m) => m !== first)] : info.models;
          return [
            p,
            {
              name: p,
              models,
              capabilities: capabilities(p),
              max_resolution: `${info.limits.maxWidth}x${info.limits.maxHeight}`,
              cost_range: costRange(p),
              available: p === 'local' || configured[p],
              api: info.api,
              configure: info.configure,
            },
          ];
        }),
      );
      return { data: { providers } };
    },
  }),
  defineRoute<{
    provider: ProviderChoice;
    model?: string;
    operation: (typeof ESTIMATE_OPERATIONS)[number];
    num_images: number;
    width?: number;
    height?: number;
  }>({
    method: 'post',
    path: `${PREFIX}/estimate-cost`,
    auth: 'user',
    tags,
    summary: 'Cost of images in credits (1 credit = US$0.01), from the pricing table of GET /api/subscription/pricing',
    description:
      "`auto` resolves as generation and edits would now. Without a model, generation uses the provider default and other operations the operation's `*` row (the most a configured model of that operation costs). width/height must fit the provider's largest size; prices are per image whatever the size.",
    request: {
      body: withRequired(
        {
          provider: { enum: [...PROVIDER_CHOICES] },
          model: str(200),
          operation: { enum: [...ESTIMATE_OPERATIONS], default: 'generate' },
          num_images: { type: 'integer', minimum: 1, maximum: 100, default: 1 },
          width: { type: 'integer', minimum: 1, maximum: 16384 },
          height: { type: 'integer', minimum: 1, maximum: 16384 },
        },
        ['provider'],
      ),
    },
    responses: {
      200: {
        description: 'The estimate',
        data: withRequired(
          {
            estimated_cost: num,
            currency: { const: 'credits' },
            provider: str(),
            model: str(),
            operation: str(),
            num_images: int,
            cost_per_image: num,
            cost_usd: num,
          },
          ['estimated_cost', 'currency', 'provider', 'model', 'operation', 'num_images'],
        ),
      },
    },
    handler: (ctx) =>
      domainErrors(() => {
        const b = ctx.body;
        const { configured, defaultModels } = studioOf(ctx);
        let provider: ImageProvider;
        if (b.provider !== 'auto') provider = b.provider;
        else if (b.operation === 'generate') provider = chooseGenerationProvider('auto', configured);
        else {
          const able = IMAGE_VENDORS.filter(
            (v) => configured[v] && capabilities(v).includes(b.operation === 'upscale' ? 'upscaling' : 'editing'),
          );
          provider = able[0] ?? 'local';
        }
        const model =
          b.model ??
          (b.operation === 'generate'
            ? chooseModel(provider, undefined, provider === 'local' ? undefined : defaultModels[provider])
            : provider === 'local'
              ? 'local'
              : ANY_MODEL);
        if (provider === 'local' && b.operation === 'control')
          throw invalid(
            'operation',
            'the local provider has no control operations; vendor_c, vendor_d and vendor_e do',
          );
        const lim = PROVIDER_INFO[provider].limits;
        if ((b.width ?? 0) > lim.maxWidth || (b.height ?? 0) > lim.maxHeight)
          throw invalid('width', `${provider} renders at most ${lim.maxWidth}x${lim.maxHeight}`);
        let per: number;
        try {
          per = creditsPerImage(provider, model, b.operation);
        } catch {
          throw invalid(
            'operation',
            `${provider} has no price for ${b.operation}${b.model ? ` with model ${b.model}` : ''}`,
          );
        }
        if (provider !== 'local') imagePriceOf(provider, model, b.operation);
        const credits = Math.round(per * b.num_images * 1000) / 1000;
        return {
          data: {
            estimated_cost: credits,
            currency: 'credits',
            provider,
            model,
            operation: b.operation,
            num_images: b.num_images,
            cost_per_image: per,
            cost_usd: Math.round(credits * USD_PER_CREDIT * 1e6) / 1e6,
            ...(b.width ? { width: b.width } : {}),
            ...(b.height ? { height: b.height } : {}),
          },
        };
      }),
  }),
  defineRoute({
    method: 'get',
    path: `${PREFIX}/edit/operations`,
    auth: 'user',
    tags,
    summary: 'Edit operations: what each does, its inputs, and the provider that does it now',
    description:
      'One entry per edit operation: `label`, `description`, `fields` (the inputs it reads), `required` (the inputs POST /api/image-studio/edit refuses with 400 when missing), `providers` able to do it, and `provider`: the one `auto` would use now on this deployment (`none`, with `available: false`, when no configured provider can; the local provider does remove_background and outpaint).',
    responses: { 200: { description: 'Operations by name', data: operationsSchema } },
    handler: (ctx) => ({ data: { operations: operationTable('edit', studioOf(ctx).configured) } }),
  }),
  defineRoute({
    method: 'get',
    path: `${PREFIX}/control/operations`,
    auth: 'user',
    tags,
    summary: 'Control operations (sketch, structure, style, style transfer): inputs and provider',
    description:
      'The table of GET /edit/operations for the control operations. Only vendors do them (vendor_c, vendor_d, vendor_e): without one configured, every operation has `provider: none` and `available: false`.',
    responses: { 200: { description: 'Operations by name', data: operationsSchema } },
    handler: (ctx) => ({ data: { operations: operationTable('control', studioOf(ctx).configured) } }),
  }),
  defineRoute<unknown, unknown, { platform: string }>({
    method: 'get',
    path: `${PREFIX}/social/platforms/{platform}/formats`,
    auth: 'user',
    tags,
    summary: 'Formats of a platform: pixel size, ratio, safe zone, file type, size limit',
    description:
      "The platform's image formats (profnet, socialnet, photonet, microblog, videonet, adnet_ads), each with its name, pixel size, ratio, safe zone, file type and largest file in MB: the targets POST /api/image-studio/social/optimize crops and compresses to. An unknown platform is 404.",
    request: { params: platformParam },
    responses: {
      200: { description: 'Formats', data: allRequired({ formats: { type: 'array', items: formatSchema } }) },
    },
    handler: (ctx) => {
      if (!isPlatform(ctx.params.platform)) throw new NotFoundError();
      return { data: { formats: formatsOf(ctx.params.platform) } };
    },
  }),
  defineRoute<unknown, unknown, { platform: string }>({
    method: 'get',
    path: `${PREFIX}/platform-specs/{platform}`,
    auth: 'user',
    tags,
    summary: 'Specs of a platform: formats, file types, largest file',
    description:
      "A summary of GET /social/platforms/{platform}/formats: each format's name, ratio and `<width>x<height>`, the file types the platform accepts, and `max_file_size` (e.g. `5MB (150KB for some formats)` when formats differ). An unknown platform is 404.",
    request: { params: platformParam },
    responses: { 200: { description: 'Platform specs', data: specsSchema } },
    handler: (ctx) => {
      if (!isPlatform(ctx.params.platform)) throw new NotFoundError();
      return { data: platformSpecs(ctx.params.platform) };
    },
  }),
  defineRoute({
    method: 'get',
    path: `${PREFIX}/health`,
    auth: 'user',
    tags,
    summary: 'Image studio health: modules and their availability',
    description:
      'Module values: `available`, `available (local)` (offline implementation), `available (<vendors>)`, or `unavailable: <why>`. `status` is `degraded` when storage or background work is unavailable.',
    responses: {
      200: {
        description: 'Health',
        data: allRequired({
          status: { enum: ['ok', 'degraded'] },
          service: { const: 'image-studio' },
          version: str(),
          modules: { type: 'object', additionalProperties: { type: 'string' } },
        }),
      },
    },
    handler: async (ctx) => {
      const studio = ctx.deps.imageStudio;
      const vendors = studio ? IMAGE_VENDORS.filter((v) => studio.configured[v]) : [];
      const withVendors = (able: string[]) => {
        const on = vendors.filter((v) => able.includes(v));
        return on.length ? `available (${on.join(', ')})` : undefined;
      };
      let storage = 'unavailable: no image storage configured';
      if (studio)
        storage = await studio.storage.check().then(
          () => `available (${studio.storage.kind})`,
          (e: Error) => `unavailable: ${e.message.slice(0, 200)}`,
        );
      const work = ctx.deps.workflows ? 'available' : 'unavailable: no Temporal connection';
      const editVendors = [...new Set(Object.values(EDIT_SPECS).flatMap((s) => Object.keys(s.providers)))];
      const controlVendors = [...new Set(Object.values(CONTROL_SPECS).flatMap((s) => Object.keys(s.providers)))];
      const modules: Record<string, string> = {
        storage,
        workflows: work,
        templates: 'available',
        generation: withVendors([...IMAGE_VENDORS]) ?? 'available (local)',
        prompt_enhancement:
          ctx.deps.aiProvider && ctx.deps.aiProvider !== 'local'
            ? `available (${ctx.deps.aiProvider})`
            : 'available (local)',
        editing: withVendors(editVendors) ?? 'available (local: remove_background, outpaint)',
        control: withVendors(controlVendors) ?? 'unavailable: configure vendor_c, vendor_d or vendor_e',
        upscaling: withVendors(['vendor_c', 'vendor_e']) ?? 'available (local: fast, conservative)',
        social_optimization: 'available',
      };
      for (const v of IMAGE_VENDORS)
        modules[v] = studio?.configured[v] ? 'available' : `unavailable: set ${PROVIDER_INFO[v].configure.join(', ')}`;
      const ok = storage.startsWith('available') && work === 'available';
      return { data: { status: ok ? 'ok' : 'degraded', service: 'image-studio', version: VERSION, modules } };
    },
  }),
];
