/**
 * npm run bench:llm — the in-process language model through the platform beside node-llama-cpp alone, in one run.
 *
 * Two workloads, each generated twice with the same prompts and seeds (so both sides produce the same tokens):
 *   post:    one social post from a brief (one generation);
 *   section: a blog section rephrased sentence by sentence (one generation per sentence, about a dozen).
 * platform: Temporal client request → workflow (shortCopyWorkflow / blogSectionGenerateWorkflow) → activity →
 *           gateway (reserve/settle in PostgreSQL) → llama provider (template writer, gate, claim check) →
 *           llama host thread → model;
 * bare:     node-llama-cpp in this process's main thread: the same model file, context size and threads, the same
 *           chat turns, sampling and seeds. Like the platform's contexts, its sequence keeps the last conversation
 *           (a shared system line and example are evaluated once); every run has its own topic, so every brief is new.
 *
 * Runs alternate (platform, bare, ...) after one warm-up each; medians are reported.
 * tokens/s = generated tokens / (end − request start); time to first token = first token − request start (the
 * platform reports the first token's epoch time in its response metadata; same clock, same process).
 * Settings: BENCH_LLM_RUNS (default 5), LLAMA_* as configured (LLAMA_MODEL_PATH for another GGUF file; threads per
 * context as the worker would use them: LLAMA_THREADS, default cores / LLAMA_CONTEXTS = 1 on a 2-core machine).
 */
import { randomUUID } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { bundleWorkflowCode, DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import type { ChatHistoryItem, LlamaChat } from 'node-llama-cpp';
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
  rewriteBudget,
} from '../../infra/ai/llama';
import type { Turn } from '../../infra/ai/llama';
import { createCorpusProvider, createResearchProvider, DEFAULT_CORPUS_DIR } from '../../infra/research';
import { copyTurns, hash32, rewriteTurns, rewriteUnits, writeSection } from '../../domain/generation';
import type { GenerationMetadata, ShortCopyInput, Source } from '../../domain/generation';
import { blogSectionGenerateWorkflow, shortCopyWorkflow } from '../../workflows';
import { benchSchema, percentile } from './lib';

const RUNS = Number(process.env.BENCH_LLM_RUNS ?? 5);
const importEsm = new Function('s', 'return import(s)') as (s: string) => Promise<typeof import('node-llama-cpp')>;

const TOPICS = [
  'planning a content calendar for the next quarter',
  'writing a weekly email newsletter',
  'repurposing blog posts for social media',
  'measuring the results of content marketing',
  'building buyer personas from customer interviews',
  'refreshing old blog posts',
  'choosing a publishing cadence',
];

interface Sample {
  tokens: number;
  ttftMs: number;
  totalMs: number;
  /** Time the model generated (platform: as the host measured it; bare: the whole run). */
  generationMs: number;
}

/** One generation of the bare side: chat turns, token budget, seed. */
interface Piece {
  turns: Turn[];
  maxTokens: number;
  seed: number;
}

/** A workload: the platform's request (returns the response metadata) and the same generations for the bare side. */
interface Workload {
  name: string;
  platform(i: number, workflowId: string): Promise<GenerationMetadata>;
  pieces(i: number, workflowId: string): Piece[];
}

const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );
const round = (x: number, d = 1) => Number(x.toFixed(d));

