/**
 * The one chokepoint every AI text call of the platform goes through, and
 * only from activities (a workflow calls an activity, the activity calls
 * this). Keeping one path means one place that chooses the provider, meters
 * the call, counts tokens and prices it, so no call can skip the plan limits.
 *
 * Sequence of `complete`:
 *   choose provider → count prompt tokens → meter.reserve(prompt + maxTokens)
 *   → provider call → tokens (vendor usage, else tokenizer) → cost (pricing
 *   table) → meter.settle; on any failure after reserve → meter.release and
 *   rethrow. A refused reservation (plan limit) throws before any vendor is
 *   contacted.
 */
import type { Logger } from 'pino';
import { storableText } from '../../domain/storable-text';
import { cost } from '../../domain/pricing';
import type { Coverage, ModelPlan } from '../../domain/generation';
import type { LocalTask } from '../../domain/ai/tasks';
import Ajv, { ValidateFunction } from 'ajv';
import { parseJsonAnswer } from '../../domain/ai/chat';
import {
  echoedInstruction,
  editingTalk,
  endAtSentence,
  jsonCandidates,
  joinContinuation,
  stripChatter,
} from '../../domain/ai/repair';
import { purposeOf, type AiTask } from '../../domain/ai/task';
import { type Spent, VendorBadResponseError, VendorContextExceededError, VendorNotConfiguredError } from './errors';
import type { ChatClient, ChatResult } from './openai-compatible';
import { createLocalProvider, LocalProvider } from './local';
import type { LlamaMetadata, LlamaProvider } from './llama/provider';
import { noopMeter, UsageMeter } from './meter';
import { ChatMessage, countPromptTokens, countTextTokens, countUsage } from './tokens';

export type TextVendor = 'vendor_a' | 'vendor_b';
export type ResolvedProvider = TextVendor | 'llama' | 'local';
export type ProviderChoice = ResolvedProvider | 'auto';

export interface CompletionRequest {
  userId: string;
  /** Default `auto`: vendor_a if configured, else vendor_b, else llama (when its model is present and the call has a `modelPlan`), else local. */
  provider?: ProviderChoice;
  /** What the call is for (`blog.section`, `blog.outline`, ...): logged and returned in metadata. */
  purpose: string;
  messages: ChatMessage[];
  /** Completion budget; also the reserved estimate. Default 1024. */
  maxTokens?: number;
  temperature?: number;
  /** Workflow id + activity id: one key per logical call, the same on retries. */
  idempotencyKey: string;
  /** What `local` should do when it answers (ignored by real vendors, which read `messages`). */
  localTask?: LocalTask;
  /** What the in-process model (`llama`) may write over the template writer's answer; without one `auto` never picks it. */
  modelPlan?: ModelPlan;
  signal?: AbortSignal;
  /** Vendors: ask for JSON of this schema (json_schema, else json_object, else the prompt alone; see the client). */
  responseFormat?: { name: string; schema: Record<string, unknown> };
  /** Vendors: stream the answer, called with the text so far as it grows (progress and heartbeats). */
  onDelta?: (progress: { text: string; tokens: number }) => void;
}

/** How a JSON answer was obtained and read (vendors; logged per call and in the response metadata). */
export interface StructuredOutputInfo {
  /** What the server accepted: a JSON Schema, JSON mode, or neither (the prompt alone asked for JSON). */
  mode: 'json_schema' | 'json_object' | 'prompt';
  /** The first answer was valid JSON of the task's schema as written. */
  first_valid: boolean;
  /** `syntax`: read after closing a cut-short structure or stripping a wrapper; `reask`: a second call was needed. */
  repair: 'none' | 'syntax' | 'reask';
}

