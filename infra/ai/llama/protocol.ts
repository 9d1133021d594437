/**
 * Messages between the llama runtime (the thread that calls the gateway) and
 * the llama host (the worker thread that owns node-llama-cpp and the model).
 * Plain data only: they cross threads by structured clone.
 */

export interface HostSettings {
  modelPath: string;
  /** Contexts in the pool: generations that run at the same time. */
  contexts: number;
  /** CPU threads of each context. */
  threads: number;
  /** Tokens each context holds (prompt + answer). */
  contextSize: number;
}

export interface Sampling {
  /** 0 = always the most likely token. */
  temperature: number;
  topK: number;
  topP: number;
  minP: number;
  /** Penalty on tokens among the last 64 (1 = none). */
  repeatPenalty: number;
  /** Same seed, same prompt, same answer: a Temporal retry writes the same text. */
  seed: number;
}

export interface Turn {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ModelInfo {
  /** File name without `.gguf` (what responses report as `model`). */
  name: string;
  /** `general.name` of the GGUF metadata, when present. */
  displayName?: string;
  file: string;
  sizeBytes: number;
  trainContextSize: number;
  contextSize: number;
  contexts: number;
  threads: number;
  /** The chat format node-llama-cpp chose from the model file's template (ChatML, Llama 3, ...). */
  chatWrapper: string;
  loadMs: number;
}

export type StopReason = 'eos' | 'max_tokens' | 'stop_trigger' | 'aborted';

export interface HostGeneration {
  text: string;
  tokensIn: number;
  tokensOut: number;
  stopReason: StopReason;
  /** Epoch milliseconds: queued (request received), started (context acquired), first token, finished. */
  queuedAt: number;
  startedAt: number;
  firstTokenAt?: number;
  finishedAt: number;
}

export type ToHost =
  | { type: 'generate'; id: number; turns: Turn[]; maxTokens: number; sampling: Sampling; grammar?: string }
  | { type: 'abort'; id: number }
  | { type: 'count'; id: number; text: string }
  | { type: 'close' };

export type FromHost =
  | { type: 'ready'; info: ModelInfo }
  | { type: 'load_failed'; message: string }
  | { type: 'first_token'; id: number; at: number }
  | { type: 'done'; id: number; result: HostGeneration }
  | { type: 'failed'; id: number; message: string; aborted: boolean }
  | { type: 'counted'; id: number; tokens: number }
  | { type: 'closed' };
