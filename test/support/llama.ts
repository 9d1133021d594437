/**
 * The real default model for tests (fetched by scripts/test: ensure_llama_model in scripts/lib.sh), loaded once
 * per test file, and a worker whose gateway has it (no vendor configured: llama writes, local is the fallback).
 * Small contexts and one thread each: the machine is shared.
 */
import { existsSync } from 'node:fs';
import type { Knex } from 'knex';
import { createActivities } from '../../activities';
import { createEventStore } from '../../infra/eventstore';
import { Limits, PostgresUsageMeter } from '../../infra/quota/meter';
import { gatewayMeter } from '../../infra/quota/gateway-meter';
import { createAiGateway, createLocalProvider } from '../../infra/ai';
import {
  createLlamaProvider,
  createLlamaRuntime,
  defaultModelPath,
  LlamaProvider,
  modelName,
} from '../../infra/ai/llama';
import { createCorpusProvider, createResearchProvider, DEFAULT_CORPUS_DIR } from '../../infra/research';
import { startTestWorker, testLogger } from './env';

export function testLlama(opts: { contexts?: number; callBudgetMs?: number } = {}): LlamaProvider {
  const file = defaultModelPath();
  if (!existsSync(file))
    throw new Error(`${file} is missing: scripts/test fetches it (ensure_llama_model in scripts/lib.sh)`);
  return createLlamaProvider({
    runtime: createLlamaRuntime({ modelPath: file, contexts: opts.contexts ?? 2, threads: 1, contextSize: 1024 }),
    model: modelName(file),
    sampling: { temperature: 0.3, topK: 40, topP: 0.9, minP: 0.05, repeatPenalty: 1.1 },
    callBudgetMs: opts.callBudgetMs ?? 90_000,
  });
}

/**
 * A worker with the blog writer, blog edits, short copy and task activities, its gateway metered in PostgreSQL.
 * Heartbeats reach the server at most 0.5 s apart, so a cancellation arrives within one heartbeat (3 s).
 */
export async function startLlamaWorker(
  db: Knex,
  llama: LlamaProvider,
  opts: { limits?: Limits; taskQueue?: string } = {},
) {
  const store = createEventStore(db);
  const meter = new PostgresUsageMeter(db, store, async () => opts.limits ?? {});
  const gateway = createAiGateway({ local: createLocalProvider(), llama, meter: gatewayMeter(meter) });
  const research = createResearchProvider({
    corpus: createCorpusProvider({ dir: DEFAULT_CORPUS_DIR, publicBaseUrl: 'http://127.0.0.1:8000' }),
  });
  const worker = await startTestWorker(
    createActivities({
      logger: testLogger(),
      tasks: { store },
      blog: { gateway, research },
      blogSync: { gateway, research, store },
      copy: { gateway },
    }),
    opts.taskQueue,
    { maxHeartbeatThrottleInterval: '500ms' },
  );
  return { ...worker, store, meter, gateway };
}