export interface CompletionResponse {
  text: string;
  /** `local` only: the offline writer's answer itself (an object for JSON tasks), so nothing re-parses its text. */
  value?: unknown;
  provider: ResolvedProvider;
  model: string;
  tokens_in: number;
  tokens_out: number;
  /** US dollars from domain/pricing.ts. */
  cost: number;
  /** `llama` adds model size, who wrote the text (model/template/mixed), the gate's verdicts and timings. */
  metadata: Partial<LlamaMetadata> & {
    provider: ResolvedProvider;
    model: string;
    /** True when the offline writer answered (no vendor involved). */
    offline: boolean;
    purpose: string;
    finish_reason: string;
    /** `vendor` when the vendor reported usage, `model` for llama (the model's own tokenizer), else `tokenizer` (js-tiktoken). */
    token_source: 'vendor' | 'tokenizer' | 'model';
    /** The offline writer's account of how it met the brief (local, and llama over the template writer). */
    coverage?: Coverage;
    /** Vendors: the structured-output mode the server accepted for this call. */
    structured_mode?: StructuredOutputInfo['mode'];
    /** Vendors, typed JSON tasks: how the answer was obtained and read. */
    structured_output?: StructuredOutputInfo;
    /** Vendors, Markdown tasks: follow-up calls that continued an answer cut at the output limit. */
    continuations?: number;
    /** The answer came as a stream. */
    streamed?: boolean;
  };
}

export interface AiGatewayDeps {
  /** Configured text vendors; a missing entry means "not configured". */
  vendors?: Partial<Record<TextVendor, ChatClient>>;
  local?: LocalProvider;
  /** The in-process model; present only when its model file is. */
  llama?: LlamaProvider;
  meter?: UsageMeter;
  logger?: Pick<Logger, 'info'>;
  defaultMaxTokens?: number;
  /**
   * Each vendor's model context size in tokens (configured, or read from the server's model list): a call's
   * completion budget is cut to what fits beside its prompt. Absent: the task's budget is sent as it is.
   */
  contextTokens?: Partial<Record<TextVendor, () => Promise<number | undefined>>>;
  /**
   * Told as a vendor's answer streams in (every vendor call streams when this is set): the activities layer turns
   * it into heartbeats and task progress (activities/ai-call.ts, `generationProgress`).
   */
  onGenerating?: (call: { purpose: string; userId: string }, progress: { text: string; tokens: number }) => void;
}

/** The call-specific part of a typed task call (the task supplies purpose, messages, budget, local task and plan). */
export type TaskCall = Pick<
  CompletionRequest,
  'userId' | 'idempotencyKey' | 'provider' | 'signal' | 'temperature' | 'onDelta'
>;

/** Follow-up calls a Markdown answer cut at the output limit gets before it is ended at its last sentence. */
export const MAX_CONTINUATIONS = 2;

/**
 * An answer the vendor did not say it finished: stopped at the output limit (`length`), or ended without any
 * finish reason (`unknown`) — llama-cpp-python's server, for one, ends a stream with [DONE] and no reason when
 * another request interrupts it. Either may stop mid-sentence; `stop`, `content_filter` and the rest are final.
 */
const wasCut = (reason: string) => reason === 'length' || reason === 'unknown';

const isVendor = (p: ResolvedProvider): p is TextVendor => p === 'vendor_a' || p === 'vendor_b';

/** Two calls of one task answer as one: their tokens and cost added, the later call's text and metadata. */
/** What calls used together: tokens in and out, and cost. */
const plus = (a: Spent, b: Spent): Spent => ({
  tokens_in: a.tokens_in + b.tokens_in,
  tokens_out: a.tokens_out + b.tokens_out,
  cost: a.cost + b.cost,
});
const NOTHING: Spent = { tokens_in: 0, tokens_out: 0, cost: 0 };
const spentOf = (r: Spent): Spent => plus(r, NOTHING);

function combined(first: CompletionResponse, later: CompletionResponse, text: string): CompletionResponse {
  return { ...later, text, ...plus(first, later) };
}

/** A typed task's answer, whichever provider gave it, and the call behind it. */
export interface TaskAnswer<O> {
  output: O;
  response: CompletionResponse;
}

export interface AiGateway {
  complete(request: CompletionRequest): Promise<CompletionResponse>;
  /**
   * One call of a typed task (domain/ai/task.ts): the answer as `O`. `local` answers the object itself; a vendor's
   * or the model's JSON answer is parsed and checked against the task's `output` schema (VENDOR_BAD_RESPONSE, not
   * retried, when it does not match); a Markdown task's answer is its trimmed text, whichever provider wrote it.
   */
  run<I, O>(task: AiTask<I, O>, input: I, call: TaskCall): Promise<TaskAnswer<O>>;
  /** The provider a choice resolves to now (throws VendorNotConfiguredError like `complete`). */
  resolve(choice?: ProviderChoice, wantsModel?: boolean): ResolvedProvider;
}

