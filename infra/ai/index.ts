/**
 * The AI provider layer: one gateway (createAiGateway) over OpenAI-compatible
 * text vendors and the offline `local` writer, with metering, token counting
 * and pricing. `aiGatewayFromConfig` wires it from the environment.
 */
import type { Logger } from 'pino';
import type { Config } from '../config';
import { createAiGateway, AiGatewayDeps } from './gateway';
import type { AiGateway, TextVendor } from './completion';
import { createOpenAiCompatibleClient, ChatClient } from './openai-compatible';
import type { UsageMeter } from './meter';
import type { LlamaProvider } from './llama';
import { modelContextTokens } from './context-size';

export * from './errors';
export * from './gateway';
export * from './completion';
export { chooseProvider, LLAMA_VARIABLES, VENDOR_VARIABLES } from './provider-choice';
export { completionBudget } from './completion-budget';
export { readJsonAnswer } from './json-answer';
export { MAX_CONTINUATIONS } from './markdown-answer';
export * from './meter';
export { createOpenAiCompatibleClient } from './openai-compatible';
export type { ChatClient, ChatRequest, ChatResult, VendorSettings } from './openai-compatible';
export { createLocalProvider, runLocalTask } from './local';
export { countPromptTokens, countTextTokens, countUsage, encodingForModel } from './tokens';
export type { ChatMessage, ReportedUsage, TokenCount } from './tokens';

/** The text vendors configured in `c` (an empty base URL leaves a vendor out). */
export function vendorsFromConfig(c: Config): Partial<Record<TextVendor, ChatClient>> {
  const out: Partial<Record<TextVendor, ChatClient>> = {};
  if (c.VENDOR_A_BASE_URL)
    out.vendor_a = createOpenAiCompatibleClient({
      provider: 'vendor_a',
      baseUrl: c.VENDOR_A_BASE_URL,
      apiKey: c.VENDOR_A_API_KEY,
      model: c.VENDOR_A_MODEL,
      timeoutMs: c.AI_TIMEOUT_MS,
      maxRetries: c.AI_MAX_RETRIES,
    });
  if (c.VENDOR_B_BASE_URL)
    out.vendor_b = createOpenAiCompatibleClient({
      provider: 'vendor_b',
      baseUrl: c.VENDOR_B_BASE_URL,
      apiKey: c.VENDOR_B_API_KEY,
      model: c.VENDOR_B_MODEL,
      timeoutMs: c.AI_TIMEOUT_MS,
      maxRetries: c.AI_MAX_RETRIES,
    });
  return out;
}

export { llamaFromConfig, createLlamaProvider, createLlamaRuntime, DEFAULT_MODEL, defaultModelPath } from './llama';
export type { LlamaProvider, LlamaMetadata, LlamaRuntime } from './llama';

/** `llama`: the in-process model (built by llamaFromConfig; absent when no model file is present). */
export function aiGatewayFromConfig(
  c: Config,
  meter: UsageMeter,
  logger?: Pick<Logger, 'info'>,
  llama?: LlamaProvider,
  onGenerating?: AiGatewayDeps['onGenerating'],
): AiGateway {
  const contextTokens: NonNullable<AiGatewayDeps['contextTokens']> = {};
  if (c.VENDOR_A_BASE_URL)
    contextTokens.vendor_a = modelContextTokens(
      { baseUrl: c.VENDOR_A_BASE_URL, apiKey: c.VENDOR_A_API_KEY, model: c.VENDOR_A_MODEL },
      c.VENDOR_A_CONTEXT_TOKENS,
    );
  if (c.VENDOR_B_BASE_URL)
    contextTokens.vendor_b = modelContextTokens(
      { baseUrl: c.VENDOR_B_BASE_URL, apiKey: c.VENDOR_B_API_KEY, model: c.VENDOR_B_MODEL },
      c.VENDOR_B_CONTEXT_TOKENS,
    );
  return createAiGateway({ vendors: vendorsFromConfig(c), meter, logger, llama, contextTokens, onGenerating });
}
