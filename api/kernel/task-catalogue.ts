/**
 * The task catalogue: every task type the API starts, declared once by the area that owns it (module load) with the
 * schema of its result — the object the route's 200 answer carries as data and the task record's `result` once the
 * task completed (api/kernel/tasks.ts, "result is the object a 200 answer carries"). The OpenAPI document names each
 * (`<Type>Result`, `<Type>Task`) and answers the status routes with them, so a generated client reads a completed
 * task's result as a typed object; `startWorkflow` refuses a task type that is not declared here.
 */
import type { TaskType } from '../../domain/task-types';
import type { JsonSchema } from './envelopes/common';
import { named } from './schema';

export interface TaskTypeDef {
  /** Task type (task-status projection, search attribute, webhook catalogue). */
  type: TaskType;
  /** The completed task's result, as status routes and the 200 answer show it. */
  result: JsonSchema;
}

const CATALOGUE = new Map<string, TaskTypeDef>();

/** `blog_research` → `BlogResearch`: the name component schemas of a task type start with. */
export const pascalOf = (type: string) =>
  type
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');

/**
 * Declares a task type (idempotent for the same result schema; a second, different schema for one type is a
 * programming error). Returns the definition, for routes to pass on.
 */
export function defineTaskType<D extends TaskTypeDef>(def: D): D {
  const known = CATALOGUE.get(def.type);
  if (known && JSON.stringify(known.result) !== JSON.stringify(def.result))
    throw new Error(`task type ${def.type} declared twice with different result schemas`);
  if (!known) CATALOGUE.set(def.type, { type: def.type, result: def.result });
  return def;
}

export const isCataloguedTaskType = (type: string) => CATALOGUE.has(type);

/** Every declared task type, by name. */
export const catalogue = (): TaskTypeDef[] => [...CATALOGUE.values()].sort((a, b) => a.type.localeCompare(b.type));

/** The named result schema of a declared task type. */
export function taskResultSchema(type: string): JsonSchema {
  const def = CATALOGUE.get(type);
  if (!def) throw new Error(`task type ${type} is not in the task catalogue`);
  // A result shared by several task types (every writer kind) carries its own name.
  return typeof def.result['x-component'] === 'string' ? def.result : named(`${pascalOf(type)}Result`, def.result);
}

const progress: JsonSchema = {
  type: 'array',
  items: {
    type: 'object',
    properties: { timestamp: { type: 'string' }, message: { type: 'string' } },
    required: ['timestamp', 'message'],
  },
};

/** The fields of every task record; `result` is the task type's own. */
export const taskRecordFields = (result: JsonSchema): Record<string, JsonSchema> => ({
  task_id: { type: 'string' },
  status: { enum: ['started', 'in_progress', 'completed', 'failed', 'cancelled'] },
  created_at: { type: 'string', format: 'date-time' },
  progress_messages: progress,
  // No description beside it: generators reuse the named result's type only for a bare reference.
  result,
  error: named('TaskError', {
    type: 'object',
    properties: { code: { type: 'string' }, message: { type: 'string' } },
    required: ['code', 'message'],
  }),
});

/** The task record of one task type (`<Type>Task`): `task_type` is the type, `result` its result. */
export function taskRecordOf(type: string): JsonSchema {
  return named(`${pascalOf(type)}Task`, {
    type: 'object',
    description: `A ${type} task; once completed, \`result\` is the same object its route's 200 answer carries as data`,
    properties: { ...taskRecordFields(taskResultSchema(type)), task_type: { const: type } },
    required: ['task_id', 'task_type', 'status', 'created_at', 'progress_messages'],
  });
}

/**
 * A task record of any of `types` (every declared type when none is given): one branch per type, told apart by
 * `task_type`. Read when the document is built (after every area declared its types).
 */
export function anyTaskRecord(types?: (type: string) => boolean): JsonSchema {
  const defs = catalogue().filter((d) => !types || types(d.type));
  if (defs.length === 1) return taskRecordOf(defs[0]!.type);
  return {
    oneOf: defs.map((d) => taskRecordOf(d.type)),
    discriminator: {
      propertyName: 'task_type',
      mapping: Object.fromEntries(defs.map((d) => [d.type, `#/components/schemas/${pascalOf(d.type)}Task`])),
    },
  };
}
