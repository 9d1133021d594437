/**
 * The steps of a publish job. Each remote step is looked up before it is
 * done again: its event on `sitebuilderpost-<task_id>` (recorded with
 * appendOnce under a key derived from the task id), and for the draft — the
 * one step the builder cannot de-duplicate itself — the idempotency marker
 * the draft carries (the task id, in a custom SEO meta tag). So a worker
 * killed between "draft created" and "recorded" is retried into finding that
 * draft, never into creating a second post.
 */
import { sitebuilderPostStream, sitebuilderStream } from '../domain/events/sitebuilder';
import { generateMetadata } from '../domain/analysis';
import { sitebuilderDecider } from '../domain/sitebuilder/connection';
import { markdownToRicos, walkRicos } from '../domain/sitebuilder/ricos';
import {
  CreatedDraft,
  MAX_DRAFT_BYTES,
  PreparedPost,
  PublishedPost,
  PublishRequest,
  UploadedCover,
} from '../domain/sitebuilder/types';
import type { NewEvent, RecordedEvent } from '../infra/eventstore';
import { uuidFromKey } from '../infra/eventstore/ids';
import { notConfigured, SitebuilderError } from '../infra/sitebuilder/errors';
import { fetchImage } from '../infra/sitebuilder/media';
import { withHeartbeat } from './heartbeat';
import type { SitebuilderActivityDeps } from './sitebuilder';

interface Job {
  userId: string;
  taskId: string;
}

