/**
 * The platform's price list: what one call to each provider costs a user.
 *
 * This table is served as-is by `GET /api/subscription/pricing` (spec: Pricing
 * entry) and is the only input of `cost()`, so what users are shown and what
 * they are charged cannot drift apart. Prices are in US dollars.
 *
 * Token-priced providers (text vendors) are billed per million input and
 * output tokens. The figures are the platform's own list prices, set at the
 * vendors' published pay-as-you-go rates for the named models (as of 2025):
 * the platform resells at cost, and a deployment that wants a margin edits
 * this file. The `*` row of a vendor prices any other model configured in
 * that vendor slot (a self-hosted Ollama/vLLM model, a newer model), so a
 * configuration change never produces an unpriced call.
 *
 * Request-priced providers (image vendors, web search) are billed per call.
 * Image rows name the model or endpoint and the operation (`generate`,
 * `edit`, `upscale`, `control`): one row per image produced, at the vendors'
 * published list prices (2025; Stability AI lists credits of US$0.01). The
 * image studio quotes them in credits (1 credit = US$0.01, domain/image/
 * providers.ts) and meters them in dollars, from this one table.
 * `local` (the offline writer and image renderer) and the local research
 * corpus cost nothing; so does `llama` (a model running on the platform's own
 * CPU) until a deployment prices its compute by editing its row.
 */

export type TokenProvider = 'vendor_a' | 'vendor_b' | 'llama' | 'local';
export type RequestProvider = 'web_search' | 'corpus' | 'dataforseo' | 'render' | 'tts_vendor';
/** Providers with image rows: the three image vendors and vendor_a's images API. */
export type ImagePricedProvider = 'vendor_a' | 'vendor_c' | 'vendor_d' | 'vendor_e';
export type ImagePriceOperation = 'generate' | 'edit' | 'upscale' | 'control';
export type PricedProvider = TokenProvider | RequestProvider | ImagePricedProvider;

export interface TokenPricingEntry {
  provider: TokenProvider;
  model: string;
  input_cost_per_1m: number;
  output_cost_per_1m: number;
}

export interface RequestPricingEntry {
  provider: RequestProvider;
  cost_per_request: number;
}

/** One image of a model (or vendor endpoint) for one operation; `*` prices any other model of that operation. */
export interface ImagePricingEntry {
  provider: ImagePricedProvider;
  model: string;
  operation: ImagePriceOperation;
  cost_per_request: number;
}

export type PricingEntry = TokenPricingEntry | RequestPricingEntry | ImagePricingEntry;

/** Model name that prices every model of a vendor slot without its own row. */
export const ANY_MODEL = '*';

/** Model name the offline provider reports. */
export const LOCAL_MODEL = 'local-extractive-v1';

