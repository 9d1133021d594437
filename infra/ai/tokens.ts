/**
 * Token counts for metering and billing.
 *
 * The vendor's own `usage` is the truth (it is what the vendor bills us), so
 * it wins whenever the response carries it. Otherwise (local servers that
 * omit usage, the offline `local` provider, streaming proxies) we count with
 * a real BPE tokenizer, js-tiktoken, whose vocabularies ship inside the
 * package: no network, same count on every machine. A words × constant guess
 * is wrong by 20-50 % on code, URLs, numbers and non-English text; this is
 * exact for OpenAI models and a close, documented stand-in for others.
 *
 * Encoding per model: o200k_base for the GPT-4o / 4.1 / o-series / GPT-5
 * families, cl100k_base for GPT-4 and GPT-3.5; every other model (Gemini,
 * Llama, Qwen, Mistral, ...) is counted with o200k_base because their own
 * tokenizers are not shipped in an npm package we could load offline.
 */
import { getEncoding, Tiktoken } from 'js-tiktoken';

export type EncodingName = 'o200k_base' | 'cl100k_base';

import type { ChatMessage } from '../../domain/ai/chat';
export type { ChatMessage };

export interface ReportedUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
}

export interface TokenCount {
  tokens_in: number;
  tokens_out: number;
  /** Where the numbers came from: the vendor's usage block or our tokenizer. */
  source: 'vendor' | 'tokenizer';
}

// Loading a vocabulary takes ~1-2 s, so each one is loaded once per process, on first use.
const encoders = new Map<EncodingName, Tiktoken>();

function encoder(name: EncodingName): Tiktoken {
  let enc = encoders.get(name);
  if (!enc) {
    enc = getEncoding(name);
    encoders.set(name, enc);
  }
  return enc;
}

export function encodingForModel(model: string): EncodingName {
  const m = model.toLowerCase();
  if (/^(gpt-4(?!o|\.)|gpt-3\.5|text-embedding-(ada|3))/.test(m)) return 'cl100k_base';
  return 'o200k_base';
}

/** Tokens of a plain string. */
export function countTextTokens(text: string, model: string): number {
  return text ? encoder(encodingForModel(model)).encode(text).length : 0;
}

/**
 * Tokens of a chat prompt as the chat-completions protocol frames it: each
 * message costs its content and role plus 3 framing tokens (4 when a name is
 * set), and the reply is primed with 3 more. This is the accounting OpenAI
 * documents for its chat models.
 */
export function countPromptTokens(messages: ChatMessage[], model: string): number {
  const enc = encoder(encodingForModel(model));
  let n = 3;
  for (const m of messages) {
    n += 3 + enc.encode(m.role).length + enc.encode(m.content ?? '').length;
    if (m.name) n += 1 + enc.encode(m.name).length;
  }
  return n;
}

/**
 * Tokens in and out of one call: the vendor's reported usage for each side it
 * reports, the tokenizer for any side it does not.
 */
export function countUsage(
  messages: ChatMessage[],
  completion: string,
  model: string,
  usage?: ReportedUsage,
): TokenCount {
  const reportedIn = usage && Number.isFinite(usage.prompt_tokens) ? Number(usage.prompt_tokens) : undefined;
  const reportedOut = usage && Number.isFinite(usage.completion_tokens) ? Number(usage.completion_tokens) : undefined;
  return {
    tokens_in: reportedIn ?? countPromptTokens(messages, model),
    tokens_out: reportedOut ?? countTextTokens(completion, model),
    source: reportedIn !== undefined && reportedOut !== undefined ? 'vendor' : 'tokenizer',
  };
}
