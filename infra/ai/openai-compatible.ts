/**
 * Client of the OpenAI-compatible chat-completions protocol, with plain fetch.
 *
 * One protocol reaches OpenAI, Gemini's OpenAI-compatible endpoint, and the
 * local servers (Ollama, vLLM, llama.cpp's server, LM Studio): the base URL
 * decides which. We do not use the `openai` package because the behaviour we
 * must control (retries, Retry-After, per-attempt time-outs, typed errors) is
 * all in ./http.ts, and a second retry layer inside an SDK would multiply
 * attempts (and charges) behind our back.
 *
 * Not every compatible server supports every parameter: structured outputs
 * (`json_schema`, then `json_object`, then the schema in the prompt) and
 * streaming (`stream_options`, then `stream`, then none) step down when the
 * server refuses them by name, and each client remembers what its server
 * refused so later calls do not pay for the refusal again.
 */
import { postEventStreamWithRetry, postJsonWithRetry, HttpRetryOptions } from './http';
import { VendorBadResponseError, VendorRequestRejectedError, VendorUnavailableError } from './errors';
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
  /** Ask for a JSON answer matching `schema` (structured outputs where the server has them). */
  responseFormat?: ResponseFormat;
  /** Streams the answer: called after each content chunk with the text so far and the chunks so far (≈ tokens). */
  onDelta?: (progress: ChatProgress) => void;
}

export interface ResponseFormat {
  /** Sent as json_schema.name after sanitising to [a-zA-Z0-9_-]{1,64}. */
  name: string;
  schema: Record<string, unknown>;
}

export interface ChatProgress {
  text: string;
  tokens: number;
}

/** How a structured answer was obtained, strongest first. */
export type StructuredMode = 'json_schema' | 'json_object' | 'prompt';