export const PRICING: readonly PricingEntry[] = Object.freeze([
  // vendor_a: OpenAI-style models (published rates per 1M tokens)
  { provider: 'vendor_a', model: 'gpt-4o-mini', input_cost_per_1m: 0.15, output_cost_per_1m: 0.6 },
  { provider: 'vendor_a', model: 'gpt-4o', input_cost_per_1m: 2.5, output_cost_per_1m: 10.0 },
  { provider: 'vendor_a', model: 'gpt-4.1-mini', input_cost_per_1m: 0.4, output_cost_per_1m: 1.6 },
  { provider: 'vendor_a', model: 'gpt-4.1', input_cost_per_1m: 2.0, output_cost_per_1m: 8.0 },
  { provider: 'vendor_a', model: ANY_MODEL, input_cost_per_1m: 0.15, output_cost_per_1m: 0.6 },
  // vendor_b: Gemini-style models through the OpenAI-compatible endpoint
  { provider: 'vendor_b', model: 'gemini-2.0-flash', input_cost_per_1m: 0.1, output_cost_per_1m: 0.4 },
  { provider: 'vendor_b', model: 'gemini-2.5-flash', input_cost_per_1m: 0.3, output_cost_per_1m: 2.5 },
  { provider: 'vendor_b', model: 'gemini-2.5-pro', input_cost_per_1m: 1.25, output_cost_per_1m: 10.0 },
  { provider: 'vendor_b', model: ANY_MODEL, input_cost_per_1m: 0.1, output_cost_per_1m: 0.4 },
  // the offline writer: deterministic, runs in-process, free
  { provider: 'local', model: LOCAL_MODEL, input_cost_per_1m: 0, output_cost_per_1m: 0 },
  { provider: 'local', model: ANY_MODEL, input_cost_per_1m: 0, output_cost_per_1m: 0 },
  // the in-process language model (any GGUF file): free unless a deployment prices its CPU time here
  { provider: 'llama', model: ANY_MODEL, input_cost_per_1m: 0, output_cost_per_1m: 0 },
  // image vendors: per image. vendor_c = Stability AI REST v2beta (credits of $0.01)
  { provider: 'vendor_c', model: 'stable-image-ultra', operation: 'generate', cost_per_request: 0.08 },
  { provider: 'vendor_c', model: 'stable-image-core', operation: 'generate', cost_per_request: 0.03 },
  { provider: 'vendor_c', model: 'sd3.5-large', operation: 'generate', cost_per_request: 0.065 },
  { provider: 'vendor_c', model: 'sd3.5-large-turbo', operation: 'generate', cost_per_request: 0.04 },
  { provider: 'vendor_c', model: 'sd3.5-medium', operation: 'generate', cost_per_request: 0.035 },
  { provider: 'vendor_c', model: ANY_MODEL, operation: 'generate', cost_per_request: 0.08 },
  { provider: 'vendor_c', model: 'remove-background', operation: 'edit', cost_per_request: 0.05 },
  { provider: 'vendor_c', model: 'inpaint', operation: 'edit', cost_per_request: 0.05 },
  { provider: 'vendor_c', model: 'outpaint', operation: 'edit', cost_per_request: 0.04 },
  { provider: 'vendor_c', model: 'search-and-replace', operation: 'edit', cost_per_request: 0.05 },
  { provider: 'vendor_c', model: 'search-and-recolor', operation: 'edit', cost_per_request: 0.05 },
  { provider: 'vendor_c', model: 'replace-background-and-relight', operation: 'edit', cost_per_request: 0.08 },
  { provider: 'vendor_c', model: ANY_MODEL, operation: 'edit', cost_per_request: 0.08 },
  { provider: 'vendor_c', model: 'fast', operation: 'upscale', cost_per_request: 0.02 },
  { provider: 'vendor_c', model: 'conservative', operation: 'upscale', cost_per_request: 0.4 },
  { provider: 'vendor_c', model: 'creative', operation: 'upscale', cost_per_request: 0.6 },
  { provider: 'vendor_c', model: ANY_MODEL, operation: 'upscale', cost_per_request: 0.6 },
  { provider: 'vendor_c', model: 'control/sketch', operation: 'control', cost_per_request: 0.05 },
  { provider: 'vendor_c', model: 'control/structure', operation: 'control', cost_per_request: 0.05 },
  { provider: 'vendor_c', model: 'control/style', operation: 'control', cost_per_request: 0.05 },
  { provider: 'vendor_c', model: 'control/style-transfer', operation: 'control', cost_per_request: 0.08 },
  { provider: 'vendor_c', model: ANY_MODEL, operation: 'control', cost_per_request: 0.08 },
  // vendor_d = Black Forest Labs FLUX API
  { provider: 'vendor_d', model: 'flux-pro-1.1', operation: 'generate', cost_per_request: 0.04 },
  { provider: 'vendor_d', model: 'flux-pro-1.1-ultra', operation: 'generate', cost_per_request: 0.06 },
  { provider: 'vendor_d', model: 'flux-dev', operation: 'generate', cost_per_request: 0.025 },
  { provider: 'vendor_d', model: ANY_MODEL, operation: 'generate', cost_per_request: 0.06 },
  { provider: 'vendor_d', model: 'flux-kontext-pro', operation: 'edit', cost_per_request: 0.04 },
  { provider: 'vendor_d', model: 'flux-pro-1.0-fill', operation: 'edit', cost_per_request: 0.05 },
  { provider: 'vendor_d', model: 'flux-pro-1.0-expand', operation: 'edit', cost_per_request: 0.05 },
  { provider: 'vendor_d', model: ANY_MODEL, operation: 'edit', cost_per_request: 0.05 },
  { provider: 'vendor_d', model: 'flux-pro-1.0-canny', operation: 'control', cost_per_request: 0.05 },
  { provider: 'vendor_d', model: 'flux-pro-1.0-depth', operation: 'control', cost_per_request: 0.05 },
  { provider: 'vendor_d', model: ANY_MODEL, operation: 'control', cost_per_request: 0.05 },
  // vendor_e = Replicate predictions API (official models, priced per output image)
  { provider: 'vendor_e', model: 'black-forest-labs/flux-schnell', operation: 'generate', cost_per_request: 0.003 },
  { provider: 'vendor_e', model: 'black-forest-labs/flux-dev', operation: 'generate', cost_per_request: 0.025 },
  { provider: 'vendor_e', model: 'black-forest-labs/flux-1.1-pro', operation: 'generate', cost_per_request: 0.04 },
  { provider: 'vendor_e', model: ANY_MODEL, operation: 'generate', cost_per_request: 0.04 },
  { provider: 'vendor_e', model: 'black-forest-labs/flux-kontext-pro', operation: 'edit', cost_per_request: 0.04 },
  { provider: 'vendor_e', model: ANY_MODEL, operation: 'edit', cost_per_request: 0.04 },
  { provider: 'vendor_e', model: 'recraft-ai/recraft-creative-upscale', operation: 'upscale', cost_per_request: 0.25 },
  { provider: 'vendor_e', model: ANY_MODEL, operation: 'upscale', cost_per_request: 0.25 },
  { provider: 'vendor_e', model: 'black-forest-labs/flux-canny-pro', operation: 'control', cost_per_request: 0.05 },
  { provider: 'vendor_e', model: 'black-forest-labs/flux-depth-pro', operation: 'control', cost_per_request: 0.05 },
  { provider: 'vendor_e', model: ANY_MODEL, operation: 'control', cost_per_request: 0.05 },
  // vendor_a = OpenAI Images API (1024x1024, medium quality for gpt-image-1, standard for dall-e-3)
  { provider: 'vendor_a', model: 'gpt-image-1', operation: 'generate', cost_per_request: 0.042 },
  { provider: 'vendor_a', model: 'dall-e-3', operation: 'generate', cost_per_request: 0.04 },
  { provider: 'vendor_a', model: 'dall-e-2', operation: 'generate', cost_per_request: 0.02 },
  { provider: 'vendor_a', model: ANY_MODEL, operation: 'generate', cost_per_request: 0.042 },
  { provider: 'vendor_a', model: 'gpt-image-1', operation: 'edit', cost_per_request: 0.042 },
  { provider: 'vendor_a', model: 'dall-e-2', operation: 'edit', cost_per_request: 0.02 },
  { provider: 'vendor_a', model: ANY_MODEL, operation: 'edit', cost_per_request: 0.042 },
  // research: one web-search query; the local corpus is free
  { provider: 'web_search', cost_per_request: 0.008 },
  { provider: 'corpus', cost_per_request: 0 },
  // keyword data: one DataForSEO Google Ads live task (its published price per task)
  { provider: 'dataforseo', cost_per_request: 0.075 },
  // media (docs/video.md "Metering"): a request of `render` is one started minute of rendered video (the worker's
  // compute, at the price of a small VM's minute); one of `tts_vendor` is a started 1,000 characters of vendor
  // speech (OpenAI tts-1's published $15 per million characters). Offline speech (espeak-ng) is free.
  { provider: 'render', cost_per_request: 0.001 },
  { provider: 'tts_vendor', cost_per_request: 0.015 },
] as PricingEntry[]);

