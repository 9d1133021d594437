/**
 * Configuration variables of the in-process language model `llama`
 * (infra/ai/llama/; docs/providers.md). Loaded by the Temporal worker only.
 * Part of CONFIG_VARS (infra/config/index.ts).
 */
import type { VarSpec } from './spec';

export const LLAMA_VARS = {
  LLAMA_MODEL_PATH: {
    type: 'string',
    default: '',
    description:
      'GGUF model file of the llama provider (any instruct model with a chat template); empty = the default SmolLM2-135M-Instruct the project scripts fetch into .tools/models/; "off" = no llama provider. A missing file means no llama provider',
  },
  LLAMA_CONTEXTS: {
    type: 'integer',
    default: 0,
    description: 'Generations the worker runs at the same time (one llama.cpp context each); 0 = one per CPU core',
    schema: { minimum: 0, maximum: 64 },
  },
  LLAMA_THREADS: {
    type: 'integer',
    default: 0,
    description: 'CPU threads of each context; 0 = CPU cores / LLAMA_CONTEXTS (at least 1)',
    schema: { minimum: 0, maximum: 256 },
  },
  LLAMA_CONTEXT_SIZE: {
    type: 'integer',
    default: 2048,
    description: 'Tokens one context holds (prompt + answer); memory grows with it and with the model',
    schema: { minimum: 256, maximum: 131072 },
  },
  LLAMA_CALL_BUDGET_MS: {
    type: 'integer',
    default: 120000,
    description:
      'Time one AI call may spend in the model; sentences not reached by then keep the template writer text (reported as time_budget). Keep it below the activity time-outs (3 min sync, 5 min tasks)',
    schema: { minimum: 1000, maximum: 3600000 },
  },
  LLAMA_TEMPERATURE: {
    type: 'string',
    default: '0.3',
    description:
      'Sampling temperature of the llama provider (0 = always the likeliest token); top-k 40, top-p 0.9, min-p 0.05, repeat penalty 1.1 over the last 64 tokens, seed from the call idempotency key',
    schema: { pattern: '^(0|[0-1](\\.\\d+)?|2(\\.0+)?)$' },
  },
} as const satisfies Record<string, VarSpec>;
