/**
 * Client of the OpenAI-compatible chat-completions protocol, with plain fetch.
 *
 * One protocol reaches OpenAI, Gemini's OpenAI-compatible endpoint, and the
 * local servers (Ollama, vLLM, llama.cpp's server, LM Studio): the base URL
 * decides which. We do not use the `openai` package because the behaviour we
 * must control (retries, Retry-After, per-attempt time-outs, typed errors) is
 * all in ./http.ts, and a second retry layer inside an SDK would multiply
 * attempts (and charges) behind our back.
 */
import { postJsonWithRetry, HttpRetryOptions } from './http';
import { VendorBadResponseError } from './errors';
import { ChatMessage, ReportedUsage } from './tokens';

export interface VendorSettings {
  /** Provider token used in errors, metering and pricing (`vendor_a`, `vendor_b`). */
  provider: string;
  /** e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1 (no trailing /chat/completions). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <key>`; omitted when empty (local servers). */
  apiKey?: string;
  model: string;
  /** Per-attempt time-out (AI_TIMEOUT_MS). */
  timeoutMs: number;
  /** Retries after the first attempt (AI_MAX_RETRIES). */
  maxRetries: number;
}

export interface ChatRequest {
  messages: ChatMessage[];
  maxTokens?: number;
  temperature?: number;
  /** Sent as the Idempotency-Key header; vendors and proxies that support it deduplicate retries. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export interface ChatResult {
  text: string;
  /** `stop`, `length`, `content_filter`, ... as the vendor reports it; `unknown` when absent. */
  finishReason: string;
  /** The model the vendor says answered (may be more specific than the configured one). */
  model: string;
  /** Present only when the vendor reported it. */
  usage?: ReportedUsage;
  attempts: number;
}

/** What the gateway needs from a text vendor; the local provider and test fakes implement it too. */
export interface ChatClient {
  readonly provider: string;
  readonly model: string;
  complete(request: ChatRequest): Promise<ChatResult>;
}

/** Test hooks: an alternative fetch, sleep, random source and backoff base. */
export type ClientOverrides = Pick<
  HttpRetryOptions,
  'fetch' | 'sleep' | 'random' | 'now' | 'backoffBaseMs' | 'backoffMaxMs' | 'maxRetryAfterMs'
>;

interface CompletionBody {
  model?: unknown;
  choices?: Array<{ message?: { content?: unknown }; finish_reason?: unknown }>;
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
}

/** `content` is a string in the protocol, but some servers send an array of text parts. */
function textOf(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    const parts = content.map((p) =>
      p && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string'
        ? (p as { text: string }).text
        : '',
    );
    return parts.join('');
  }
  return undefined;
}

function usageOf(u: CompletionBody['usage']): ReportedUsage | undefined {
  if (!u || typeof u !== 'object') return undefined;
  const out: ReportedUsage = {};
  if (typeof u.prompt_tokens === 'number') out.prompt_tokens = u.prompt_tokens;
  if (typeof u.completion_tokens === 'number') out.completion_tokens = u.completion_tokens;
  return out.prompt_tokens === undefined && out.completion_tokens === undefined ? undefined : out;
}

export function createOpenAiCompatibleClient(settings: VendorSettings, overrides: ClientOverrides = {}): ChatClient {
  const url = `${settings.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  return {
    provider: settings.provider,
    model: settings.model,
    async complete(request: ChatRequest): Promise<ChatResult> {
      const body: Record<string, unknown> = { model: settings.model, messages: request.messages };
      if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
      if (request.temperature !== undefined) body.temperature = request.temperature;
      const headers: Record<string, string> = {};
      if (settings.apiKey) headers.authorization = `Bearer ${settings.apiKey}`;
      if (request.idempotencyKey) headers['idempotency-key'] = request.idempotencyKey;

      const res = await postJsonWithRetry(url, body, headers, {
        ...overrides,
        vendor: settings.provider,
        timeoutMs: settings.timeoutMs,
        maxRetries: settings.maxRetries,
        signal: request.signal,
      });
      const json = res.body as CompletionBody;
      const choice = Array.isArray(json?.choices) ? json.choices[0] : undefined;
      const text = textOf(choice?.message?.content);
      if (text === undefined)
        throw new VendorBadResponseError(settings.provider, 'no choices[0].message.content in the completion');
      return {
        text,
        finishReason: typeof choice?.finish_reason === 'string' ? choice.finish_reason : 'unknown',
        model: typeof json.model === 'string' && json.model ? json.model : settings.model,
        usage: usageOf(json.usage),
        attempts: res.attempts,
      };
    },
  };
}
