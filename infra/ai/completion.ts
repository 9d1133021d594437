/**
 * What the AI gateway is asked and answers: the providers a call can go to, a completion's request and response
 * (with the metadata every call reports), a typed task's call and answer, and the gateway's interface itself
 * (built by createAiGateway, infra/ai/gateway.ts).
 */
import type { Coverage, ModelPlan } from '../../domain/generation';
import type { LocalTask } from '../../domain/ai/tasks';
import type { AiTask } from '../../domain/ai/task';
import type { LlamaMetadata } from './llama/provider';
import type { ChatMessage } from './tokens';

export type TextVendor = 'vendor_a' | 'vendor_b';
export type ResolvedProvider = TextVendor | 'llama' | 'local';
export type ProviderChoice = ResolvedProvider | 'auto';

export interface CompletionRequest {
  userId: string;
  /** Default `auto`: vendor_a if configured, else vendor_b, else llama (when its model is present and the call has a `modelPlan`), else local. */
  provider?: ProviderChoice;
  /** What the call is for (`blog.section`, `blog.outline`, ...): logged and returned in metadata. */
  purpose: string;
  messages: ChatMessage[];
  /** Completion budget; also the reserved estimate. Default 1024. */
  maxTokens?: number;
  temperature?: number;
  /** Workflow id + activity id: one key per logical call, the same on retries. */
  idempotencyKey: string;
  /** What `local` should do when it answers (ignored by real vendors, which read `messages`). */
  localTask?: LocalTask;
  /** What the in-process model (`llama`) may write over the template writer's answer; without one `auto` never picks it. */
  modelPlan?: ModelPlan;
  signal?: AbortSignal;
  /** Vendors: ask for JSON of this schema (json_schema, else json_object, else the prompt alone; see the client). */
  responseFormat?: { name: string; schema: Record<string, unknown> };
  /** Vendors: stream the answer, called with the text so far as it grows (progress and heartbeats). */
  onDelta?: (progress: { text: string; tokens: number }) => void;
}

/** How a JSON answer was obtained and read (vendors; logged per call and in the response metadata). */
export interface StructuredOutputInfo {
  /** What the server accepted: a JSON Schema, JSON mode, or neither (the prompt alone asked for JSON). */
  mode: 'json_schema' | 'json_object' | 'prompt';
  /** The first answer was valid JSON of the task's schema as written. */
  first_valid: boolean;
  /** `syntax`: read after closing a cut-short structure or stripping a wrapper; `reask`: a second call was needed. */
  repair: 'none' | 'syntax' | 'reask';
}

export interface CompletionResponse {
  text: string;
  /** `local` only: the offline writer's answer itself (an object for JSON tasks), so nothing re-parses its text. */
  value?: unknown;
  provider: ResolvedProvider;
  model: string;
  tokens_in: number;
  tokens_out: number;
  /** US dollars from domain/pricing.ts. */
  cost: number;
  /** `llama` adds model size, who wrote the text (model/template/mixed), the gate's verdicts and timings. */
  metadata: Partial<LlamaMetadata> & {
    provider: ResolvedProvider;
    model: string;
    /** True when the offline writer answered (no vendor involved). */
    offline: boolean;
    purpose: string;
    finish_reason: string;
    /** `vendor` when the vendor reported usage, `model` for llama (the model's own tokenizer), else `tokenizer` (js-tiktoken). */
    token_source: 'vendor' | 'tokenizer' | 'model';
    /** The offline writer's account of how it met the brief (local, and llama over the template writer). */
    coverage?: Coverage;
    /** Vendors: the structured-output mode the server accepted for this call. */
    structured_mode?: StructuredOutputInfo['mode'];
    /** Vendors, typed JSON tasks: how the answer was obtained and read. */
    structured_output?: StructuredOutputInfo;
    /** Vendors, Markdown tasks: follow-up calls that continued an answer cut at the output limit. */
    continuations?: number;
    /** The answer came as a stream. */
    streamed?: boolean;
  };
}

/** The call-specific part of a typed task call (the task supplies purpose, messages, budget, local task and plan). */
export type TaskCall = Pick<
  CompletionRequest,
  'userId' | 'idempotencyKey' | 'provider' | 'signal' | 'temperature' | 'onDelta'
>;

/** A typed task's answer, whichever provider gave it, and the call behind it. */
export interface TaskAnswer<O> {
  output: O;
  response: CompletionResponse;
}

export interface AiGateway {
  complete(request: CompletionRequest): Promise<CompletionResponse>;
  /**
   * One call of a typed task (domain/ai/task.ts): the answer as `O`. `local` answers the object itself; a vendor's
   * or the model's JSON answer is parsed and checked against the task's `output` schema (VENDOR_BAD_RESPONSE, not
   * retried, when it does not match); a Markdown task's answer is its trimmed text, whichever provider wrote it.
   */
  run<I, O>(task: AiTask<I, O>, input: I, call: TaskCall): Promise<TaskAnswer<O>>;
  /** The provider a choice resolves to now (throws VendorNotConfiguredError like `complete`). */
  resolve(choice?: ProviderChoice, wantsModel?: boolean): ResolvedProvider;
}
