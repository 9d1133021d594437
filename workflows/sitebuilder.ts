/**
 * Site publishing (Document 2, /api/sitebuilder): connecting a site (the code
 * exchange), disconnecting it (revocation), and publishing a post as a task
 * (workflow id = task id, progress on the status route). No token ever passes
 * through a workflow: activities read and refresh them from encrypted storage.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { SitebuilderActivities } from '../activities/sitebuilder';
import type { ConnectionSummary, PublishRequest, PublishResult } from '../domain/sitebuilder/types';
import { READ_RETRY, RECORD_RETRY } from './retry';
import { runTask, TaskInput } from './task-runner';

// The code exchange: a retry finds the connection recorded, or the builder refuses the spent code (a clear error).
const exchange = proxyActivities<SitebuilderActivities>({
  startToCloseTimeout: '1m',
  retry: { ...READ_RETRY, maximumAttempts: 3 },
});
// Local work and lookups: free and safe to repeat.
const reads = proxyActivities<SitebuilderActivities>({ startToCloseTimeout: '1m', retry: READ_RETRY });
// Remote writes (upload, draft, publish): each looks up its earlier attempt before acting again, so retries
// cannot duplicate; they heartbeat while waiting on the builder, so a dead worker's step is retried within 10 s.
const writes = proxyActivities<SitebuilderActivities>({
  startToCloseTimeout: '5m',
  heartbeatTimeout: '10s',
  retry: { ...RECORD_RETRY, maximumAttempts: 8 },
});

export async function sitebuilderConnectWorkflow(input: {
  userId: string;
  authorizationId: string;
  code: string;
}): Promise<ConnectionSummary> {
  return exchange.connectSitebuilder(input);
}

export async function sitebuilderDisconnectWorkflow(input: { userId: string }) {
  return reads.disconnectSitebuilder(input);
}

export async function sitebuilderPublishWorkflow(input: TaskInput<PublishRequest>): Promise<PublishResult> {
  return runTask('sitebuilder_publish', input, async (progress) => {
    const r = input.request;
    const job = { userId: input.userId, taskId: input.taskId };
    await progress('Converting the Markdown to rich content and generating SEO metadata');
    const prepared = await reads.prepareSitebuilderPost({ ...job, request: r });
    await progress(
      `Converted into ${prepared.rich_content_nodes} rich-content nodes; SEO title "${prepared.seo.seo_title}", slug "${prepared.seo.url_slug}"`,
    );
    let cover = null;
    if (r.cover_image_url) {
      await progress('Uploading the cover image to the site');
      cover = await writes.uploadSitebuilderCover({ ...job, url: r.cover_image_url });
      await progress(`Cover image uploaded (${cover.size_bytes} bytes)`);
    }
    await progress('Creating the draft post');
    const draft = await writes.createSitebuilderDraft({ ...job, request: r, prepared, cover });
    await progress(
      draft.found_existing
        ? `Found draft post ${draft.draft_id}, created by an earlier attempt of this job`
        : `Draft post ${draft.draft_id} created`,
    );
    const publish = r.publish ?? true;
    let post = null;
    if (publish) {
      await progress('Publishing the draft post');
      post = await writes.publishSitebuilderDraft({ ...job, draftId: draft.draft_id });
      await progress(`Published: ${post.url ?? `post ${post.post_id}`}`);
    }
    const unknown = (asked: string[] | undefined, kept: string[]) => (asked ?? []).filter((id) => !kept.includes(id));
    return {
      success: true,
      status: post ? 'published' : 'draft',
      post_id: post?.post_id ?? draft.draft_id,
      draft_id: draft.draft_id,
      url: post?.url ?? null,
      title: r.title,
      category_ids: draft.category_ids,
      tag_ids: draft.tag_ids,
      ignored_category_ids: unknown(r.category_ids, draft.category_ids),
      ignored_tag_ids: unknown(r.tag_ids, draft.tag_ids),
      cover_image: cover ? { file_id: cover.file_id, url: cover.url } : null,
      seo: { ...prepared.seo, canonical_url: post?.url ?? null },
      rich_content: { nodes: prepared.rich_content_nodes, bytes: prepared.rich_content_bytes },
      reused_existing_draft: draft.found_existing,
    };
  });
}
