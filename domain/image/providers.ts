/**
 * The image providers: four vendors over their public HTTP APIs and the
 * offline `local` provider, what each can do, its largest output, its price
 * range (from the one pricing table, domain/pricing.ts) and the rule that
 * picks a provider for a request.
 *
 *   vendor_c  Stability AI REST API v2beta (stable-image generate/edit/upscale/control)
 *   vendor_d  Black Forest Labs FLUX API (async tasks polled by id)
 *   vendor_e  Replicate predictions API (official models, `Prefer: wait`, polled by id)
 *   vendor_a  OpenAI Images API (/images/generations, /images/edits)
 *   local     the platform itself: procedural SVG renderer, sharp edits and upscaling
 */
import { imagePriceOf, ImagePriceOperation, PRICING } from '../pricing';
import type { Limits } from './dimensions';
import { CONTROL_SPECS, ControlOperation, EDIT_SPECS, EditOperation, OperationSpec } from './operations';

export const IMAGE_VENDORS = ['vendor_c', 'vendor_d', 'vendor_e', 'vendor_a'] as const;
export type ImageVendor = (typeof IMAGE_VENDORS)[number];
export type ImageProvider = ImageVendor | 'local';
export type ProviderChoice = ImageProvider | 'auto';
export const PROVIDER_CHOICES = ['auto', ...IMAGE_VENDORS, 'local'] as const;

export type Capability = 'generation' | 'editing' | 'upscaling';
export const UPSCALE_MODES = ['fast', 'conservative', 'creative', 'auto'] as const;
export type UpscaleMode = (typeof UPSCALE_MODES)[number];

/** 1 credit = US$0.01: the unit of `POST /estimate-cost` (Stability AI's own credit has the same value). */
export const USD_PER_CREDIT = 0.01;
export const LOCAL_IMAGE_MODEL = 'local-procedural-v1';

export interface ProviderInfo {
  /** The public API the adapter speaks. */
  api: string;
  /** Generation models, the default first. */
  models: string[];
  limits: Limits;
  /** Upscale modes the provider does, with the endpoint or model. */
  upscale: Partial<Record<Exclude<UpscaleMode, 'auto'>, string>>;
  /** Configuration keys that make it available (infra/config/). */
  configure: string[];
}

export const PROVIDER_INFO: Record<ImageProvider, ProviderInfo> = {
  vendor_c: {
    api: 'Stability AI REST API v2beta',
    models: ['stable-image-core', 'stable-image-ultra', 'sd3.5-large', 'sd3.5-large-turbo', 'sd3.5-medium'],
    limits: { maxWidth: 1536, maxHeight: 1536, multiple: 1 },
    upscale: { fast: 'fast', conservative: 'conservative', creative: 'creative' },
    configure: ['IMAGE_VENDOR_C_API_KEY'],
  },
  vendor_d: {
    api: 'Black Forest Labs FLUX API v1',
    models: ['flux-pro-1.1', 'flux-pro-1.1-ultra', 'flux-dev'],
    limits: { maxWidth: 1440, maxHeight: 1440, multiple: 1 },
    upscale: {},
    configure: ['IMAGE_VENDOR_D_API_KEY'],
  },
  vendor_e: {
    api: 'Replicate HTTP API v1 (predictions)',
    models: ['black-forest-labs/flux-schnell', 'black-forest-labs/flux-dev', 'black-forest-labs/flux-1.1-pro'],
    limits: { maxWidth: 1440, maxHeight: 1440, multiple: 1 },
    upscale: { creative: 'recraft-ai/recraft-creative-upscale' },
    configure: ['IMAGE_VENDOR_E_API_KEY'],
  },
  vendor_a: {
    api: 'OpenAI Images API',
    models: ['gpt-image-1', 'dall-e-3', 'dall-e-2'],
    limits: { maxWidth: 1536, maxHeight: 1536, multiple: 1 },
    upscale: {},
    configure: ['IMAGE_VENDOR_A_API_KEY'],
  },
  local: {
    api: 'offline: procedural SVG rendered by sharp/libvips; sharp edits and Lanczos upscaling',
    models: [LOCAL_IMAGE_MODEL],
    limits: { maxWidth: 4096, maxHeight: 4096, multiple: 1 },
    upscale: { fast: 'lanczos3', conservative: 'lanczos3-sharpen' },
    configure: [],
  },
};

/** Which vendors are configured (true) — built from the configuration in workers/. */
export type Configured = Record<ImageVendor, boolean>;

/**
 * A provider choice the platform cannot serve. `notConfigured`: the request is valid and a vendor this deployment
 * has not configured would serve it (the route answers 503 naming what to set); otherwise the request itself is
 * wrong (400 naming the field).
 */
export class ProviderChoiceError extends Error {
  constructor(
    readonly field: string,
    message: string,
    readonly notConfigured = false,
  ) {
    super(message);
    this.name = 'ProviderChoiceError';
  }
}

const supportsOp = (spec: OperationSpec, p: ImageProvider) => spec.providers[p] !== undefined;

