/**
 * Developer API content (`/v1`): generation (one text, or a batch over topics),
 * and the content records it stores — read, revised (every version kept and
 * listable) and deleted as events (domain/content/record.ts). Generation runs
 * by the answer-or-task rule (api/kernel/tasks.ts); POSTs honour
 * Idempotency-Key (api/kernel/idempotency.ts).
 */
import { randomUUID } from 'node:crypto';
import { NotFoundError, ValidationError } from '../../domain/errors';
import { contentStream } from '../../domain/events/content';
import { contentDecider } from '../../domain/content/record';
import { scoreContent } from '../../domain/content/scores';
import { LENGTHS } from '../../domain/content/types';
import type { BatchRequest, GenerateRequest } from '../../domain/content/types';
import { handleCommand } from '../../infra/eventstore/command';
import { getContent, listContent, listVersions } from '../../projections/content-records';
import { contentBatchWorkflow, contentGenerateWorkflow } from '../../workflows';
import { requestMeta, settle, userIdOf } from '../kernel/handler';
import { defineRoute, HandlerCtx, RouteDef } from '../kernel/registry';
import { allRequired, arr, bool, coverageSchema, int, params, str, text, uuid, withRequired } from '../kernel/schema';
import { runTask, taskResponses } from '../kernel/tasks';
import { boundErrors } from '../kernel/fair-use';
import { GENERATION_ERRORS } from '../content/routes';
import { platformEnum, scoresSchema, words } from '../content/schemas';

const tags = ['developer content'];
const typeField = { enum: ['blog_post', 'social_media'] };
const common = {
  tone: { ...str(100), default: 'professional' },
  length: {
    enum: LENGTHS,
    default: 'medium',
    description: 'blog_post words: short 500, medium 1000, long 1800, long_form 2500',
  },
  seo_optimized: {
    ...bool,
    default: false,
    description: 'Target a focus keyword from the topic and report its SEO score',
  },
  platform: { ...platformEnum, description: 'Required for social_media: sets the character limit' },
  include_hashtags: { ...bool, default: false },
  include_cta: { ...bool, default: false },
};

/**
 * A generated text's metadata: the measured scores, who wrote it, and for the offline writer how it met the brief
 * (`coverage`). The kind's own fields follow (target_word_count and sources; platform, hashtags, character_count).
 */
const generatedMetadata = withRequired(
  {
    ...scoresSchema,
    provider: { type: 'string', description: 'vendor_a, vendor_b, llama or local (the offline writer)' },
    model: { type: 'string' },
    offline: bool,
    coverage: coverageSchema,
  },
  [],
);

const recordSchema = allRequired({
  content_id: { type: 'string' },
  type: { type: 'string' },
  topic: { type: 'string' },
  title: { type: ['string', 'null'] },
  content: { type: 'string' },
  metadata: generatedMetadata,
  version: int,
  versions: int,
  origin_task_id: { type: ['string', 'null'] },
  created_at: { type: 'string', format: 'date-time' },
  updated_at: { type: 'string', format: 'date-time' },
});
/** A record as GET /v1/content lists it: without its text and metadata. */
const recordSummarySchema = allRequired({
  content_id: { type: 'string' },
  type: { type: 'string' },
  topic: { type: 'string' },
  title: { type: ['string', 'null'] },
  version: int,
  created_at: { type: 'string', format: 'date-time' },
  updated_at: { type: 'string', format: 'date-time' },
});
const versionSchema = allRequired({
  version: int,
  title: { type: ['string', 'null'] },
  content: { type: 'string' },
  metadata: {
    ...generatedMetadata,
    description:
      "The record's whole metadata as of this version: what the platform measured and recorded, and the keys a client merged in with PUT",
  },
  changed: arr({ type: 'string' }),
  created_at: { type: 'string', format: 'date-time' },
});
const idParams = params({ content_id: uuid });
/** Metadata the platform measures (analysis engine) or records (provider): a PUT may not set them. */
const MEASURED = ['word_count', 'readability_score', 'seo_score', 'provider', 'model', 'offline', 'coverage'];

/** The platform of a batch of social posts that names none (the spec's batch fields have no platform). */
export const BATCH_DEFAULT_PLATFORM = 'profnet';

function needPlatform(b: { type: string; platform?: string }) {
  if (b.type === 'social_media' && !b.platform)
    throw new ValidationError([
      { location: 'body', path: 'platform', kind: 'missing', message: 'platform is required for social_media' },
    ]);
}

/** Waits (bounded) until the content-records projection has these records, so a GET right after finds them. */

async function ownRecord(ctx: HandlerCtx<unknown, unknown, { content_id: string }>) {
  const r = await getContent(ctx.deps.db, userIdOf(ctx), ctx.params.content_id);
  if (!r) throw new NotFoundError('Content not found');
  const versions = (await listVersions(ctx.deps.db, userIdOf(ctx), r.content_id))?.length ?? r.version;
  return { ...r, versions };
}