export const VENDOR_VARIABLES: Record<TextVendor, string[]> = {
  vendor_a: ['VENDOR_A_BASE_URL', 'VENDOR_A_API_KEY', 'VENDOR_A_MODEL'],
  vendor_b: ['VENDOR_B_BASE_URL', 'VENDOR_B_API_KEY', 'VENDOR_B_MODEL'],
};

/** What makes `llama` available: a GGUF model file (the default one is fetched by the project's scripts). */
export const LLAMA_VARIABLES = ['LLAMA_MODEL_PATH'];

/**
 * Provider choice rule (pure): explicit if configured; `auto` = vendor_a, else
 * vendor_b, else llama when its model is present and the call says what the
 * model may write (`wantsModel`: it has a modelPlan), else local.
 */
export function chooseProvider(
  choice: ProviderChoice | undefined,
  configured: Record<TextVendor, boolean> & { llama?: boolean },
  wantsModel = false,
): ResolvedProvider {
  const c = choice ?? 'auto';
  if (c === 'local') return 'local';
  if (c === 'llama') {
    if (!configured.llama) throw new VendorNotConfiguredError('llama', LLAMA_VARIABLES);
    return 'llama';
  }
  if (c === 'auto')
    return configured.vendor_a
      ? 'vendor_a'
      : configured.vendor_b
        ? 'vendor_b'
        : configured.llama && wantsModel
          ? 'llama'
          : 'local';
  if (!configured[c]) throw new VendorNotConfiguredError(c, VENDOR_VARIABLES[c]);
  return c;
}

