/**
 * The llama host: a worker thread of the process that uses the model (the
 * Temporal worker). It owns node-llama-cpp, loads the model once and serves
 * generations from a fixed pool of contexts, first come first served.
 *
 * Why a worker thread of its own: node-llama-cpp is an ES module with
 * top-level await, which a CommonJS program (this project, and jest's module
 * sandbox) cannot `require`; a thread loads it with Node's own `import()`.
 * It also keeps token handling off the thread that heartbeats activities.
 *
 * Nothing is compiled or downloaded at run time: `build: "never"` uses the
 * prebuilt CPU binary of the `@node-llama-cpp/linux-x64` package, `gpu: false`
 * (docs/providers.md).
 */
import { basename } from 'node:path';
import { statSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import type {
  ChatHistoryItem,
  Llama,
  LlamaChat,
  LlamaContextSequence,
  LlamaGrammar,
  LlamaModel,
  Token,
} from 'node-llama-cpp';
import type { FromHost, HostGeneration, HostSettings, ModelInfo, StopReason, ToHost, Turn } from './protocol';

// Node's own dynamic import: TypeScript would turn a plain `import()` into `require()` in this CommonJS project.
const importEsm = new Function('specifier', 'return import(specifier)') as (s: string) => Promise<unknown>;

type NodeLlamaCpp = typeof import('node-llama-cpp');

interface Slot {
  seq: LlamaContextSequence;
  chat: LlamaChat;
  busy: boolean;
}

interface Job {
  id: number;
  controller: AbortController;
  run(slot: Slot): Promise<void>;
}

const port = parentPort!;
const settings = workerData as HostSettings;
const send = (m: FromHost) => port.postMessage(m);

let model: LlamaModel | undefined;
let engine: Llama | undefined;
/** Compiled grammars by their GBNF text: a writer sends the same few grammars again and again. */
const grammars = new Map<string, Promise<LlamaGrammar>>();
let dispose: (() => Promise<void>) | undefined;
const slots: Slot[] = [];
const waiting: Job[] = [];
const running = new Map<number, AbortController>();
/** Aborts that arrived before their generation did (while the model was still loading). */
const abortedEarly = new Set<number>();

async function load(): Promise<ModelInfo> {
  const t0 = Date.now();
  const lib = (await importEsm('node-llama-cpp')) as NodeLlamaCpp;
  const llama = await lib.getLlama({ gpu: false, build: 'never', logLevel: lib.LlamaLogLevel.error });
  engine = llama;
  model = await llama.loadModel({ modelPath: settings.modelPath });
  for (let i = 0; i < settings.contexts; i++) {
    const context = await model.createContext({ contextSize: settings.contextSize, threads: settings.threads });
    const seq = context.getSequence();
    slots.push({ seq, chat: new lib.LlamaChat({ contextSequence: seq }), busy: false });
  }
  dispose = () => llama.dispose();
  const meta = model.fileInfo.metadata as { general?: { name?: string } };
  return {
    name: basename(settings.modelPath).replace(/\.gguf$/i, ''),
    displayName: meta.general?.name,
    file: settings.modelPath,
    sizeBytes: statSync(settings.modelPath).size,
    trainContextSize: model.trainContextSize,
    contextSize: settings.contextSize,
    contexts: settings.contexts,
    threads: settings.threads,
    chatWrapper: slots[0]?.chat.chatWrapper.wrapperName ?? 'unknown',
    loadMs: Date.now() - t0,
  };
}

const history = (turns: Turn[]): ChatHistoryItem[] => [
  ...turns.map((t): ChatHistoryItem => {
    if (t.role === 'system') return { type: 'system', text: t.content };
    if (t.role === 'user') return { type: 'user', text: t.content };
    return { type: 'model', response: [t.content] };
  }),
  { type: 'model', response: [] },
];

const STOP: Record<string, StopReason> = {
  eogToken: 'eos',
  maxTokens: 'max_tokens',
  stopGenerationTrigger: 'stop_trigger',
  customStopTrigger: 'stop_trigger',
  abort: 'aborted',
};

/** The compiled grammar of a GBNF text (a grammar that does not parse fails the generation that brought it). */
function grammarOf(gbnf: string): Promise<LlamaGrammar> {
  let g = grammars.get(gbnf);
  if (!g) {
    g = engine!.createGrammar({ grammar: gbnf });
    grammars.set(gbnf, g);
    if (grammars.size > 32) grammars.delete(grammars.keys().next().value!);
    g.catch(() => grammars.delete(gbnf));
  }
  return g;
}

/** Hands free contexts to waiting jobs, oldest first. */
function dispatch(): void {
  for (const slot of slots) {
    if (slot.busy || waiting.length === 0) continue;
    const job = waiting.shift()!;
    slot.busy = true;
    running.set(job.id, job.controller);
    void job.run(slot).finally(() => {
      slot.busy = false;
      running.delete(job.id);
      dispatch();
    });
  }
}

function generate(m: Extract<ToHost, { type: 'generate' }>): void {
  if (abortedEarly.delete(m.id))
    return send({ type: 'failed', id: m.id, message: 'aborted before it started', aborted: true });
  const queuedAt = Date.now();
  const controller = new AbortController();
  waiting.push({
    id: m.id,
    controller,
    async run(slot) {
      const startedAt = Date.now();
      let firstTokenAt: number | undefined;
      let tokensOut = 0;
      try {
        const chatHistory = history(m.turns);
        const tokensIn = slot.chat.chatWrapper
          .generateContextState({ chatHistory })
          .contextText.tokenize(model!.tokenizer).length;
        const grammar = m.grammar === undefined ? undefined : await grammarOf(m.grammar);
        // The sequence keeps the last conversation: a prompt that starts the same way reuses its evaluation.
        const r = await slot.chat.generateResponse(chatHistory, {
          ...(grammar ? { grammar } : {}),
          maxTokens: m.maxTokens,
          temperature: m.sampling.temperature,
          topK: m.sampling.topK,
          topP: m.sampling.topP,
          minP: m.sampling.minP,
          seed: m.sampling.seed,
          repeatPenalty: m.sampling.repeatPenalty > 1 ? { penalty: m.sampling.repeatPenalty, lastTokens: 64 } : false,
          signal: controller.signal,
          onToken: (tokens: Token[]) => {
            if (tokens.length && firstTokenAt === undefined) {
              firstTokenAt = Date.now();
              send({ type: 'first_token', id: m.id, at: firstTokenAt });
            }
            tokensOut += tokens.length;
          },
        });
        const result: HostGeneration = {
          text: r.response,
          tokensIn,
          tokensOut,
          stopReason: STOP[r.metadata.stopReason] ?? 'eos',
          queuedAt,
          startedAt,
          firstTokenAt,
          finishedAt: Date.now(),
        };
        send({ type: 'done', id: m.id, result });
      } catch (e) {
        send({
          type: 'failed',
          id: m.id,
          message: (e as Error)?.message ?? String(e),
          aborted: controller.signal.aborted,
        });
      }
    },
  });
  dispatch();
}

function abort(id: number): void {
  const queued = waiting.findIndex((j) => j.id === id);
  if (queued >= 0) {
    waiting.splice(queued, 1);
    send({ type: 'failed', id, message: 'aborted before it started', aborted: true });
    return;
  }
  const controller = running.get(id);
  if (controller) controller.abort(new Error('aborted'));
  else abortedEarly.add(id);
}

const loaded = load().then(
  (info) => {
    send({ type: 'ready', info });
    return true;
  },
  (e: unknown) => {
    send({ type: 'load_failed', message: (e as Error)?.message ?? String(e) });
    return false;
  },
);

port.on('message', (m: ToHost) => {
  if (m.type === 'abort') return abort(m.id);
  void loaded.then(async (ok) => {
    if (!ok) {
      if (m.type === 'generate') send({ type: 'failed', id: m.id, message: 'the model did not load', aborted: false });
      if (m.type === 'close') send({ type: 'closed' });
      return;
    }
    if (m.type === 'generate') generate(m);
    else if (m.type === 'count') send({ type: 'counted', id: m.id, tokens: model!.tokenize(m.text).length });
    else if (m.type === 'close') {
      for (const c of running.values()) c.abort(new Error('closing'));
      await dispose?.();
      send({ type: 'closed' });
    }
  });
});
