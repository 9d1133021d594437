/** JSON Schemas of the site publishing routes (request bodies and the bodies we designed; docs/sitebuilder.md). */
import { MAX_TITLE_LENGTH } from '../../domain/sitebuilder/types';
import {
  allRequired,
  arr,
  bool,
  httpUrl,
  int,
  iso,
  nullableIso,
  str,
  strings,
  text,
  withRequired,
} from '../kernel/schema';
import type { JsonSchema } from '../kernel/envelopes/common';

const nullableStr: JsonSchema = { type: ['string', 'null'] };
const nullableBool: JsonSchema = { type: ['boolean', 'null'] };
const site: JsonSchema = {
  oneOf: [allRequired({ name: nullableStr, url: nullableStr }), { type: 'null' }],
  description: "The connected site's display name and primary URL, as the builder reports them",
};

export const authUrlSchema = allRequired({
  authorization_url: { type: 'string', format: 'uri', description: 'Send the site owner here' },
  state: { type: 'string', description: 'Opaque, single-use; must come back unchanged with the code' },
  code_challenge: { type: 'string', description: 'PKCE S256 challenge (already in the URL)' },
  code_challenge_method: { const: 'S256' },
  redirect_uri: { type: 'string' },
  scopes: arr({ type: 'string' }),
  expires_at: iso,
});

export const callbackBody = withRequired(
  {
    code: text(2048, { description: 'The authorization code the builder appended to the redirect URI' }),
    state: str(512, {
      description:
        'The state that came back with the code (optional: without it, the newest authorization in progress is completed)',
    }),
  },
  ['code'],
);

export const connectionResultSchema = allRequired({
  connected: { const: true },
  status: { const: 'connected' },
  connection_id: { type: 'string' },
  site,
  scopes: arr({ type: 'string' }),
  connected_at: iso,
  access_token_expires_at: iso,
});

export const connectionStatusSchema = allRequired({
  connected: bool,
  status: { enum: ['not_connected', 'connected', 'disconnected', 'revoked'] },
  connection_id: nullableStr,
  site,
  scopes: arr({ type: 'string' }),
  connected_at: nullableIso,
  access_token_expires_at: nullableIso,
  last_refreshed_at: nullableIso,
  disconnected_at: nullableIso,
  disconnect_reason: { enum: ['user_request', 'revoked_by_builder', 'replaced', null] },
  revoked_at_builder: nullableBool,
  pending_authorization_expires_at: nullableIso,
});

export const disconnectSchema = allRequired({
  connected: { const: false },
  status: { const: 'disconnected' },
  connection_id: { type: 'string' },
  revoked_at_builder: bool,
  revocation_error: nullableStr,
  disconnected_at: iso,
});

export const publishBody = withRequired(
  {
    title: text(MAX_TITLE_LENGTH, {
      description: `Post title (the builder allows at most ${MAX_TITLE_LENGTH} characters)`,
    }),
    content: text(200000, { description: 'The post in Markdown' }),
    cover_image_url: httpUrl({
      description:
        'A PNG, JPEG, GIF or WebP image on a public host; downloaded by the platform and uploaded to the site',
    }),
    category_ids: strings(10, 38, {
      description: "The builder's category ids (unknown ids are left out by the builder)",
    }),
    tag_ids: strings(30, 38, { description: "The builder's tag ids" }),
    publish: { type: 'boolean', default: true, description: 'false: leave a draft' },
  },
  ['title', 'content'],
);

export const publishQuery = withRequired(
  {
    wait_seconds: {
      ...int,
      minimum: 0,
      maximum: 60,
      default: 0,
      description: 'Wait up to this long for the job to finish before answering (0: answer at once with 202)',
    },
  },
  [],
);

const seoSchema = allRequired({
  seo_title: { type: 'string' },
  meta_description: { type: 'string' },
  url_slug: { type: 'string' },
  focus_keyword: { type: 'string' },
  blog_tags: arr({ type: 'string' }),
  reading_time: { type: 'number' },
  optimization_score: { type: 'number' },
  canonical_url: nullableStr,
});

export const publishResultSchema = allRequired({
  success: { const: true },
  status: { enum: ['published', 'draft'] },
  post_id: { type: 'string' },
  draft_id: { type: 'string' },
  url: nullableStr,
  title: { type: 'string' },
  category_ids: arr({ type: 'string' }),
  tag_ids: arr({ type: 'string' }),
  ignored_category_ids: arr({ type: 'string' }),
  ignored_tag_ids: arr({ type: 'string' }),
  cover_image: { oneOf: [allRequired({ file_id: { type: 'string' }, url: { type: 'string' } }), { type: 'null' }] },
  seo: seoSchema,
  rich_content: allRequired({ nodes: int, bytes: int }),
  reused_existing_draft: bool,
});

export const publishTaskSchema = withRequired(
  {
    task_id: { type: 'string' },
    status: { enum: ['started', 'in_progress', 'completed', 'failed', 'cancelled'] },
    created_at: iso,
    progress_messages: arr(allRequired({ timestamp: { type: 'string' }, message: { type: 'string' } })),
    result: publishResultSchema,
    error: allRequired({ code: { type: 'string' }, message: { type: 'string' } }),
  },
  ['task_id', 'status', 'created_at', 'progress_messages'],
);

export const taskIdParams = allRequired({ task_id: { type: 'string', minLength: 1, maxLength: 200 } });
