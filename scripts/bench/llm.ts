/**
 * npm run bench:llm — the in-process language model through the platform beside node-llama-cpp alone, in one run.
 *
 *   platform: Temporal client request → shortCopyWorkflow → writeCopy activity → gateway (reserve/settle in
 *             PostgreSQL) → llama provider → llama host thread → model (a social post from a brief);
 *   bare:     node-llama-cpp in this process's main thread, the same model file, context size, threads, chat
 *             history (system line, example, brief), sampling and seed, so it generates the same tokens. Like
 *             the platform's contexts, its sequence keeps the last conversation (the shared system line and
 *             example are evaluated once); each pair of runs has its own topic, so every brief is new to both.
 *
 * Runs alternate (platform, bare, platform, ...) after one warm-up each; medians are reported.
 * Tokens/s = generated tokens / (end − request start); time to first token = first token − request start
 * (the platform reports the first token's epoch time in the response metadata; same clock, same process).
 * Settings: BENCH_LLM_RUNS (default 5), BENCH_LLM_MAX_CHARS (social post limit, default 900), LLAMA_* as configured
 * (LLAMA_MODEL_PATH for another GGUF file; threads per context as the worker would use them: LLAMA_THREADS, default
 * cores / LLAMA_CONTEXTS, i.e. 1 on a 2-core machine with the default of one context per core).
 */
