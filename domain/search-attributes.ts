/**
 * The search attributes every workflow the platform starts carries (registered by scripts/stack and by compose's
 * one-shot service), so an operator finds any run in the Temporal UI or `temporal workflow list` by who it is for and
 * what it does (docs/architecture.md, "Finding a workflow"):
 *   UserId    the user the work is for; `platform` for the platform's own work (the mailbox poll of every campaign)
 *   TaskType  the task type of a task (`blog_research`, `video_render`, ...); for any other run the workflow's kind
 *             in the same style, from its function name (`blogSectionGenerateWorkflow` → `blog_section_generate`)
 * Pure (Temporal's common package only): the API, the dispatchers and the workflows themselves (children) use it.
 */
import { defineSearchAttributeKey, SearchAttributeType, TypedSearchAttributes } from '@temporalio/common';

export const USER_ID = defineSearchAttributeKey('UserId', SearchAttributeType.KEYWORD);
export const TASK_TYPE = defineSearchAttributeKey('TaskType', SearchAttributeType.KEYWORD);

/** The owner of the platform's own runs (no one user's). */
export const PLATFORM_USER = 'platform';

/** The kind of a workflow that is not a task: its function name without `Workflow`, in snake case. */
export function workflowKind(workflow: { name: string }): string {
  return workflow.name
    .replace(/Workflow$/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase();
}

/** The typed search attributes of a run of `userId`, of kind `taskType`. */
export function ownerAttributes(userId: string, taskType: string): TypedSearchAttributes {
  return new TypedSearchAttributes([
    { key: USER_ID, value: userId },
    { key: TASK_TYPE, value: taskType },
  ]);
}
