/**
 * Configuration variables of the AI provider layer (infra/ai/, infra/research/;
 * docs/providers.md): text vendors, time-outs and retries, web search and the
 * research corpus. Empty base URL = vendor not configured.
 * Part of CONFIG_VARS (infra/config/index.ts).
 */
import type { VarSpec } from './spec';

export const AI_VARS = {
  VENDOR_A_BASE_URL: {
    type: 'string',
    default: '',
    description:
      'OpenAI-compatible base URL of text vendor vendor_a (e.g. https://api.openai.com/v1, http://127.0.0.1:11434/v1); empty = not configured',
    schema: { pattern: '^(|https?://.+)$' },
  },
  VENDOR_A_API_KEY: {
    type: 'string',
    default: '',
    description: 'Bearer key of vendor_a (may stay empty for local servers such as Ollama)',
  },
  VENDOR_A_MODEL: {
    type: 'string',
    default: 'gpt-4o-mini',
    description: 'Model name sent to vendor_a; priced by domain/pricing.ts',
  },
  VENDOR_A_CONTEXT_TOKENS: {
    type: 'integer',
    default: 0,
    description:
      "Context size of vendor_a's model in tokens; completion budgets are cut to fit beside the prompt. 0 = read it from the server's model list (/models: llama.cpp's n_ctx, vLLM's max_model_len, context_length) when it says, else send each task's budget as it is",
    schema: { minimum: 0, maximum: 10000000 },
  },
  VENDOR_B_BASE_URL: {
    type: 'string',
    default: '',
    description:
      'OpenAI-compatible base URL of text vendor vendor_b (e.g. https://generativelanguage.googleapis.com/v1beta/openai); empty = not configured',
    schema: { pattern: '^(|https?://.+)$' },
  },
  VENDOR_B_API_KEY: { type: 'string', default: '', description: 'Bearer key of vendor_b' },
  VENDOR_B_MODEL: {
    type: 'string',
    default: 'gemini-2.0-flash',
    description: 'Model name sent to vendor_b; priced by domain/pricing.ts',
  },
  VENDOR_B_CONTEXT_TOKENS: {
    type: 'integer',
    default: 0,
    description: "Context size of vendor_b's model in tokens (as VENDOR_A_CONTEXT_TOKENS)",
    schema: { minimum: 0, maximum: 10000000 },
  },
  AI_TIMEOUT_MS: {
    type: 'integer',
    default: 60000,
    description: 'Time-out of one attempt of a text-vendor or web-search call (AbortSignal)',
    schema: { minimum: 100, maximum: 600000 },
  },
  AI_PROGRESS_EVERY_MS: {
    type: 'integer',
    default: 5000,
    description:
      "How often a streamed vendor generation adds a progress message to its task ('Writing blog.section: 180 tokens so far')",
    schema: { minimum: 200, maximum: 600000 },
  },
  AI_MAX_RETRIES: {
    type: 'integer',
    default: 3,
    description:
      'Retries after the first attempt on 429/5xx/time-out/network errors (exponential backoff with jitter, Retry-After honoured)',
    schema: { minimum: 0, maximum: 10 },
  },
  WEB_SEARCH_PROVIDER: {
    type: 'string',
    default: '',
    description: 'Web-search vendor for research: tavily or exa; empty = local corpus only',
    schema: { enum: ['', 'tavily', 'exa'] },
  },
  WEB_SEARCH_API_KEY: {
    type: 'string',
    default: '',
    description: 'Key of the web-search vendor (Tavily: Bearer; Exa: x-api-key)',
  },
  WEB_SEARCH_BASE_URL: {
    type: 'string',
    default: '',
    description: 'Base URL of the web-search vendor; empty = https://api.tavily.com or https://api.exa.ai',
    schema: { pattern: '^(|https?://.+)$' },
  },
  RESEARCH_CORPUS_DIR: {
    type: 'string',
    default: '',
    description: 'Folder of Markdown/HTML/text documents indexed for research; empty = data/corpus of the project',
  },
} as const satisfies Record<string, VarSpec>;
