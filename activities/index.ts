/**
 * Activities get their dependencies from this factory, never from globals, so
 * the worker wires real adapters and tests can wire their own. Every activity
 * is wrapped so its failures carry a code of the failure table
 * (activities/failures.ts, domain/failures.ts).
 */
import type { Logger } from 'pino';
import { createWebhookActivities, WebhookActivityDeps } from './webhooks';
import { createTaskActivities, TaskActivityDeps } from './tasks';
import { BlogActivityDeps, createBlogActivities } from './blog';
import { BlogSyncActivityDeps, createBlogSyncActivities } from './blog-sync';
import { CopyActivityDeps, createCopyActivities } from './copy';
import { withFailureCodes } from './failures';

export interface ActivityDeps {
  logger: Logger;
  /** Webhook deliveries (activities/webhooks.ts); absent = those activities are not registered. */
  webhooks?: WebhookActivityDeps;
  /** Task lifecycle events (activities/tasks.ts). */
  tasks?: TaskActivityDeps;
  /** Blog writer (activities/blog.ts): the AI gateway and the research provider. */
  blog?: BlogActivityDeps;
  /** Synchronous blog edits (activities/blog-sync.ts): gateway, research and the event store. */
  blogSync?: BlogSyncActivityDeps;
  /** Short copy (activities/copy.ts): the AI gateway. */
  copy?: CopyActivityDeps;
}

export function createActivities(deps: ActivityDeps) {
  return withFailureCodes({
    ...(deps.webhooks ? createWebhookActivities(deps.webhooks) : {}),
    ...(deps.tasks ? createTaskActivities(deps.tasks) : {}),
    ...(deps.blog ? createBlogActivities(deps.blog) : {}),
    ...(deps.blogSync ? createBlogSyncActivities(deps.blogSync) : {}),
    ...(deps.copy ? createCopyActivities(deps.copy) : {}),
    /** No-op round trip (smoke test, benchmark ceiling). */
    async echo(message: string): Promise<string> {
      return message;
    },
  });
}

export type Activities = ReturnType<typeof createActivities>;
