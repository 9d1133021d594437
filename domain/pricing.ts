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
 * `local` (the offline writer) and the local research corpus cost nothing;
 * so does `llama` (a model running on the platform's own CPU) until a
 * deployment prices its compute by editing its row.
 */

export type TokenProvider = 'vendor_a' | 'vendor_b' | 'llama' | 'local';
export type RequestProvider = 'vendor_c' | 'vendor_d' | 'vendor_e' | 'web_search' | 'corpus';
export type PricedProvider = TokenProvider | RequestProvider;

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

export type PricingEntry = TokenPricingEntry | RequestPricingEntry;

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
  // image vendors: per generated image
  { provider: 'vendor_c', cost_per_request: 0.04 },
  { provider: 'vendor_d', cost_per_request: 0.03 },
  { provider: 'vendor_e', cost_per_request: 0.02 },
  // research: one web-search query; the local corpus is free
  { provider: 'web_search', cost_per_request: 0.008 },
  { provider: 'corpus', cost_per_request: 0 },
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

/** The pricing table as served to clients (a copy: callers cannot edit the list). */
export function pricingTable(): PricingEntry[] {
  return PRICING.map((e) => ({ ...e }));
}

/** The row that prices `model` of `provider`: its own row, its family's row, else the provider's `*` row. */
export function priceOf(provider: string, model?: string): PricingEntry | undefined {
  const rows = PRICING.filter((e) => e.provider === provider);
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

/** Cost of `count` calls of a request-priced provider (e.g. num_variations images). */
export function requestCost(provider: RequestProvider, count = 1): number {
  const entry = priceOf(provider);
  if (!entry || isTokenEntry(entry)) throw new PricingError(provider);
  return roundCost(entry.cost_per_request * Math.max(0, count));
}