const history = (turns: Turn[]): ChatHistoryItem[] => [
  ...turns.map((t): ChatHistoryItem => {
    if (t.role === 'system') return { type: 'system', text: t.content };
    if (t.role === 'user') return { type: 'user', text: t.content };
    return { type: 'model', response: [t.content] };
  }),
  { type: 'model', response: [] },
];

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

  // Bare node-llama-cpp: same file, context size, threads.
  const lib = await importEsm('node-llama-cpp');
  const bareLlama = await lib.getLlama({ gpu: false, build: 'never', logLevel: lib.LlamaLogLevel.error });
  const bareModel = await bareLlama.loadModel({ modelPath: file });
  const bareContext = await bareModel.createContext({ contextSize: settings.contextSize, threads: settings.threads });
  const bareChat: LlamaChat = new lib.LlamaChat({ contextSequence: bareContext.getSequence() });
  const bare = async (pieces: Piece[]): Promise<Sample> => {
    const t0 = Date.now();
    let first = 0;
    let tokens = 0;
    for (const p of pieces)
      await bareChat.generateResponse(history(p.turns), {
        maxTokens: p.maxTokens,
        ...sampling,
        repeatPenalty: { penalty: sampling.repeatPenalty, lastTokens: 64 },
        seed: p.seed,
        onToken: (t) => {
          if (t.length && !first) first = Date.now();
          tokens += t.length;
        },
      });
    return { tokens, ttftMs: first - t0, totalMs: Date.now() - t0, generationMs: Date.now() - t0 };
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
  const corpus = createCorpusProvider({ dir: DEFAULT_CORPUS_DIR, publicBaseUrl: 'http://127.0.0.1:8000' });
  const research = createResearchProvider({ corpus });
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
    activities: createActivities({
      logger: createLogger('bench', 'warn'),
      copy: { gateway },
      blogSync: { gateway, research, store },
    }),
  });
  const running = worker.run();
  const temporal = await connectTemporal({ address: config.TEMPORAL_ADDRESS, namespace: config.TEMPORAL_NAMESPACE });

  const post = (i: number): ShortCopyInput => ({
    form: 'social_post',
    topic: TOPICS[i % TOPICS.length],
    audience: 'small marketing teams',
    keyPoints: ['plan the work weeks ahead', 'leave room for timely topics', 'review the results every month'],
    maxChars: 900,
  });
  const postWorkload: Workload = {
    name: 'post',
    async platform(i, workflowId) {
      const out = await temporal.client.workflow.execute(shortCopyWorkflow, {
        taskQueue,
        workflowId,
        args: [{ userId: 'bench-llm', copy: post(i) }],
      });
      return out.metadata;
    },
    // The provider's seed: activity key (workflow id / activity 1), then field path and target path.
    pieces: (i, workflowId) => [
      {
        turns: copyTurns('social_post', 900, post(i)),
        maxTokens: Math.ceil(900 / 3) + 8,
        seed: hash32(`${workflowId}/1|text|text`),
      },
    ],
  };

  const sources: Source[][] = await Promise.all(
    TOPICS.map(async (t) => (await corpus.search(t, { limit: 3 })).map((s, k) => ({ ...s, index: k + 1 }))),
  );
  const section = (i: number) => ({
    id: `bench-${i}`,
    heading: `Getting started with ${TOPICS[i % TOPICS.length]}`,
    key_points: ['start small', 'plan ahead', 'measure what works'],
    keywords: [TOPICS[i % TOPICS.length]],
    target_words: 120,
    references: sources[i % TOPICS.length],
  });
  const sectionWorkload: Workload = {
    name: 'section',
    async platform(i, workflowId) {
      const out = await temporal.client.workflow.execute(blogSectionGenerateWorkflow, {
        taskQueue,
        workflowId,
        args: [
          {
            userId: 'bench-llm',
            request: { section: section(i), keywords: [], tone: 'friendly', mode: 'draft', targetWords: 120 },
          },
        ],
      });
      return out.metadata;
    },
    // What writeSection (activity 2, after sectionSources) gives the model: the template's sentences, in order.
    pieces(i, workflowId) {
      const s = section(i);
      const markdown = writeSection({
        heading: s.heading,
        keyPoints: s.key_points,
        keywords: s.keywords,
        targetWords: 120,
        sources: s.references,
        tone: 'friendly',
      }).markdown;
      return rewriteUnits(markdown).units.map((u, k) => ({
        turns: rewriteTurns(u.text, 'friendly'),
        maxTokens: rewriteBudget(u.text),
        seed: hash32(`${workflowId}/2|||${k}`),
      }));
    },
  };

  const out: Record<string, unknown> = {
    model: modelName(file),
    model_size_bytes: (await llama.runtime.info()).sizeBytes,
    threads: settings.threads,
    context_size: settings.contextSize,
    cores: availableParallelism(),
    runs: RUNS,
    load_average_start: loadavg().map((x) => round(x, 2)),
  };
  try {
    for (const w of [postWorkload, sectionWorkload]) {
      const samples = { platform: [] as Sample[], bare: [] as Sample[] };
      // Run RUNS is the warm-up (bundle, connections, both models' first evaluation); not counted.
      for (const i of [RUNS, ...Array.from({ length: RUNS }, (_, k) => k)]) {
        const workflowId = `bench-llm-${w.name}-${randomUUID()}`;
        const t0 = Date.now();
        const m = await w.platform(i, workflowId);
        const totalMs = Date.now() - t0;
        if (m.provider !== 'llama') throw new Error(`expected llama, got ${m.provider}`);
        const b = await bare(w.pieces(i, workflowId));
        if (i === RUNS) continue;
        samples.platform.push({
          tokens: m.tokens_out,
          ttftMs: (m.first_token_at ?? t0) - t0,
          totalMs,
          generationMs: m.generation_ms ?? totalMs,
        });
        samples.bare.push(b);
      }
      for (const k of ['bare', 'platform'] as const) {
        const s = samples[k];
        out[`${w.name}_${k}_tokens`] = s.map((x) => x.tokens);
        out[`${w.name}_${k}_tokens_per_s`] = round(median(s.map((x) => (x.tokens / x.totalMs) * 1000)));
        out[`${w.name}_${k}_ttft_ms`] = Math.round(median(s.map((x) => x.ttftMs)));
        out[`${w.name}_${k}_total_ms`] = Math.round(median(s.map((x) => x.totalMs)));
      }
      // What the platform adds around the model: Temporal, PostgreSQL metering, template writer, gate, events.
      out[`${w.name}_platform_generation_ms`] = Math.round(median(samples.platform.map((x) => x.generationMs)));
      out[`${w.name}_platform_orchestration_ms`] = Math.round(
        median(samples.platform.map((x) => x.totalMs - x.generationMs)),
      );
      out[`${w.name}_ratio_tokens_per_s`] = round(
        (out[`${w.name}_platform_tokens_per_s`] as number) / (out[`${w.name}_bare_tokens_per_s`] as number),
        3,
      );
    }
  } finally {
    worker.shutdown();
    await running;
    await connection.close();
    await temporal.connection.close();
    await llama.runtime.close();
    await bareLlama.dispose();
    await schema.drop();
  }
  out.load_average_end = loadavg().map((x) => round(x, 2));
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
}

main().catch((e) => {
  process.stderr.write(`${(e as Error).stack}\n`);
  process.exit(1);
});
