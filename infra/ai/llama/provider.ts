/**
 * The `llama` provider: a language model running in this process (llama.cpp
 * through node-llama-cpp, docs/providers.md), behind the gateway's client
 * interface.
 *
 * With a `modelPlan` (how the platform's writers call it) the template writer
 * answers first and the model writes the parts the plan names: it rephrases
 * the grounded composer's sentences (citations kept, numbers and names
 * checked, each sentence checked again by the claim checker against the
 * sources) or writes short copy from a brief. Every piece passes the quality
 * gate; a refused piece keeps the template writer's text and the metadata
 * says why. Without a plan (an explicit `provider: "llama"` chat call) the
 * model answers the messages like any vendor, through the same gate.
 *
 * Tokens are counted with the model's own tokenizer; the seed of every
 * generation comes from the call's idempotency key, so a retried activity
 * writes the same text.
 */
import {
  assemble,
  claimsHold,
  copyTurns,
  gateCopy,
  gateRewrite,
  gateText,
  hash32,
  localChatAnswer,
  rewriteTurns,
  rewriteUnits,
  targetsOf,
  withValue,
} from '../../../domain/generation';
import type {
  Coverage,
  FieldReport,
  GateReason,
  ModelField,
  ModelPlan,
  ModelWritingReport,
  Source,
} from '../../../domain/generation';
import type { LocalTask } from '../../../domain/ai/tasks';
import { VendorUnavailableError } from '../errors';
import { localAnswer } from '../local';
import type { ChatClient, ChatRequest, ChatResult } from '../openai-compatible';
import type { HostGeneration, Sampling, Turn } from './protocol';
import { LlamaLoadError, LlamaRuntime } from './runtime';

export interface LlamaRequest extends ChatRequest {
  localTask?: LocalTask;
  modelPlan?: ModelPlan;
}

export interface LlamaMetadata {
  model_size_bytes: number;
  /** Who wrote the text the caller gets: the model, the template writer, or both (piece by piece). */
  writer: 'model' | 'template' | 'mixed';
  /** Plan calls: what the model wrote, field by field, and what the gate refused and why. */
  model_writing?: ModelWritingReport;
  /** Chat calls whose answer the gate refused (the template writer answered). */
  fallback_reason?: GateReason;
  generations: number;
  /** Epoch milliseconds of the first generated token, and the time from the call to it. */
  first_token_at?: number;
  time_to_first_token_ms?: number;
  /** Time spent generating (all generations) and waiting for a free context. */
  generation_ms: number;
  queued_ms: number;
}

export interface LlamaResult extends ChatResult {
  /** How the template writer under the model met the brief (compose.ts). */
  coverage?: Coverage;
  usage: { prompt_tokens: number; completion_tokens: number };
  metadata: LlamaMetadata;
}

export interface LlamaProvider extends ChatClient {
  readonly provider: 'llama';
  readonly runtime: LlamaRuntime;
  /** False once the model failed to load: `auto` then stops choosing llama. */
  usable(): boolean;
  complete(request: LlamaRequest): Promise<LlamaResult>;
}

export interface LlamaProviderOptions {
  runtime: LlamaRuntime;
  /** Reported as `model` (the GGUF file name without `.gguf`). */
  model: string;
  /** Defaults of every generation; a request's `temperature` overrides the temperature. */
  sampling: Omit<Sampling, 'seed'>;
  /**
   * Time one plan call may spend generating; pieces not reached by then keep the template writer's text
   * (`time_budget`), so a long section on a slow CPU still ends within its activity's time-out.
   */
  callBudgetMs: number;
}

/** Chat messages as the model's turns (a `developer` message is a system message; tool output reads as user text). */
const turnsOf = (messages: LlamaRequest['messages']): Turn[] =>
  messages.map((m) => ({
    role: m.role === 'developer' ? 'system' : m.role === 'tool' ? 'user' : m.role,
    content: m.content,
  }));

const inputOf = (task?: LocalTask) => (task?.input ?? {}) as { tone?: string; sources?: Source[] };

/** Tokens to allow for a rephrased sentence: twice the original's estimate, plus room for punctuation. */
export const rewriteBudget = (sentence: string): number => Math.ceil(sentence.length / 2) + 16;

