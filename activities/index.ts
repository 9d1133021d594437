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
import { ContentActivityDeps, createContentActivities } from './content';
import { createKeywordActivities, KeywordActivityDeps } from './keywords';
import { createPerformanceActivities, PerformanceActivityDeps } from './performance';
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
  /** Content generation (activities/content.ts): gateway, research and the event store. */
  content?: ContentActivityDeps;
  /** Keyword research (activities/keywords.ts): the corpus, the keyword vendor (if configured) and the usage meter. */
  keywords?: KeywordActivityDeps;
  /** SEO performance data (activities/performance.ts): event store, users' credentials, Search Console. */
  performance?: PerformanceActivityDeps;
}

export function createActivities(deps: ActivityDeps) {
  return withFailureCodes({
    ...(deps.webhooks ? createWebhookActivities(deps.webhooks) : {}),
    ...(deps.tasks ? createTaskActivities(deps.tasks) : {}),
    ...(deps.blog ? createBlogActivities(deps.blog) : {}),
    ...(deps.blogSync ? createBlogSyncActivities(deps.blogSync) : {}),
    ...(deps.content ? createContentActivities(deps.content) : {}),
    ...(deps.keywords ? createKeywordActivities(deps.keywords) : {}),
    ...(deps.performance ? createPerformanceActivities(deps.performance) : {}),
    /** No-op round trip (smoke test, benchmark ceiling). */
    async echo(message: string): Promise<string> {
      return message;
    },
  });
}

export type Activities = ReturnType<typeof createActivities>;