export function createAiGateway(deps: AiGatewayDeps = {}): AiGateway {
  const vendors = deps.vendors ?? {};
  const local = deps.local ?? createLocalProvider();
  const meter = deps.meter ?? noopMeter;
  const configured = { vendor_a: Boolean(vendors.vendor_a), vendor_b: Boolean(vendors.vendor_b) };
  // A model file that failed to load stops counting as configured (auto falls back to the template writer).
  const resolve = (choice?: ProviderChoice, wantsModel?: boolean) =>
    chooseProvider(choice, { ...configured, llama: deps.llama?.usable() ?? false }, wantsModel);

  /** One attempt of a task: the call, its continuations and its one re-ask. */
  const attempt = async <I, O>(task: AiTask<I, O>, input: I, call: TaskCall, fresh = false): Promise<TaskAnswer<O>> => {
    const purpose = purposeOf(task, input);
    const modelPlan = task.plan?.(input);
    const provider = resolve(call.provider, Boolean(modelPlan));
    // A vendor-only task has no offline writer: `local` would answer its prompt with an extractive summary.
    if (!task.local && provider === 'local') throw new TypeError(`${purpose}: a vendor-only task cannot run on local`);
    const vendor = isVendor(provider);
    const messages = task.prompt(input);
    const request: CompletionRequest = {
      ...call,
      purpose,
      messages,
      maxTokens: task.maxTokens(input),
      ...(task.local ? { localTask: task.local(input) } : {}),
      ...(modelPlan ? { modelPlan } : {}),
      ...(vendor && task.answer === 'json' && task.output
        ? { responseFormat: { name: purpose, schema: task.output } }
        : {}),
    };
    let response = await gateway.complete(request);
    /** The one second call an unusable answer gets: the answer and what was wrong, under `<key>:repair`. */
    const reask = (answer: string, complaint: string) =>
      gateway.complete({
        ...request,
        idempotencyKey: `${call.idempotencyKey}:repair`,
        messages: [
          ...messages,
          { role: 'assistant', content: answer.slice(0, 6000) },
          { role: 'user', content: complaint },
        ],
      });
    // Markdown is the text itself, whoever wrote it (the gateway's text: cleaned before anything stores it).
    if (task.answer === 'markdown') {
      if (!vendor) return { output: response.text.trim() as O, response };
      let written = await continueAnswer(gateway.complete, request, response);
      // An answer that is not the text asked for is asked again once, with what was wrong, then refused.
      let wrong = offTask(written.text, messages);
      if (wrong) {
        const again = await reask(written.text, `${wrong.ask} Write only the text that was asked for.`);
        const rewritten = await continueAnswer(
          gateway.complete,
          { ...request, idempotencyKey: `${call.idempotencyKey}:repair` },
          again,
        );
        written = combined(written, rewritten, rewritten.text);
        wrong = offTask(written.text, messages);
        if (wrong) throw new VendorBadResponseError(provider, `${purpose} answer ${wrong.refuse}`, spentOf(written));
      }
      // The text without the chat around it ("Here's your post:", "I hope this helps!").
      written = { ...written, text: stripChatter(written.text) };
      return { output: written.text.trim() as O, response: written };
    }
    if (response.provider === 'local' && response.value !== undefined) return { output: response.value as O, response };
    const check = validatorOf(task);
    const usable = task.usable && ((v: unknown) => task.usable!(v as O, input));
    let read = readJsonAnswer(response.text, check, usable);
    let repair: StructuredOutputInfo['repair'] = read.ok && read.repaired ? 'syntax' : 'none';
    const firstValid = read.ok && !read.repaired;
    if (!read.ok && vendor) {
      // One re-ask, with what was wrong: a second, metered call (its own idempotency key).
      const again = await reask(
        response.text,
        `That answer cannot be used: ${read.error}. Answer again with only one complete JSON object that matches the requested schema, shorter if needed.`,
      );
      response = combined(response, again, again.text);
      read = readJsonAnswer(again.text, check, usable);
      repair = 'reask';
    }
    if (vendor) {
      const structured: StructuredOutputInfo = {
        mode: response.metadata.structured_mode ?? 'prompt',
        first_valid: firstValid,
        repair,
      };
      response = { ...response, metadata: { ...response.metadata, structured_output: structured } };
      deps.logger?.info(
        { purpose, provider, structured_output: structured, valid: read.ok, attempt: fresh ? 'fresh' : 'first' },
        'ai structured answer',
      );
    }
    if (!read.ok)
      throw new VendorBadResponseError(
        response.provider,
        `${purpose} answer unusable: ${read.error}`,
        spentOf(response),
      );
    return { output: read.value as O, response };
  };

  const gateway: AiGateway = {
    resolve,
    async run<I, O>(task: AiTask<I, O>, input: I, call: TaskCall): Promise<TaskAnswer<O>> {
      try {
        return await attempt(task, input, call);
      } catch (e) {
        // Only a vendor's answer: the in-process model's and the template writer's are not sampled afresh here.
        if (!(e instanceof VendorBadResponseError) || !isVendor(e.vendor as ResolvedProvider)) throw e;
        // Still unusable after its re-ask: one fresh attempt (a new sample, its own idempotency key, each call
        // metered), since a sampling model seldom answers a new call the same way; then the refusal stands.
        deps.logger?.info({ purpose: purposeOf(task, input), reason: e.message }, 'ai fresh attempt');
        // The answer reports every call behind it, the refused attempt's too (each was metered).
        const first = e.spent ?? NOTHING;
        try {
          const fresh = await attempt(task, input, { ...call, idempotencyKey: `${call.idempotencyKey}:fresh` }, true);
          return { ...fresh, response: { ...fresh.response, ...plus(first, fresh.response) } };
        } catch (again) {
          if (again instanceof VendorBadResponseError && again.spent)
            throw new VendorBadResponseError(again.vendor, again.detail, plus(first, again.spent));
          throw again;
        }
      }
    },
    async complete(req: CompletionRequest): Promise<CompletionResponse> {
      const provider = resolve(req.provider, Boolean(req.modelPlan));
      const client: ChatClient | LocalProvider | LlamaProvider =
        provider === 'local' ? local : provider === 'llama' ? deps.llama! : vendors[provider]!;
      // llama writes over the template writer's answer when the call has a plan; without one it reads the messages.
      const readsTask = provider === 'local' || (provider === 'llama' && Boolean(req.modelPlan));
      if (!readsTask && req.messages.length === 0)
        throw new TypeError(`${req.purpose}: a ${provider} call needs messages`);
      // What `local` reads is the task, so that is what its prompt tokens measure when there are no messages.
      const promptMessages: ChatMessage[] =
        readsTask && req.messages.length === 0 && req.localTask
          ? [{ role: 'user', content: JSON.stringify(req.localTask.input) }]
          : req.messages;
      const promptTokens = countPromptTokens(promptMessages, client.model);
      const context = isVendor(provider) ? await deps.contextTokens?.[provider]?.() : undefined;
      const maxTokens = completionBudget(req.maxTokens ?? deps.defaultMaxTokens ?? 1024, promptTokens, context, {
        provider,
        purpose: req.purpose,
      });
      const estimatedTokens = promptTokens + maxTokens;

      const reservation = await meter.reserve({
        userId: req.userId,
        provider,
        estimatedTokens,
        idempotencyKey: req.idempotencyKey,
      });
      let response: CompletionResponse;
      try {
        const result = await client.complete({
          messages: req.messages,
          maxTokens: context !== undefined ? maxTokens : req.maxTokens,
          temperature: req.temperature,
          idempotencyKey: req.idempotencyKey,
          signal: req.signal,
          ...(isVendor(provider) && req.responseFormat ? { responseFormat: req.responseFormat } : {}),
          ...(isVendor(provider) && (req.onDelta || deps.onGenerating)
            ? {
                onDelta: (p: { text: string; tokens: number }) => {
                  req.onDelta?.(p);
                  deps.onGenerating?.(req, p);
                },
              }
            : {}),
          ...(provider === 'local' ? { localTask: req.localTask } : {}),
          ...(provider === 'llama' ? { localTask: req.localTask, modelPlan: req.modelPlan } : {}),
        });
        const usage =
          provider === 'llama'
            ? {
                tokens_in: result.usage?.prompt_tokens ?? 0,
                tokens_out: result.usage?.completion_tokens ?? 0,
                source: 'model' as const,
              }
            : provider === 'local'
              ? {
                  tokens_in: countPromptTokens(promptMessages, client.model),
                  tokens_out: countTextTokens(result.text, client.model),
                  source: 'tokenizer' as const,
                }
              : countUsage(req.messages, result.text, client.model, result.usage);
        // Priced by the configured model (the row users see), whatever snapshot name the vendor echoes.
        const price = cost(provider, client.model, usage.tokens_in, usage.tokens_out);
        response = {
          // Vendor text is cleaned before anything stores it: a NUL or an unpaired surrogate could never be stored.
          text: storableText(result.text),
          ...(provider === 'local' && (result as { value?: unknown }).value !== undefined
            ? { value: (result as { value?: unknown }).value }
            : {}),
          provider,
          model: result.model,
          tokens_in: usage.tokens_in,
          tokens_out: usage.tokens_out,
          cost: price,
          metadata: {
            provider,
            model: result.model,
            offline: provider === 'local' || provider === 'llama',
            purpose: req.purpose,
            finish_reason: result.finishReason,
            token_source: usage.source,
            ...(provider === 'llama' ? (result as Awaited<ReturnType<LlamaProvider['complete']>>).metadata : {}),
            ...((result as ChatResult).structuredMode
              ? { structured_mode: (result as ChatResult).structuredMode }
              : {}),
            ...((result as ChatResult).streamed ? { streamed: true } : {}),
            ...((result as { coverage?: Coverage }).coverage
              ? { coverage: (result as { coverage?: Coverage }).coverage }
              : {}),
          },
        };
      } catch (e) {
        await meter.release(reservation);
        throw e;
      }
      await meter.settle(reservation, {
        provider,
        model: response.model,
        tokens_in: response.tokens_in,
        tokens_out: response.tokens_out,
        cost: response.cost,
      });
      deps.logger?.info(
        {
          purpose: req.purpose,
          provider,
          model: response.model,
          tokens_in: response.tokens_in,
          tokens_out: response.tokens_out,
          cost: response.cost,
        },
        'ai call settled',
      );
      return response;
    },
  };
  return gateway;
}

