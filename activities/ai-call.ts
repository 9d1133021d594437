/**
 * How activities make one AI call through the gateway and read its answer:
 * heartbeating while the vendor works, with the activity's cancellation
 * signal. A typed task's answer (`ask`) is checked by the gateway's `run`
 * against the task's schema and `usable` (a vendor may answer anything; an
 * answer still unusable after the gateway's re-ask and its one fresh attempt
 * is VENDOR_BAD_RESPONSE, which the activity does not retry: those calls were
 * paid for and a third try is the workflow's decision). Plan limits,
 * missing vendors and refused requests carry their failure codes
 * (activities/failures.ts).
 */
import { Context } from '@temporalio/activity';
import type { AiGateway, CompletionRequest, CompletionResponse, TaskCall } from '../infra/ai/completion';
import type { AiTask } from '../domain/ai/task';
import type { Source } from '../domain/blog/types';
import type { Coverage, GenerationMetadata } from '../domain/generation';
import { withHeartbeat } from './heartbeat';
import type { EventStore } from '../infra/eventstore';
import { uuidFromKey } from '../infra/eventstore/ids';
import { taskStream } from '../domain/events/tasks';
import { activityKey, currentWorkflowId } from './tasks';

/**
 * One metered call, heartbeating while the vendor or the in-process model works. The activity's
 * cancellation signal goes with it, so cancelling the task stops a generation mid-way.
 */
export const guarded = (gateway: AiGateway, req: CompletionRequest): Promise<CompletionResponse> =>
  withHeartbeat(() => gateway.complete({ ...req, signal: req.signal ?? Context.current().cancellationSignal }));

/**
 * One call of a typed task (domain/ai/task.ts), heartbeating while it runs, with the activity's cancellation
 * signal: the answer typed as the task's output, and the call behind it.
 */
export const ask = <I, O>(gateway: AiGateway, task: AiTask<I, O>, input: I, call: Omit<TaskCall, 'signal'>) =>
  withHeartbeat(() => gateway.run(task, input, { ...call, signal: Context.current().cancellationSignal }));

/** The response's metadata as clients see it: provider, model, tokens and, for llama, who wrote what. */
export function generationInfo(resp: CompletionResponse): GenerationMetadata {
  const m = resp.metadata;
  return {
    provider: resp.provider,
    model: resp.model,
    offline: m.offline,
    tokens_in: resp.tokens_in,
    tokens_out: resp.tokens_out,
    ...(m.model_size_bytes !== undefined ? { model_size_bytes: m.model_size_bytes } : {}),
    ...(m.writer ? { writer: m.writer } : {}),
    ...(m.model_writing ? { model_writing: m.model_writing } : {}),
    ...(m.fallback_reason ? { fallback_reason: m.fallback_reason } : {}),
    ...(m.first_token_at !== undefined ? { first_token_at: m.first_token_at } : {}),
    ...(m.time_to_first_token_ms !== undefined ? { time_to_first_token_ms: m.time_to_first_token_ms } : {}),
    ...(m.generation_ms !== undefined ? { generation_ms: m.generation_ms } : {}),
    ...(m.coverage ? { coverage: m.coverage } : {}),
  };
}

/**
 * The offline writer's `coverage` (compose.ts) of a JSON answer, taken out of the parsed draft: the JSON writers
 * (platform post, calendar post, podcast script, video plan, Document 2 article) return it inside their draft.
 * It is kept only when the template writer wrote the answer (`local`, or `llama` where its gate kept the template
 * writer's text): a vendor's or a model's own JSON never supplies it. The gateway's `metadata.coverage` (Markdown
 * tasks) comes first. The draft loses the field either way, so it never reaches a stored or answered text.
 */
export function takeCoverage(resp: CompletionResponse, draft: unknown): Coverage | undefined {
  let found: unknown;
  if (draft && typeof draft === 'object' && !Array.isArray(draft) && 'coverage' in draft) {
    found = (draft as { coverage?: unknown }).coverage;
    delete (draft as { coverage?: unknown }).coverage;
  }
  if (resp.metadata.coverage) return resp.metadata.coverage;
  const template = resp.provider === 'local' || (resp.provider === 'llama' && resp.metadata.writer !== 'model');
  const c = found as Partial<Coverage> | undefined;
  if (!template || !c || typeof c !== 'object' || (c.basis !== 'brief' && c.basis !== 'brief_and_sources'))
    return undefined;
  return c as Coverage;
}

/** Sources numbered 1..n, the numbers `[n]` citations refer to. */
export const numbered = <S extends Source>(sources: S[]): S[] => sources.map((s, i) => ({ ...s, index: i + 1 }));

/**
 * What a streamed vendor generation reports while it runs (the gateway's `onGenerating`, wired by the worker):
 * every `everyMs` (AI_PROGRESS_EVERY_MS, 5 s by default) a `TaskProgressed` event on the task the workflow runs for ("Writing
 * blog.section: 180 tokens so far"), so a task's `progress_messages` move during one long call. (Heartbeats go on
 * every 3 s from `guarded`/`ask`; their details stay what a stepped activity recorded, so a retry resumes there.) The event ids come from the activity's key and a counter: a retried attempt that writes
 * the same reports again adds nothing. Outside an activity, or for a workflow that is not a task, nothing happens.
 */
export function generationProgress(store: EventStore, everyMs: number, now: () => number = Date.now) {
  const last = new Map<string, { at: number; n: number }>();
  return (call: { purpose: string; userId: string }, progress: { tokens: number }): void => {
    let key: string;
    try {
      key = activityKey();
    } catch {
      return; // not inside an activity (tests, tools)
    }
    const seen = last.get(key) ?? { at: now(), n: 0 };
    if (!last.has(key)) last.set(key, seen);
    if (now() - seen.at < everyMs) return;
    seen.at = now();
    seen.n += 1;
    const taskId = currentWorkflowId();
    const message = `Writing ${call.purpose}: ${progress.tokens} tokens so far`;
    void (async () => {
      const events = await store.readStream(taskStream(taskId));
      const open = events.length > 0 && !events.some((e) => /^Task(Completed|Failed|Cancelled)$/.test(e.type));
      if (!open) return;
      await store.appendOnce(
        taskStream(taskId),
        {
          type: 'TaskProgressed',
          eventId: uuidFromKey(`task:${key}:generating-${seen.n}`),
          data: { task_id: taskId, message, at: new Date(now()).toISOString() },
        },
        { user_id: call.userId, workflow_id: taskId, causation_id: key },
      );
    })().catch(() => undefined); // progress is best effort: the generation goes on
    if (last.size > 1000) last.delete(last.keys().next().value as string);
  };
}