export class PricingError extends Error {
  readonly code = 'PRICING_UNKNOWN_PROVIDER';
  constructor(
    readonly provider: string,
    readonly model?: string,
  ) {
    super(`No price for provider "${provider}"${model ? ` model "${model}"` : ''} in domain/pricing.ts`);
    this.name = 'PricingError';
  }
}

const isTokenEntry = (e: PricingEntry): e is TokenPricingEntry => 'input_cost_per_1m' in e;
const isImageEntry = (e: PricingEntry): e is ImagePricingEntry => 'operation' in e;

/** The pricing table as served to clients (a copy: callers cannot edit the list). */
export function pricingTable(): PricingEntry[] {
  return PRICING.map((e) => ({ ...e }));
}

/** The row that prices `model` of `provider`: its own row, its family's row, else the provider's `*` row. */
export function priceOf(provider: string, model?: string): PricingEntry | undefined {
  // Image rows are priced by imagePriceOf (per operation); text and search calls never match them.
  const rows = PRICING.filter((e) => e.provider === provider && !isImageEntry(e));
  if (rows.length === 0) return undefined;
  const tokenRows = rows.filter(isTokenEntry);
  if (tokenRows.length === 0) return rows[0];
  const exact = tokenRows.find((e) => e.model === model);
  if (exact) return exact;
  // A dated snapshot ("gpt-4o-mini-2024-07-18") is priced as its family: the longest row name it extends.
  const family = tokenRows
    .filter((e) => e.model !== ANY_MODEL && model !== undefined && model.startsWith(`${e.model}-`))
    .sort((a, b) => b.model.length - a.model.length)[0];
  return family ?? tokenRows.find((e) => e.model === ANY_MODEL);
}