/** Tokens kept free beside the prompt: the platform counts with a tokenizer that may not be the model's. */
const CONTEXT_MARGIN = 1.15;

/**
 * The completion budget of one call: the task's, cut to what the model's context leaves beside the prompt. A
 * prompt that leaves too little room for a useful answer is refused before anything is paid for.
 */
export function completionBudget(
  wanted: number,
  promptTokens: number,
  contextTokens: number | undefined,
  call: { provider: string; purpose: string },
): number {
  if (contextTokens === undefined) return wanted;
  const room = Math.floor(contextTokens - promptTokens * CONTEXT_MARGIN - 16);
  if (room < Math.min(wanted, 128))
    throw new VendorContextExceededError(
      call.provider,
      `${call.purpose}: the prompt (about ${promptTokens} tokens) leaves no room for an answer in the model's context of ${contextTokens} tokens; configure a model with a larger context (${call.provider.toUpperCase()}_CONTEXT_TOKENS or the server's context size)`,
    );
  return Math.min(wanted, room);
}

/** How a JSON answer reads: the value its schema accepts, whether that took a repair, or why none did. */
type JsonRead = { ok: true; value: unknown; repaired: boolean } | { ok: false; error: string };

/**
 * A JSON answer read as written when it is valid (its schema, then the task's `usable`); else the first repair
 * candidate (domain/ai/repair.ts) that is; else the reason, in words a model can act on when it is asked again.
 */
