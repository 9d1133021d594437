/**
 * One kind of AI call, declared once (the typed AI-task port): what a vendor is asked (`prompt`), what the offline
 * writer answers (`local`: a task of domain/ai/tasks.ts, whose answer is an object, never text to re-parse), what
 * the in-process model may write over it (`plan`), and what a valid answer is (`output`, the JSON schema a
 * vendor's answer is checked against). The gateway's `run(task, input)` returns the answer typed as `O`
 * (infra/ai/gateway.ts), whichever provider answered. Pure: a task is data and functions of its input.
 */
import type { ChatMessage } from './chat';
import type { LocalTask } from './tasks';
import type { ModelPlan } from '../generation/model-plan';

export interface AiTask<I, O> {
  /**
   * What the call is for (`blog.section`, `outreach.email.generate`, ...): metered, logged, in the metadata. A
   * function of the input where one task serves several purposes (`copy.<form>`, `writers.<platform>.<kind>`).
   */
  purpose: string | ((input: I) => string);
  /** `json`: the answer is an object of the `output` schema; `markdown`: the answer is the text itself. */
  answer: O extends string ? 'markdown' : 'json';
  prompt(input: I): ChatMessage[];
  /**
   * The offline writer's task. Absent: a vendor-only task (no offline writer answers it), which its caller runs
   * only when `resolve` names a vendor; the gateway refuses to run it on `local`.
   */
  local?(input: I): LocalTask;
  /** JSON schema of a valid answer (json tasks): a vendor answer that does not match is VENDOR_BAD_RESPONSE. */
  output?: Record<string, unknown>;
  /**
   * What makes an answer that matches `output` still unusable (a video plan whose scenes all lack narration), in
   * words a model can act on; undefined when it can be used. The gateway treats it like a schema fault: read back,
   * asked again once with it, then refused.
   */
  usable?(output: O, input: I): string | undefined;
  /** Completion budget (also what is reserved against the plan's limits). */
  maxTokens(input: I): number;
  /** What the in-process model may write over the offline writer's answer (none: `auto` does not choose it). */
  plan?(input: I): ModelPlan | undefined;
}

/** A task with its types checked where it is declared. */
export const defineAiTask = <I, O>(task: AiTask<I, O>): AiTask<I, O> => task;

/** The purpose of one call of `task`. */
export const purposeOf = <I>(task: Pick<AiTask<I, unknown>, 'purpose'>, input: I): string =>
  typeof task.purpose === 'string' ? task.purpose : task.purpose(input);

/**
 * `usable` from a function that builds what the caller makes of the answer and throws a RangeError saying why it
 * cannot (scenesFromDraft, scriptFromDraft): the reason, or undefined when it builds. Other errors are thrown.
 */
export function faultOf(build: () => unknown): string | undefined {
  try {
    build();
    return undefined;
  } catch (e) {
    if (e instanceof RangeError) return e.message;
    throw e;
  }
}