/** Money is rounded to micro-dollars so sums of many small calls stay exact in reports. */
export const roundCost = (usd: number): number => Math.round(usd * 1e6) / 1e6;

/**
 * Cost of one call in US dollars. Token-priced providers: tokens × rate / 1M
 * for input and output separately. Request-priced providers: the per-request
 * price (token counts are ignored). Unknown provider: PricingError, never a
 * silent zero.
 */
export function cost(provider: string, model: string | undefined, tokensIn: number, tokensOut: number): number {
  const entry = priceOf(provider, model);
  if (!entry) throw new PricingError(provider, model);
  if (!isTokenEntry(entry)) return entry.cost_per_request;
  const tin = Math.max(0, tokensIn);
  const tout = Math.max(0, tokensOut);
  return roundCost((tin * entry.input_cost_per_1m + tout * entry.output_cost_per_1m) / 1_000_000);
}

/** The row that prices one image of `model` for `operation`: its own row, else the operation's `*` row. */
export function imagePriceOf(provider: string, model: string, operation: ImagePriceOperation): ImagePricingEntry {
  const rows = PRICING.filter((e): e is ImagePricingEntry => isImageEntry(e) && e.provider === provider);
  const row =
    rows.find((e) => e.operation === operation && e.model === model) ??
    rows.find((e) => e.operation === operation && e.model === ANY_MODEL);
  if (!row) throw new PricingError(provider, `${model} (${operation})`);
  return row;
}

/** Cost of `count` calls of a request-priced provider (e.g. num_variations images). */
export function requestCost(provider: RequestProvider, count = 1): number {
  const entry = priceOf(provider);
  if (!entry || isTokenEntry(entry)) throw new PricingError(provider);
  return roundCost(entry.cost_per_request * Math.max(0, count));
}