import { randomUUID } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { bundleWorkflowCode, DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import type { LlamaChat } from 'node-llama-cpp';
import { createActivities } from '../../activities';
import { loadConfig } from '../../infra/config';
import { createLogger } from '../../infra/logger';
import { connectTemporal } from '../../infra/temporal';
import { createEventStore } from '../../infra/eventstore';
import { PostgresUsageMeter } from '../../infra/quota/meter';
import { gatewayMeter } from '../../infra/quota/gateway-meter';
import { createAiGateway, createLocalProvider } from '../../infra/ai';
import {
  createLlamaProvider,
  createLlamaRuntime,
  hostSettings,
  modelName,
  modelPathFromConfig,
} from '../../infra/ai/llama';
import { copyTurns, hash32, MODEL_PLANS } from '../../domain/generation';
import type { ShortCopyInput } from '../../domain/generation';
import { shortCopyWorkflow } from '../../workflows';
import { benchSchema, percentile } from './lib';

const RUNS = Number(process.env.BENCH_LLM_RUNS ?? 5);
const MAX_CHARS = Number(process.env.BENCH_LLM_MAX_CHARS ?? 900);
const importEsm = new Function('s', 'return import(s)') as (s: string) => Promise<typeof import('node-llama-cpp')>;

interface Sample {
  tokens: number;
  ttftMs: number;
  totalMs: number;
  tokensPerS: number;
  /** Tokens after the first / time after the first token (for the platform: until the workflow's result arrived). */
  decodePerS: number;
}

const decode = (tokens: number, ttftMs: number, totalMs: number) =>
  tokens > 1 && totalMs > ttftMs ? ((tokens - 1) / (totalMs - ttftMs)) * 1000 : 0;

const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );
const round = (x: number, d = 1) => Number(x.toFixed(d));

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const config = loadConfig();
  const file = modelPathFromConfig(config);
  if (!file) throw new Error('no model file: run scripts/test or scripts/platform up once (or set LLAMA_MODEL_PATH)');
  const settings = hostSettings(config, file);
  const sampling = {
    temperature: Number(config.LLAMA_TEMPERATURE),
    topK: 40,
    topP: 0.9,
    minP: 0.05,
    repeatPenalty: 1.1,
  };
  const TOPICS = [
    'planning a content calendar for the next quarter',
    'writing a weekly email newsletter',
    'repurposing blog posts for social media',
    'measuring the results of content marketing',
    'building buyer personas from customer interviews',
    'refreshing old blog posts',
    'choosing a publishing cadence',
  ];
  const copyFor = (i: number): ShortCopyInput => ({
    form: 'social_post',
    topic: TOPICS[i % TOPICS.length],
    audience: 'small marketing teams',
    keyPoints: ['plan the work weeks ahead', 'leave room for timely topics', 'review the results every month'],
    maxChars: MAX_CHARS,
  });
  const maxTokens = Math.ceil(MAX_CHARS / 3) + 8; // the provider's budget for a write field

  // Bare node-llama-cpp: same file, context size, threads.
  const lib = await importEsm('node-llama-cpp');
  const llamaLib = await lib.getLlama({ gpu: false, build: 'never', logLevel: lib.LlamaLogLevel.error });
  const bareModel = await llamaLib.loadModel({ modelPath: file });
  const bareContext = await bareModel.createContext({ contextSize: settings.contextSize, threads: settings.threads });
  const bareChat: LlamaChat = new lib.LlamaChat({ contextSequence: bareContext.getSequence() });
  const bare = async (copy: ShortCopyInput, seed: number): Promise<Sample> => {
    const turns = copyTurns(copy.form, copy.maxChars, copy);
    const t0 = Date.now();
    let first = 0;
    let tokens = 0;
    await bareChat.generateResponse(
      [
        ...turns.map((t) =>
          t.role === 'system'
            ? { type: 'system' as const, text: t.content }
            : t.role === 'user'
              ? { type: 'user' as const, text: t.content }
              : { type: 'model' as const, response: [t.content] },
        ),
        { type: 'model', response: [] },
      ],
      {
        maxTokens,
        ...sampling,
        repeatPenalty: { penalty: sampling.repeatPenalty, lastTokens: 64 },
        seed,
        onToken: (t) => {
          if (t.length && !first) first = Date.now();
          tokens += t.length;
        },
      },
    );
    const totalMs = Date.now() - t0;
    return {
      tokens,
      ttftMs: first - t0,
      totalMs,
      tokensPerS: (tokens / totalMs) * 1000,
      decodePerS: decode(tokens, first - t0, totalMs),
    };
  };

  // The platform: private schema, metered gateway, a worker on its own task queue, the Temporal client.
  const schema = await benchSchema();
  const store = createEventStore(schema.db);
  const llama = createLlamaProvider({
    runtime: createLlamaRuntime(settings),
    model: modelName(file),
    sampling,
    callBudgetMs: config.LLAMA_CALL_BUDGET_MS,
  });
  const gateway = createAiGateway({
    local: createLocalProvider(),
    llama,
    meter: gatewayMeter(new PostgresUsageMeter(schema.db, store, async () => ({}))),
  });
  const { code } = await bundleWorkflowCode({
    workflowsPath: require.resolve('../../workflows'),
    logger: new DefaultLogger('WARN'),
  });
  const taskQueue = `bench-llm-${randomUUID().slice(0, 8)}`;
  const connection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
  const worker = await Worker.create({
    connection,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue,
    workflowBundle: { code },
    activities: createActivities({ logger: createLogger('bench', 'warn'), copy: { gateway } }),
  });
  const running = worker.run();
  const temporal = await connectTemporal({ address: config.TEMPORAL_ADDRESS, namespace: config.TEMPORAL_NAMESPACE });
  const platform = async (copy: ShortCopyInput): Promise<Sample & { seed: number; writer?: string }> => {
    const workflowId = `copy-bench-${randomUUID()}`;
    const t0 = Date.now();
    const out = await temporal.client.workflow.execute(shortCopyWorkflow, {
      taskQueue,
      workflowId,
      args: [{ userId: 'bench-llm', copy }],
    });
    const totalMs = Date.now() - t0;
    const m = out.metadata;
    if (m.provider !== 'llama') throw new Error(`expected llama, got ${m.provider}`);
    const ttftMs = (m.first_token_at ?? t0) - t0;
    return {
      tokens: m.tokens_out,
      ttftMs,
      totalMs,
      tokensPerS: (m.tokens_out / totalMs) * 1000,
      decodePerS: decode(m.tokens_out, ttftMs, totalMs),
      // The provider's seed for this call: activity key (workflow id / activity id 1), field path, target path.
      seed: hash32(`${workflowId}/1|text|text`),
      writer: m.writer,
    };
  };

  const samples = { bare: [] as Sample[], platform: [] as Sample[] };
  const out: Record<string, unknown> = {
    model: modelName(file),
    model_size_bytes: (await llama.runtime.info()).sizeBytes,
    threads: settings.threads,
    context_size: settings.contextSize,
    cores: availableParallelism(),
    runs: RUNS,
    max_tokens: maxTokens,
    load_average_start: loadavg().map((x) => round(x, 2)),
  };
  try {
    // Warm-up: workflow bundle loaded by the worker, connections, both models' first evaluation.
    const warm = await platform(copyFor(RUNS));
    await bare(copyFor(RUNS), warm.seed);
    for (let i = 0; i < RUNS; i++) {
      const p = await platform(copyFor(i));
      samples.platform.push(p);
      samples.bare.push(await bare(copyFor(i), p.seed)); // the same prompt and seed: the same tokens
    }
  } finally {
    worker.shutdown();
    await running;
    await connection.close();
    await temporal.connection.close();
    await llama.runtime.close();
    await llamaLib.dispose();
    await schema.drop();
  }
  for (const k of ['bare', 'platform'] as const) {
    out[`${k}_tokens`] = samples[k].map((s) => s.tokens);
    out[`${k}_tokens_per_s_median`] = round(median(samples[k].map((s) => s.tokensPerS)));
    out[`${k}_decode_tokens_per_s_median`] = round(median(samples[k].map((s) => s.decodePerS)));
    out[`${k}_ttft_ms_median`] = Math.round(median(samples[k].map((s) => s.ttftMs)));
    out[`${k}_total_ms_median`] = Math.round(median(samples[k].map((s) => s.totalMs)));
  }
  out.ratio_platform_to_bare_tokens_per_s = round(
    (out.platform_tokens_per_s_median as number) / (out.bare_tokens_per_s_median as number),
    3,
  );
  out.platform_overhead_ttft_ms = (out.platform_ttft_ms_median as number) - (out.bare_ttft_ms_median as number);
  out.load_average_end = loadavg().map((x) => round(x, 2));
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
}

main().catch((e) => {
  process.stderr.write(`${(e as Error).stack}\n`);
  process.exit(1);
});