function parseTemplate(text: string): { doc: unknown; json: boolean } {
  if (!/^\s*[[{]/.test(text)) return { doc: text, json: false };
  try {
    return { doc: JSON.parse(text), json: true };
  } catch {
    return { doc: text, json: false };
  }
}

export function createLlamaProvider(o: LlamaProviderOptions): LlamaProvider {
  async function complete(req: LlamaRequest): Promise<LlamaResult> {
    const calledAt = Date.now();
    const generations: HostGeneration[] = [];
    let firstTokenAt: number | undefined;
    const generate: Generate = async (turns, maxTokens, seedKey, grammar) => {
      const g = await o.runtime.generate({
        turns,
        maxTokens,
        ...(grammar !== undefined ? { grammar } : {}),
        sampling: {
          ...o.sampling,
          temperature: req.temperature ?? o.sampling.temperature,
          seed: hash32(`${req.idempotencyKey ?? ''}|${seedKey}`),
        },
        signal: req.signal,
        onFirstToken: (at) => (firstTokenAt ??= at),
      });
      generations.push(g);
      return g;
    };
    let coverage: Coverage | undefined;
    const template = () => {
      if (!req.localTask) return localChatAnswer(req.messages);
      const answer = localAnswer(req.localTask);
      coverage = answer.coverage;
      return answer.text;
    };

    let text: string;
    let finishReason = 'stop';
    let writer: LlamaMetadata['writer'];
    let report: ModelWritingReport | undefined;
    let fallback: GateReason | undefined;
    try {
      if (req.modelPlan) {
        ({ text, report } = await runPlan(req, req.modelPlan, template(), generate, calledAt + o.callBudgetMs));
        writer = report.writer;
      } else {
        const g = await generate(turnsOf(req.messages), req.maxTokens ?? 1024, 'chat');
        const verdict = gateText(g.text);
        finishReason = g.stopReason === 'max_tokens' ? 'length' : 'stop';
        if (verdict.ok) [text, writer] = [verdict.text, 'model'];
        else [text, writer, fallback] = [template(), 'template', verdict.reason];
      }
    } catch (e) {
      if (e instanceof LlamaLoadError) throw new VendorUnavailableError('llama', undefined, e.message);
      throw e;
    }
    const info = await o.runtime.info();
    const sum = (f: (g: HostGeneration) => number) => generations.reduce((a, g) => a + f(g), 0);
    return {
      text,
      ...(coverage ? { coverage } : {}),
      finishReason,
      model: o.model,
      attempts: 1,
      usage: { prompt_tokens: sum((g) => g.tokensIn), completion_tokens: sum((g) => g.tokensOut) },
      metadata: {
        model_size_bytes: info.sizeBytes,
        writer,
        ...(report ? { model_writing: report } : {}),
        ...(fallback ? { fallback_reason: fallback } : {}),
        generations: generations.length,
        ...(firstTokenAt !== undefined
          ? { first_token_at: firstTokenAt, time_to_first_token_ms: firstTokenAt - calledAt }
          : {}),
        generation_ms: sum((g) => g.finishedAt - g.startedAt),
        queued_ms: sum((g) => g.startedAt - g.queuedAt),
      },
    };
  }

  return { provider: 'llama', model: o.model, runtime: o.runtime, usable: () => !o.runtime.loadError(), complete };
}

type Generate = (turns: Turn[], maxTokens: number, seedKey: string, grammar?: string) => Promise<HostGeneration>;

/** Runs every field of the plan over the template writer's answer; refused pieces keep the template's text. */
async function runPlan(
  req: LlamaRequest,
  plan: ModelPlan,
  templateText: string,
  generate: Generate,
  deadline: number,
): Promise<{ text: string; report: ModelWritingReport }> {
  const parsed = parseTemplate(templateText);
  let doc = parsed.doc;
  const sources = plan.sources ?? inputOf(req.localTask).sources ?? [];
  const tone = inputOf(req.localTask).tone ?? plan.fields.find((f) => f.brief?.tone)?.brief?.tone;
  const fields: FieldReport[] = [];
  let generations = 0;
  for (const field of plan.fields) {
    const r: FieldReport = {
      path: field.path,
      mode: field.mode,
      form: field.form,
      units: 0,
      written: 0,
      unchanged: 0,
      rejected: {},
    };
    const reject = (reason: GateReason) => (r.rejected[reason] = (r.rejected[reason] ?? 0) + 1);
    const tally: Tally = { generate, signal: req.signal, deadline, r, reject };
    for (const target of targetsOf(doc, field.path)) {
      const out =
        field.mode === 'rewrite'
          ? await rewrite(target.value, `${field.path}|${target.path}`, { ...tally, tone, sources })
          : await write(field, target.value, `${field.path}|${target.path}`, tally);
      generations += out.generations;
      doc = withValue(doc, target.path, out.text);
    }
    fields.push(r);
  }
  const units = fields.reduce((a, f) => a + f.units, 0);
  const written = fields.reduce((a, f) => a + f.written, 0);
  return {
    text: parsed.json ? JSON.stringify(doc) : (doc as string),
    report: { writer: written === 0 ? 'template' : written === units ? 'model' : 'mixed', generations, fields },
  };
}

interface Tally {
  generate: Generate;
  signal?: AbortSignal;
  deadline: number;
  r: FieldReport;
  reject: (reason: GateReason) => void;
}

/** A model text for one piece; a failed generation counts as `model_error` (cancellation is rethrown). */
async function attempt(t: Tally, turns: Turn[], maxTokens: number, key: string, grammar?: string) {
  if (Date.now() >= t.deadline) {
    t.reject('time_budget');
    return undefined;
  }
  try {
    return await t.generate(turns, maxTokens, key, grammar);
  } catch (e) {
    if (t.signal?.aborted || e instanceof LlamaLoadError) throw e;
    t.reject('model_error');
    return undefined;
  }
}

async function rewrite(
  value: string,
  key: string,
  t: Tally & { tone?: string; sources: Source[] },
): Promise<{ text: string; generations: number }> {
  const doc = rewriteUnits(value);
  const replacements = new Map<number, string>();
  let generations = 0;
  for (const [k, u] of doc.units.entries()) {
    t.r.units++;
    const g = await attempt(t, rewriteTurns(u.text, t.tone), rewriteBudget(u.text), `${key}|${k}`);
    if (!g) continue;
    generations++;
    // The gate compares the rephrased sentence with the one it rewrote (numbers, names, drift, and what it
    // says: `meaning_changed`), then the claim checker compares it with the sources. A refused sentence keeps
    // the template's text (no replacement) and counts under its reason.
    const verdict = gateRewrite(u.text, g.text);
    if (!verdict.ok) t.reject(verdict.reason);
    else if (!claimsHold(u.text, verdict.text, t.sources)) t.reject('claim_check');
    else if (verdict.text === u.text) t.r.unchanged++;
    else {
      replacements.set(k, verdict.text);
      t.r.written++;
    }
  }
  return { text: assemble(doc, replacements), generations };
}

async function write(
  field: ModelField,
  draft: string,
  key: string,
  t: Tally,
): Promise<{ text: string; generations: number }> {
  if (!field.form || !field.brief) throw new TypeError(`model plan field "${field.path}": write needs form and brief`);
  const b = field.brief;
  t.r.units++;
  const budget = field.maxChars ? Math.ceil(field.maxChars / 3) + 8 : 160;
  const g = await attempt(t, copyTurns(field.form, field.maxChars, b), budget, key, field.grammar);
  if (!g) return { text: draft, generations: 0 };
  const verdict = gateCopy(g.text, {
    form: field.form,
    maxChars: field.maxChars,
    material: [b.topic, b.audience ?? '', b.platform ?? '', ...(b.keyPoints ?? []), ...(b.facts ?? []), draft],
    subject: [b.topic, ...(b.keyPoints ?? [])].join(' '),
  });
  if (!verdict.ok) {
    t.reject(verdict.reason);
    return { text: draft, generations: 1 };
  }
  if (verdict.text === draft) t.r.unchanged++;
  else t.r.written++;
  return { text: verdict.text, generations: 1 };
}
