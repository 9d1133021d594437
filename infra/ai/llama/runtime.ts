/**
 * The process's one handle on the model: starts the llama host thread on
 * first use (so only a process that generates pays the ~400 MB), and turns
 * its messages into promises. One runtime per process; `close()` frees the
 * model at shutdown.
 *
 * Cancellation: an aborted `signal` tells the host to stop that generation
 * (or drop it from the queue); the promise rejects at once with the signal's
 * reason, so a cancelled Temporal activity ends with its CancelledFailure.
 */
import { Worker } from 'node:worker_threads';
import type { FromHost, HostGeneration, HostSettings, ModelInfo, Sampling, ToHost, Turn } from './protocol';

export interface GenerateRequest {
  turns: Turn[];
  maxTokens: number;
  sampling: Sampling;
  /**
   * A GBNF grammar (llama.cpp's grammar format) the answer must follow: only tokens that keep the text inside the
   * grammar's language can be sampled, and the answer ends where the grammar does.
   */
  grammar?: string;
  signal?: AbortSignal;
  /** Called once, with the epoch time of the first generated token. */
  onFirstToken?: (at: number) => void;
}

export interface LlamaRuntime {
  readonly settings: HostSettings;
  /** Loads the model (once); resolves with what was loaded. */
  info(): Promise<ModelInfo>;
  /** Why the model could not be loaded, once that happened (the process keeps the verdict until it restarts). */
  loadError(): Error | undefined;
  generate(request: GenerateRequest): Promise<HostGeneration>;
  /**
   * Generations the host holds (waiting for a context or running) and those already producing tokens,
   * counted until the host itself reports them finished or stopped (not when a caller gave up on them);
   * `aborted`: generations the host stopped on a cancellation, since start; `requested`: generations asked of the
   * host, since start.
   */
  stats(): { inHost: number; generating: number; aborted: number; requested: number };
  /** Tokens of `text` by the model's own tokenizer. */
  countTokens(text: string): Promise<number>;
  close(): Promise<void>;
}

export class LlamaLoadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LlamaLoadError';
  }
}

interface Pending {
  resolve(value: never): void;
  reject(e: unknown): void;
  onFirstToken?: (at: number) => void;
}

/** The host's entry file, run through tsx's require hook when the project runs from TypeScript (dev, tests). */
function hostWorker(settings: HostSettings): Worker {
  const file = require.resolve('./host');
  const execArgv = /\.ts$/.test(file) ? ['--require', require.resolve('tsx/cjs')] : [];
  return new Worker(file, { workerData: settings, execArgv });
}

export function createLlamaRuntime(settings: HostSettings): LlamaRuntime {
  let worker: Worker | undefined;
  let ready: Promise<ModelInfo> | undefined;
  let closed: Promise<void> | undefined;
  let nextId = 1;
  let loadError: LlamaLoadError | undefined;
  const pending = new Map<number, Pending>();
  const inHost = new Set<number>();
  const generating = new Set<number>();
  let aborted = 0;
  let requested = 0;

  const failAll = (e: Error) => {
    for (const p of pending.values()) p.reject(e);
    pending.clear();
  };

  function start(): Promise<ModelInfo> {
    if (ready) return ready;
    ready = new Promise<ModelInfo>((resolve, reject) => {
      const w = hostWorker(settings);
      worker = w;
      // The host must never keep a finished process alive.
      w.unref();
      w.on('message', (m: FromHost) => {
        if (m.type === 'ready') return resolve(m.info);
        if (m.type === 'load_failed') {
          loadError = new LlamaLoadError(`could not load ${settings.modelPath}: ${m.message}`);
          reject(loadError);
          failAll(loadError);
          void w.terminate();
          return;
        }
        if (m.type === 'closed') return;
        if (m.type === 'first_token') generating.add(m.id);
        if (m.type === 'done' || m.type === 'failed') {
          inHost.delete(m.id);
          generating.delete(m.id);
          if (m.type === 'failed' && m.aborted) aborted++;
        }
        const p = pending.get(m.id);
        if (!p) return;
        if (m.type === 'first_token') return p.onFirstToken?.(m.at);
        pending.delete(m.id);
        if (m.type === 'done') p.resolve(m.result as never);
        else if (m.type === 'counted') p.resolve(m.tokens as never);
        else if (m.type === 'failed') p.reject(new Error(`llama generation failed: ${m.message}`));
      });
      w.on('error', (e) => {
        const err = new LlamaLoadError(`llama host failed: ${e.message}`);
        reject(err);
        failAll(err);
      });
      w.on('exit', () => {
        inHost.clear();
        generating.clear();
        failAll(new LlamaLoadError('llama host exited'));
        // A host that died (not closed on purpose) is started again on the next call.
        if (!closed && !loadError) ready = undefined;
      });
    });
    return ready;
  }

  type Call =
    | { type: 'generate'; turns: Turn[]; maxTokens: number; sampling: Sampling; grammar?: string }
    | { type: 'count'; text: string };

  async function call<T>(message: Call, extra: Partial<Pending> = {}) {
    await start();
    const id = nextId++;
    return {
      id,
      result: new Promise<T>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (v: never) => void, reject, ...extra });
        if (message.type === 'generate') {
          inHost.add(id);
          requested++;
        }
        worker!.postMessage({ ...message, id } as ToHost);
      }),
    };
  }

  return {
    settings,
    info: start,
    loadError: () => loadError,
    stats: () => ({ inHost: inHost.size, generating: generating.size, aborted, requested }),
    async generate(req) {
      req.signal?.throwIfAborted();
      const { id, result } = await call<HostGeneration>(
        { type: 'generate', turns: req.turns, maxTokens: req.maxTokens, sampling: req.sampling, grammar: req.grammar },
        { onFirstToken: req.onFirstToken },
      );
      if (!req.signal) return result;
      const signal = req.signal;
      return new Promise<HostGeneration>((resolve, reject) => {
        const onAbort = () => {
          worker?.postMessage({ type: 'abort', id } satisfies ToHost);
          pending.delete(id);
          reject(signal.reason);
        };
        if (signal.aborted) return onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
        result.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
      });
    },
    async countTokens(text) {
      return (await call<number>({ type: 'count', text })).result;
    },
    async close() {
      if (!worker || closed) return closed;
      const w = worker;
      closed = new Promise<void>((resolve) => {
        const done = () => resolve();
        w.on('message', (m: FromHost) => m.type === 'closed' && void w.terminate().then(done, done));
        w.once('exit', done);
        w.postMessage({ type: 'close' } satisfies ToHost);
      });
      return closed;
    },
  };
}