export function capabilities(p: ImageProvider): Capability[] {
  const out: Capability[] = ['generation'];
  const specs = [...Object.values(EDIT_SPECS), ...Object.values(CONTROL_SPECS)];
  if (specs.some((s) => supportsOp(s, p))) out.push('editing');
  if (Object.keys(PROVIDER_INFO[p].upscale).length) out.push('upscaling');
  return out;
}

const isAvailable = (p: ImageProvider, c: Configured) => p === 'local' || c[p];

const notConfigured = (p: ImageVendor) =>
  `${p} is not configured: set ${PROVIDER_INFO[p].configure.join(', ')} (docs/image-studio.md)`;

/**
 * The generation provider: an explicit vendor must be configured; `auto`
 * takes the template's recommended vendor when configured, else the first
 * configured vendor (vendor_c, vendor_d, vendor_e, vendor_a), else `local`.
 */
export function chooseGenerationProvider(
  choice: ProviderChoice | undefined,
  configured: Configured,
  recommended?: string,
): ImageProvider {
  const c = choice ?? 'auto';
  if (c === 'local') return 'local';
  if (c !== 'auto') {
    if (!configured[c]) throw new ProviderChoiceError('provider', notConfigured(c), true);
    return c;
  }
  if (recommended && recommended !== 'local' && configured[recommended as ImageVendor])
    return recommended as ImageVendor;
  return IMAGE_VENDORS.find((v) => configured[v]) ?? 'local';
}

/** The model of a generation: the request's (it must be one of the provider's), else the provider's default. */
export function chooseModel(provider: ImageProvider, model: string | undefined, defaultModel?: string): string {
  const info = PROVIDER_INFO[provider];
  if (!model) return defaultModel ?? info.models[0];
  if (provider === 'local' && model !== LOCAL_IMAGE_MODEL)
    throw new ProviderChoiceError('model', `the local provider has one model: ${LOCAL_IMAGE_MODEL}`);
  return model;
}

/**
 * The provider of an edit or control operation: explicit = it must support
 * the operation and be configured; `auto` = the first configured vendor that
 * supports it, else `local` when the platform can do it itself. Otherwise a
 * ProviderChoiceError naming the providers that would.
 */
export function chooseOperationProvider(
  kind: 'edit' | 'control',
  operation: EditOperation | ControlOperation,
  choice: ProviderChoice | undefined,
  configured: Configured,
): { provider: ImageProvider; model: string } {
  const spec = kind === 'edit' ? EDIT_SPECS[operation as EditOperation] : CONTROL_SPECS[operation as ControlOperation];
  const able = Object.keys(spec.providers) as ImageProvider[];
  const c = choice ?? 'auto';
  if (c !== 'auto') {
    if (!supportsOp(spec, c))
      throw new ProviderChoiceError('provider', `${c} cannot do ${operation}; providers that can: ${able.join(', ')}`);
    if (c !== 'local' && !configured[c]) throw new ProviderChoiceError('provider', notConfigured(c), true);
    return { provider: c, model: spec.providers[c]! };
  }
  const p = able.find((x) => x !== 'local' && isAvailable(x, configured)) ?? able.find((x) => x === 'local');
  if (!p)
    throw new ProviderChoiceError(
      'operation',
      `no configured provider can do ${operation}; providers that can: ${able
        .map((x) => `${x} (set ${PROVIDER_INFO[x].configure.join(', ')})`)
        .join(', ')}`,
      true,
    );
  return { provider: p, model: spec.providers[p]! };
}

/** The provider of an upscale mode: creative goes to a configured vendor, fast/conservative are local. */
export function chooseUpscaleProvider(
  mode: Exclude<UpscaleMode, 'auto'>,
  configured: Configured,
): { provider: ImageProvider; model: string } {
  if (mode !== 'creative') return { provider: 'local', model: PROVIDER_INFO.local.upscale[mode]! };
  const able = IMAGE_VENDORS.filter((v) => PROVIDER_INFO[v].upscale.creative);
  const v = able.find((x) => configured[x]);
  if (!v)
    throw new ProviderChoiceError(
      'mode',
      `creative upscaling needs a vendor; providers that can: ${able.map((x) => `${x} (set ${PROVIDER_INFO[x].configure.join(', ')})`).join(', ')}`,
      true,
    );
  return { provider: v, model: PROVIDER_INFO[v].upscale.creative! };
}

/** Credits of one image (the pricing table's dollars / USD_PER_CREDIT); local work is free. */
export function creditsPerImage(provider: ImageProvider, model: string, operation: ImagePriceOperation): number {
  if (provider === 'local') return 0;
  return Math.round((imagePriceOf(provider, model, operation).cost_per_request / USD_PER_CREDIT) * 1000) / 1000;
}

/** `"<min>-<max> credits per image"` over every image row of the provider. */
export function costRange(provider: ImageProvider): string {
  if (provider === 'local') return '0 credits (offline)';
  const c = PRICING.filter((e) => e.provider === provider && 'operation' in e).map(
    (e) => (e as { cost_per_request: number }).cost_per_request / USD_PER_CREDIT,
  );
  const r = (n: number) => Math.round(n * 1000) / 1000;
  return `${r(Math.min(...c))}-${r(Math.max(...c))} credits per image`;
}
