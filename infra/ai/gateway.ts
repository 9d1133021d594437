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
import type { Coverage } from '../../domain/generation';
import { stripChatter } from '../../domain/ai/repair';
import { purposeOf, type AiTask } from '../../domain/ai/task';
import { VendorBadResponseError } from './errors';
import type { ChatClient, ChatResult } from './openai-compatible';
import { createLocalProvider, LocalProvider } from './local';
import type { LlamaProvider } from './llama/provider';
import { noopMeter, UsageMeter } from './meter';
import { ChatMessage, countPromptTokens, countTextTokens, countUsage } from './tokens';
import type {
  AiGateway,
  CompletionRequest,
  CompletionResponse,
  ProviderChoice,
  ResolvedProvider,
  StructuredOutputInfo,
  TaskAnswer,
  TaskCall,
  TextVendor,
} from './completion';
import { chooseProvider, isVendor } from './provider-choice';
import { combined, NOTHING, plus, spentOf } from './spent';
import { completionBudget } from './completion-budget';
import { readJsonAnswer, validatorOf } from './json-answer';
import { continueAnswer, offTask } from './markdown-answer';

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
