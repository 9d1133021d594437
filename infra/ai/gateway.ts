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
import { purposeOf, type AiTask } from '../../domain/ai/task';
import { VendorBadResponseError, VendorNotConfiguredError } from './errors';
import type { ChatClient } from './openai-compatible';
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
}

/** The call-specific part of a typed task call (the task supplies purpose, messages, budget, local task and plan). */
export type TaskCall = Pick<CompletionRequest, 'userId' | 'idempotencyKey' | 'provider' | 'signal' | 'temperature'>;

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

  const gateway: AiGateway = {
    resolve,
    async run<I, O>(task: AiTask<I, O>, input: I, call: TaskCall): Promise<TaskAnswer<O>> {
      const purpose = purposeOf(task, input);
      const modelPlan = task.plan?.(input);
      // A vendor-only task has no offline writer: `local` would answer its prompt with an extractive summary.
      if (!task.local && resolve(call.provider, Boolean(modelPlan)) === 'local')
        throw new TypeError(`${purpose}: a vendor-only task cannot run on local`);
      const response = await gateway.complete({
        ...call,
        purpose,
        messages: task.prompt(input),
        maxTokens: task.maxTokens(input),
        ...(task.local ? { localTask: task.local(input) } : {}),
        ...(modelPlan ? { modelPlan } : {}),
      });
      // Markdown is the text itself, whoever wrote it (the gateway's text: cleaned before anything stores it).
      if (task.answer === 'markdown') return { output: response.text.trim() as O, response };
      if (response.provider === 'local' && response.value !== undefined)
        return { output: response.value as O, response };
      let value: unknown;
      try {
        value = parseJsonAnswer(response.text);
      } catch (e) {
        throw new VendorBadResponseError(response.provider, `unreadable ${purpose} answer: ${(e as Error).message}`);
      }
      const check = validatorOf(task);
      if (check && !check(value))
        throw new VendorBadResponseError(
          response.provider,
          `${purpose} answer of the wrong shape: ${answerAjv.errorsText(check.errors)}`,
        );
      return { output: value as O, response };
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
      const maxTokens = req.maxTokens ?? deps.defaultMaxTokens ?? 1024;
      const estimatedTokens = countPromptTokens(promptMessages, client.model) + maxTokens;

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
          maxTokens: req.maxTokens,
          temperature: req.temperature,
          idempotencyKey: req.idempotencyKey,
          signal: req.signal,
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