export interface ChatResult {
  text: string;
  /** `stop`, `length`, `content_filter`, ... as the vendor reports it; `unknown` when absent. */
  finishReason: string;
  /** The model the vendor says answered (may be more specific than the configured one). */
  model: string;
  /** Present only when the vendor reported it. */
  usage?: ReportedUsage;
  /** Attempts of the request that answered (refused requests of a step-down are not counted). */
  attempts: number;
  /** With `responseFormat`: the mode the answer came from. */
  structuredMode?: StructuredMode;
  /** With `onDelta`: whether the answer actually arrived as a stream. */
  streamed?: boolean;
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

/** One event of a streamed completion (`error` is how vLLM and proxies report a failure mid-stream). */
interface ChunkBody {
  model?: unknown;
  choices?: Array<{ delta?: { content?: unknown }; finish_reason?: unknown }>;
  usage?: CompletionBody['usage'];
  error?: unknown;
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

/**
 * The structured-output requests tried in turn: a JSON Schema (OpenAI, vLLM, Ollama, llama.cpp's own server), JSON
 * mode with the schema beside it (llama-cpp-python turns it into a grammar), plain JSON mode, the prompt alone.
 * Both JSON-mode requests are reported as `json_object`.
 */
type FormatRequest = 'json_schema' | 'json_object_schema' | 'json_object' | 'prompt';
const FORMAT_REQUESTS: FormatRequest[] = ['json_schema', 'json_object_schema', 'json_object', 'prompt'];
const reportedMode = (f: FormatRequest): StructuredMode => (f === 'json_object_schema' ? 'json_object' : f);
/** Streaming as asked, without the usage option, not at all. */
type StreamMode = 'stream_options' | 'stream' | 'off';
const STREAM_MODES: StreamMode[] = ['stream_options', 'stream', 'off'];

const FORMAT_WORDS = /response_format|json_schema|json_object|schema|grammar/i;
const STREAM_WORDS = /\bstream(ing|_options)?\b/i;

/**
 * A server refusing a parameter family: 400/422 whose body names it. Any other rejection (a bad key, an
 * unknown model, a prompt too long) is a real error and must surface, not be hidden by a step-down.
 */
const refuses = (e: unknown, words: RegExp): boolean =>
  e instanceof VendorRequestRejectedError &&
  (e.status === 400 || e.status === 422 || e.status === 500) &&
  words.test(e.message);

const schemaName = (name: string): string => name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64) || 'response';

/**
 * Without json_schema the schema travels in the prompt (json_object alone says nothing about the shape, and
 * OpenAI refuses json_object unless the messages mention JSON). Merged into a leading system message, since
 * some chat templates accept only one, first.
 */
function withSchemaInstruction(messages: ChatMessage[], schema: Record<string, unknown>): ChatMessage[] {
  const line = `Answer with one JSON object only, no prose around it, matching this JSON Schema: ${JSON.stringify(schema)}`;
  const [first, ...rest] = messages;
  if (first?.role === 'system') return [{ ...first, content: `${first.content}\n\n${line}` }, ...rest];
  return [{ role: 'system', content: line }, ...messages];
}

export function createOpenAiCompatibleClient(settings: VendorSettings, overrides: ClientOverrides = {}): ChatClient {
  const url = `${settings.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  // What this server is known to refuse, as the first mode to try; both only ever step down.
  let structuredFrom = 0;
  let streamFrom = 0;

  const httpOptions = (request: ChatRequest): HttpRetryOptions => ({
    ...overrides,
    vendor: settings.provider,
    timeoutMs: settings.timeoutMs,
    maxRetries: settings.maxRetries,
    signal: request.signal,
  });

  function bodyOf(request: ChatRequest, structured: FormatRequest | undefined, stream: StreamMode) {
    const format = request.responseFormat;
    const messages =
      format && structured !== 'json_schema'
        ? withSchemaInstruction(request.messages, format.schema)
        : request.messages;
    const body: Record<string, unknown> = { model: settings.model, messages };
    if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
    if (request.temperature !== undefined) body.temperature = request.temperature;
    if (format && structured === 'json_schema')
      body.response_format = {
        type: 'json_schema',
        json_schema: { name: schemaName(format.name), schema: format.schema, strict: true },
      };
    if (format && structured === 'json_object_schema')
      body.response_format = { type: 'json_object', schema: format.schema };
    if (structured === 'json_object') body.response_format = { type: 'json_object' };
    if (stream !== 'off') body.stream = true;
    if (stream === 'stream_options') body.stream_options = { include_usage: true };
    return body;
  }

  function completionOf(body: unknown, attempts: number): ChatResult {
    const json = body as CompletionBody;
    const choice = Array.isArray(json?.choices) ? json.choices[0] : undefined;
    const text = textOf(choice?.message?.content);
    if (text === undefined)
      throw new VendorBadResponseError(settings.provider, 'no choices[0].message.content in the completion');
    return {
      text,
      finishReason: typeof choice?.finish_reason === 'string' ? choice.finish_reason : 'unknown',
      model: typeof json.model === 'string' && json.model ? json.model : settings.model,
      usage: usageOf(json.usage),
      attempts,
    };
  }

  /** One streamed request: chunks are assembled into the same result as a completion. */
  async function streamOnce(
    request: ChatRequest,
    body: Record<string, unknown>,
    headers: Record<string, string>,
    onDelta: (progress: ChatProgress) => void,
  ): Promise<ChatResult> {
    let text = '';
    let tokens = 0;
    let choices = false;
    let finishReason: string | undefined;
    let usage: ReportedUsage | undefined;
    let model: string | undefined;
    const res = await postEventStreamWithRetry(url, body, headers, httpOptions(request), (data, attempt) => {
      const chunk = (data ?? {}) as ChunkBody;
      if (chunk.error)
        throw new VendorUnavailableError(
          settings.provider,
          undefined,
          `error in the event stream: ${JSON.stringify(chunk.error).slice(0, 300)}`,
          attempt,
        );
      if (typeof chunk.model === 'string' && chunk.model) model = chunk.model;
      usage = usageOf(chunk.usage) ?? usage;
      const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
      if (!choice) return;
      choices = true;
      if (typeof choice.finish_reason === 'string') finishReason = choice.finish_reason;
      const piece = textOf(choice.delta?.content);
      if (!piece) return;
      text += piece;
      tokens++;
      onDelta({ text, tokens });
    });
    if (!res.streamed) return { ...completionOf(res.body, res.attempts), streamed: false };
    // A stream cut short without [DONE] and before any finish_reason is a truncated answer, not a short one.
    if (!res.done && finishReason === undefined)
      throw new VendorUnavailableError(
        settings.provider,
        undefined,
        'the event stream ended before [DONE]',
        res.attempts,
      );
    if (!choices) throw new VendorBadResponseError(settings.provider, 'no choices in the event stream');
    return {
      text,
      finishReason: finishReason ?? 'unknown',
      model: model ?? settings.model,
      usage,
      attempts: res.attempts,
      streamed: true,
    };
  }

  /** One structured mode (or none): streamed when asked and the server streams, stepping down on refusals. */
  async function send(request: ChatRequest, structured: FormatRequest | undefined): Promise<ChatResult> {
    const headers: Record<string, string> = {};
    if (settings.apiKey) headers.authorization = `Bearer ${settings.apiKey}`;
    if (request.idempotencyKey) headers['idempotency-key'] = request.idempotencyKey;
    const onDelta = request.onDelta;
    if (onDelta) {
      for (let s = streamFrom; STREAM_MODES[s] !== 'off'; s++) {
        try {
          return await streamOnce(request, bodyOf(request, structured, STREAM_MODES[s]), headers, onDelta);
        } catch (e) {
          if (!refuses(e, STREAM_WORDS)) throw e;
          streamFrom = Math.max(streamFrom, s + 1);
        }
      }
    }
    const res = await postJsonWithRetry(url, bodyOf(request, structured, 'off'), headers, httpOptions(request));
    const result = completionOf(res.body, res.attempts);
    return onDelta ? { ...result, streamed: false } : result;
  }

  return {
    provider: settings.provider,
    model: settings.model,
    async complete(request: ChatRequest): Promise<ChatResult> {
      if (!request.responseFormat) return send(request, undefined);
      for (let m = structuredFrom; ; m++) {
        const mode = FORMAT_REQUESTS[m];
        try {
          return { ...(await send(request, mode)), structuredMode: reportedMode(mode) };
        } catch (e) {
          if (mode === 'prompt' || !refuses(e, FORMAT_WORDS)) throw e;
          structuredFrom = Math.max(structuredFrom, m + 1);
        }
      }
    },
  };
}