export function readJsonAnswer(
  text: string,
  check: ValidateFunction | undefined,
  usable?: (value: unknown) => string | undefined,
): JsonRead {
  const fault = (value: unknown): string | undefined => {
    if (check && !check(value)) return `the JSON does not match the schema (${answerAjv.errorsText(check.errors)})`;
    return usable?.(value);
  };
  let firstError = '';
  let parsed = false;
  try {
    const value = parseJsonAnswer(text);
    parsed = true;
    const f = fault(value);
    if (!f) return { ok: true, value, repaired: false };
    firstError = f;
  } catch (e) {
    firstError = `it is not one complete JSON object (${(e as Error).message})`;
  }
  let readBack = '';
  for (const value of jsonCandidates(text)) {
    const f = fault(value);
    if (!f) return { ok: true, value, repaired: true };
    readBack ||= `; read back, ${f}`;
  }
  // An answer that only parses once read back is judged by what the schema says of it, not only by its syntax.
  return { ok: false, error: firstError + (parsed ? '' : readBack) };
}

/**
 * A vendor's Markdown answer that stopped at the output limit (or without saying why: `wasCut`), continued: up to
 * MAX_CONTINUATIONS follow-up calls (each metered, with its own idempotency key) give the text so far and ask for
 * the rest; a text that was continued, or is still cut short after them, ends at its last complete sentence. Never
 * a text cut mid-sentence.
 */
async function continueAnswer(
  complete: (r: CompletionRequest) => Promise<CompletionResponse>,
  request: CompletionRequest,
  first: CompletionResponse,
): Promise<CompletionResponse> {
  let response = first;
  let text = first.text;
  let continuations = 0;
  while (wasCut(response.metadata.finish_reason) && continuations < MAX_CONTINUATIONS) {
    continuations++;
    const next = await complete({
      ...request,
      idempotencyKey: `${request.idempotencyKey}:continue-${continuations}`,
      messages: [
        ...request.messages,
        { role: 'assistant', content: text },
        {
          role: 'user',
          content:
            'Your answer stopped at the length limit. Continue it exactly where it stopped: no preface, nothing repeated, and finish within this answer.',
        },
      ],
    });
    text = joinContinuation(text, next.text);
    response = combined(response, next, text);
  }
  // A text that had to be continued ends at a whole sentence even when its last piece claims a stop: a model asked
  // to go on sometimes writes a few words and stops.
  if (continuations > 0 || wasCut(response.metadata.finish_reason)) text = endAtSentence(text);
  return { ...response, text, metadata: { ...response.metadata, continuations } };
}

/**
 * What makes a vendor's Markdown answer something other than the text asked for — its instructions written back, or
 * talk about editing a draft nobody sent — told to the model (`ask`) and in the refusal (`refuse`); undefined when
 * nothing. Read on the answer as written, chat around it included (that chat is part of the evidence).
 */
function offTask(
  text: string,
  prompt: ReadonlyArray<{ role: string; content: string }>,
): { ask: string; refuse: string } | undefined {
  const echoed = echoedInstruction(text, prompt)?.slice(0, 120);
  if (echoed)
    return {
      ask: `That answer repeats your instructions ("${echoed}") instead of following them.`,
      refuse: `repeats its instructions ("${echoed}") instead of following them`,
    };
  const talk = editingTalk(text)?.slice(0, 120);
  if (talk)
    return {
      ask: `That answer talks about editing a text ("${talk}") instead of being the text.`,
      refuse: `talks about editing a text ("${talk}") instead of being the text`,
    };
  return undefined;
}

/** Answers are checked against their task's schema; one compiled validator per task. */
const answerAjv = new Ajv({ allErrors: true, strict: false });
const validators = new WeakMap<object, ValidateFunction>();
function validatorOf(task: Pick<AiTask<never, unknown>, 'output'>): ValidateFunction | undefined {
  if (!task.output) return undefined;
  let v = validators.get(task);
  if (!v) {
    v = answerAjv.compile(task.output);
    validators.set(task, v);
  }
  return v;
}