export function createSitebuilderPublishActivities(deps: SitebuilderActivityDeps) {
  const now = deps.now ?? (() => new Date());
  const configured = () => {
    if (deps.settings.missing.length) throw notConfigured(deps.settings.missing);
  };
  const recorded = async <T extends RecordedEvent['type']>(taskId: string, type: T) =>
    (await deps.store.readStream(sitebuilderPostStream(taskId))).find((e) => e.type === type) as
      Extract<RecordedEvent, { type: T }> | undefined;
  const record = (j: Job, step: string, event: NewEvent) =>
    deps.store.appendOnce(
      sitebuilderPostStream(j.taskId),
      { ...event, eventId: uuidFromKey(`sitebuilder-post:${j.taskId}:${step}`) },
      { user_id: j.userId, workflow_id: j.taskId },
    );

  return {
    /** Markdown → rich content (checked against the builder's size limit) and the SEO metadata of the post. */
    async prepareSitebuilderPost(a: Job & { request: PublishRequest }): Promise<PreparedPost> {
      const doc = markdownToRicos(a.request.content);
      const bytes = Buffer.byteLength(JSON.stringify(doc));
      if (bytes > MAX_DRAFT_BYTES)
        throw new SitebuilderError(
          'INVALID_REQUEST',
          `The post is too large for the site builder: its rich content is ${bytes} bytes, the limit is ${MAX_DRAFT_BYTES}`,
        );
      const { state } = await deps.store.aggregateStream(
        sitebuilderStream(a.userId),
        sitebuilderDecider.evolve,
        sitebuilderDecider.initialState,
      );
      const m = generateMetadata(
        { content: a.request.content, title: a.request.title },
        { base_url: state.connection?.site_url ?? deps.publicBaseUrl, now: now() },
      );
      return {
        seo: {
          seo_title: m.seo_title,
          meta_description: m.meta_description,
          url_slug: m.url_slug,
          focus_keyword: m.focus_keyword,
          blog_tags: m.blog_tags,
          reading_time: m.reading_time,
          optimization_score: m.optimization_score,
        },
        rich_content_nodes: [...walkRicos(doc.nodes)].length,
        rich_content_bytes: bytes,
      };
    },

    /** Downloads the cover (SSRF-checked, size-capped, must be an image) and uploads it to the site's media. */
    async uploadSitebuilderCover(a: Job & { url: string }): Promise<UploadedCover> {
      configured();
      const done = await recorded(a.taskId, 'SitebuilderCoverUploaded');
      if (done)
        return {
          file_id: done.data.file_id,
          url: done.data.url,
          mime_type: done.data.mime_type,
          size_bytes: done.data.size_bytes,
        };
      const image = await withHeartbeat(() => fetchImage(a.url, deps.media));
      const ext = image.mimeType.split('/')[1].replace('jpeg', 'jpg');
      const file = await withHeartbeat(() =>
        deps.tokenManager.withAccessToken(a.userId, (t) =>
          deps.api.uploadImage(t.token, {
            bytes: image.bytes,
            mimeType: image.mimeType,
            fileName: `cover-${a.taskId}.${ext}`,
          }),
        ),
      );
      const cover = { file_id: file.id, url: file.url, mime_type: image.mimeType, size_bytes: image.bytes.length };
      await record(a, 'cover', {
        type: 'SitebuilderCoverUploaded',
        data: { task_id: a.taskId, user_id: a.userId, ...cover },
      });
      return cover;
    },

    /** The draft post: found by its marker when an earlier attempt created it, else created; then recorded. */
    async createSitebuilderDraft(
      a: Job & { request: PublishRequest; prepared: PreparedPost; cover: UploadedCover | null },
    ): Promise<CreatedDraft> {
      configured();
      const done = await recorded(a.taskId, 'SitebuilderDraftCreated');
      const result = await withHeartbeat(() =>
        deps.tokenManager.withAccessToken(a.userId, async (t) => {
          if (done) {
            const d = await deps.api.getDraft(t.token, done.data.draft_id);
            return { draft: d, connectionId: done.data.connection_id, found: done.data.found_existing };
          }
          const existing = await deps.api.findDraftByMarker(t.token, a.request.title, a.taskId);
          if (existing) return { draft: existing, connectionId: t.connectionId, found: true };
          const draft = await deps.api.createDraft(t.token, {
            title: a.request.title,
            richContent: markdownToRicos(a.request.content),
            categoryIds: a.request.category_ids ?? [],
            tagIds: a.request.tag_ids ?? [],
            ...(a.cover ? { cover: { id: a.cover.file_id, url: a.cover.url } } : {}),
            seoSlug: a.prepared.seo.url_slug,
            seoTags: [
              { type: 'title', children: a.prepared.seo.seo_title, custom: true, disabled: false },
              {
                type: 'meta',
                props: { name: 'description', content: a.prepared.seo.meta_description },
                custom: true,
                disabled: false,
              },
            ],
            marker: a.taskId,
          });
          return { draft, connectionId: t.connectionId, found: false };
        }),
      );
      if (!done)
        await record(a, 'draft', {
          type: 'SitebuilderDraftCreated',
          data: {
            task_id: a.taskId,
            user_id: a.userId,
            connection_id: result.connectionId,
            draft_id: result.draft.id,
            found_existing: result.found,
          },
        });
      return {
        draft_id: result.draft.id,
        connection_id: result.connectionId,
        found_existing: result.found,
        category_ids: result.draft.categoryIds,
        tag_ids: result.draft.tagIds,
      };
    },

    /** Publishes the draft unless it already is (an earlier attempt), then reads the post's URL; recorded. */
    async publishSitebuilderDraft(a: Job & { draftId: string }): Promise<PublishedPost> {
      configured();
      const done = await recorded(a.taskId, 'SitebuilderPostPublished');
      if (done) return { post_id: done.data.post_id, url: done.data.url };
      const post = await withHeartbeat(() =>
        deps.tokenManager.withAccessToken(a.userId, async (t) => {
          const draft = await deps.api.getDraft(t.token, a.draftId);
          // The builder gives a published post the id of its draft: a draft found published needs no second publish.
          const postId = draft.status === 'PUBLISHED' ? draft.id : await deps.api.publishDraft(t.token, a.draftId);
          return deps.api.getPost(t.token, postId);
        }),
      );
      await record(a, 'publish', {
        type: 'SitebuilderPostPublished',
        data: { task_id: a.taskId, user_id: a.userId, draft_id: a.draftId, post_id: post.id, url: post.url },
      });
      return { post_id: post.id, url: post.url };
    },
  };
}
