/**
 * Reading a JSON answer: checked against its task's schema (one compiled validator per task) and what the task
 * needs of it, read as written or else through the repair candidates of domain/ai/repair.ts.
 */
import Ajv, { ValidateFunction } from 'ajv';
import { parseJsonAnswer } from '../../domain/ai/chat';
import { jsonCandidates } from '../../domain/ai/repair';
import type { AiTask } from '../../domain/ai/task';

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

/** Answers are checked against their task's schema; one compiled validator per task. */
const answerAjv = new Ajv({ allErrors: true, strict: false });
const validators = new WeakMap<object, ValidateFunction>();
export function validatorOf(task: Pick<AiTask<never, unknown>, 'output'>): ValidateFunction | undefined {
  if (!task.output) return undefined;
  let v = validators.get(task);
  if (!v) {
    v = answerAjv.compile(task.output);
    validators.set(task, v);
  }
  return v;
}