export const developerContentRoutes: RouteDef[] = [
  defineRoute<GenerateRequest>({
    method: 'post',
    path: '/v1/content/generate',
    auth: 'user',
    tags,
    summary: 'Generate a blog post or a social media post, stored as a content record',
    description:
      'type blog_post or social_media (platform required: profnet 3,000 characters, socialnet 63,206, photonet 2,200, microblog 280, videonet 5,000, adnet_ads 125). key_points become the outline of a blog post or the points of a post; include_research adds the research (one more AI call). The text is stored as content record version 1 (data.content_id). Answers 200 within the wait bound, else 202 with a task (GET /v1/tasks/{task_id}).',
    request: {
      body: withRequired(
        {
          type: typeField,
          topic: text(300, { pattern: '\\S' }),
          key_points: words(10, 300, { default: [] }),
          ...common,
          include_research: { ...bool, default: false },
        },
        ['type', 'topic'],
      ),
    },
    responses: taskResponses('The generated content', {
      taskType: 'content_generation',
      result: withRequired(
        { content_id: { type: 'string' }, content: { type: 'string' }, metadata: generatedMetadata, version: int },
        ['content_id', 'content', 'metadata'],
      ),
    }),
    errors: { ...GENERATION_ERRORS, ...boundErrors('content_generation') },
    handler: (ctx) => {
      needPlatform(ctx.body);
      const content_id = randomUUID();
      return runTask(
        ctx,
        {
          workflow: contentGenerateWorkflow,
          taskType: 'content_generation',
          idPrefix: 'content-generate',
        },
        { ...ctx.body, content_id },
      );
    },
  }),
  defineRoute<BatchRequest>({
    method: 'post',
    path: '/v1/content/generate/batch',
    auth: 'user',
    tags,
    summary: 'Generate content for several topics; a result per topic',
    description: `Runs the topics one after the other in one workflow. type social_media without platform writes for ${BATCH_DEFAULT_PLATFORM} (3,000 characters; each item's metadata.platform names it). data.content lists a result per topic: completed (content_id, content, metadata) or failed (error {code, message}, e.g. USAGE_LIMIT_EXCEEDED when the plan limit is reached mid-batch); data.summary counts them. One failed topic does not fail the batch.`,
    request: {
      body: withRequired(
        {
          type: typeField,
          topics: words(20, 300, { minItems: 1 }),
          ...common,
          platform: {
            ...platformEnum,
            description: `For social_media: sets the character limit (default ${BATCH_DEFAULT_PLATFORM}, named in each item's metadata.platform)`,
          },
        },
        ['type', 'topics'],
      ),
    },
    responses: taskResponses('A result per topic', {
      taskType: 'content_batch',
      result: allRequired({
        content: arr(
          withRequired(
            {
              index: int,
              topic: { type: 'string' },
              status: { enum: ['completed', 'failed'] },
              content_id: { type: 'string' },
              content: { type: 'string' },
              metadata: generatedMetadata,
              error: allRequired({ code: { type: 'string' }, message: { type: 'string' } }),
            },
            ['index', 'topic', 'status'],
          ),
        ),
        summary: allRequired({ total: int, completed: int, failed: int }),
      }),
    }),
    errors: { ...GENERATION_ERRORS, ...boundErrors('content_batch') },
    handler: (ctx) => {
      const content_ids = ctx.body.topics.map(() => randomUUID());
      const platform = ctx.body.type === 'social_media' ? (ctx.body.platform ?? BATCH_DEFAULT_PLATFORM) : undefined;
      return runTask(
        ctx,
        {
          workflow: contentBatchWorkflow,
          taskType: 'content_batch',
          idPrefix: 'content-batch',
        },
        { ...ctx.body, ...(platform ? { platform } : {}), content_ids },
      );
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/content',
    auth: 'user',
    tags,
    summary: "The caller's content records, newest first (without their text)",
    description:
      "A page of the live records (deleted ones are left out): `total` counts them all, `limit` (1-100, default 20) and `offset` page through them. Each item has the record's current version number; GET /v1/content/{content_id} gives its text and metadata.",
    request: {
      query: withRequired(
        {
          limit: { ...int, minimum: 1, maximum: 100, default: 20 },
          offset: { ...int, minimum: 0, maximum: 1_000_000, default: 0 },
        },
        [],
      ),
    },
    responses: {
      200: {
        description: 'A page of records',
        data: allRequired({ total: int, limit: int, offset: int, items: arr(recordSummarySchema) }),
      },
    },
    handler: async (ctx) => {
      const q = ctx.query as { limit: number; offset: number };
      const page = await listContent(ctx.deps.db, userIdOf(ctx), q.limit, q.offset);
      return { data: { ...page, limit: q.limit, offset: q.offset } };
    },
  }),
  defineRoute<unknown, unknown, { content_id: string }>({
    method: 'get',
    path: '/v1/content/{content_id}',
    auth: 'user',
    tags,
    summary: 'A content record (its current version)',
    description:
      "The record as of its latest version: text, title, metadata, `version` (the current one) and `versions` (how many exist; every one stays readable under /versions). origin_task_id names the generation task that created it. Another user's, a deleted and an unknown record are 404.",
    request: { params: idParams },
    responses: { 200: { description: 'The record', data: recordSchema } },
    handler: async (ctx) => ({ data: await ownRecord(ctx) }),
  }),
  defineRoute<
    { title?: string | null; content?: string; metadata?: Record<string, unknown>; expected_version?: number },
    unknown,
    { content_id: string }
  >({
    method: 'put',
    path: '/v1/content/{content_id}',
    auth: 'user',
    tags,
    summary: 'Revise a content record: a new version (the old ones stay readable)',
    description:
      'Any of title, content, metadata (merged into the stored metadata). A new content is measured again (word_count, readability_score, seo_score). expected_version: the version the change was made from; another current version answers 409. Nothing changed: the record as it is, no new version.',
    request: {
      params: idParams,
      body: withRequired(
        {
          title: { type: ['string', 'null'], maxLength: 300 },
          content: text(100_000),
          metadata: { type: 'object', maxProperties: 50 },
          expected_version: { ...int, minimum: 1 },
        },
        [],
        { minProperties: 1 },
      ),
    },
    responses: { 200: { description: 'The record after the change', data: recordSchema } },
    errors: { 409: 'expected_version is not the current version (or a concurrent change)' },
    handler: async (ctx) => {
      const userId = userIdOf(ctx);
      const b = ctx.body;
      const measuredKey = Object.keys(b.metadata ?? {}).find((k) => MEASURED.includes(k));
      if (measuredKey)
        throw new ValidationError([
          {
            location: 'body',
            path: `metadata.${measuredKey}`,
            kind: 'constraint',
            message: `metadata.${measuredKey} is measured or recorded by the platform, not set by a client`,
          },
        ]);
      const current = await ownRecord(ctx);
      const keywords = typeof current.metadata.focus_keyword === 'string' ? [current.metadata.focus_keyword] : [];
      const measured =
        b.content !== undefined ? (({ recommendations: _r, ...s }) => s)(scoreContent(b.content, keywords)) : {};
      const r = await handleCommand(
        ctx.deps.store,
        contentStream(ctx.params.content_id),
        contentDecider,
        {
          kind: 'revise',
          user_id: userId,
          title: b.title,
          content: b.content,
          metadata: b.metadata || b.content !== undefined ? { ...(b.metadata ?? {}), ...measured } : undefined,
          expected_version: b.expected_version,
        },
        { metadata: requestMeta(ctx) },
      );
      await settle(ctx, 'content-records', r.events);
      return { data: await ownRecord(ctx) };
    },
  }),
  defineRoute<unknown, unknown, { content_id: string }>({
    method: 'delete',
    path: '/v1/content/{content_id}',
    auth: 'user',
    tags,
    summary: 'Delete a content record (its versions are no longer served)',
    description:
      "Records ContentDeleted: the record and its versions answer 404 from then on, and the list leaves it out. Another user's, an already deleted and an unknown record are 404.",
    request: { params: idParams },
    responses: {
      200: { description: 'Deleted', data: allRequired({ content_id: { type: 'string' }, deleted: { const: true } }) },
    },
    errors: { 409: 'A concurrent change of the record (retry)' },
    handler: async (ctx) => {
      const r = await handleCommand(
        ctx.deps.store,
        contentStream(ctx.params.content_id),
        contentDecider,
        { kind: 'delete', user_id: userIdOf(ctx) },
        { metadata: requestMeta(ctx) },
      );
      await settle(ctx, 'content-records', r.events);
      return { data: { content_id: ctx.params.content_id, deleted: true } };
    },
  }),
  defineRoute<unknown, unknown, { content_id: string }>({
    method: 'get',
    path: '/v1/content/{content_id}/versions',
    auth: 'user',
    tags,
    summary: 'Every version of a content record, oldest first',
    description:
      'Version 1 is the generated text (changed: ["created"]); each PUT that changed something added one, naming what it changed (title, content, metadata). Each version carries the whole title, text and metadata as they were then. Another user\'s, a deleted and an unknown record are 404.',
    request: { params: idParams },
    responses: { 200: { description: 'The versions', data: arr(versionSchema) } },
    handler: async (ctx) => {
      const v = await listVersions(ctx.deps.db, userIdOf(ctx), ctx.params.content_id);
      if (!v) throw new NotFoundError('Content not found');
      return { data: v };
    },
  }),
  defineRoute<unknown, unknown, { content_id: string; version: number }>({
    method: 'get',
    path: '/v1/content/{content_id}/versions/{version}',
    auth: 'user',
    tags,
    summary: 'One version of a content record',
    description:
      "The title, text and metadata as they were at `version`, and what that version changed. A version the record does not have, and another user's, a deleted or an unknown record, are 404.",
    request: { params: allRequired({ content_id: uuid, version: { ...int, minimum: 1, maximum: 1_000_000 } }) },
    responses: { 200: { description: 'The version', data: versionSchema } },
    handler: async (ctx) => {
      const v = await listVersions(ctx.deps.db, userIdOf(ctx), ctx.params.content_id, ctx.params.version);
      if (!v?.length) throw new NotFoundError('Version not found');
      return { data: v[0] };
    },
  }),
];
