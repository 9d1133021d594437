/** Request and result shapes of site publishing (Document 2, /api/sitebuilder; docs/sitebuilder.md). */

/** POST /api/sitebuilder/publish. */
export interface PublishRequest {
  title: string;
  /** Markdown. */
  content: string;
  cover_image_url?: string;
  category_ids?: string[];
  tag_ids?: string[];
  /** Publish after creating the draft (default true); false leaves a draft. */
  publish?: boolean;
}

/** The SEO metadata of the post, from the analysis engine (domain/analysis generateMetadata). */
export interface PublishSeo {
  seo_title: string;
  meta_description: string;
  url_slug: string;
  focus_keyword: string;
  blog_tags: string[];
  reading_time: number;
  optimization_score: number;
  /** The published post's URL (null for a draft). */
  canonical_url: string | null;
}

/** What a connection is, without any token. */
export interface ConnectionSummary {
  connection_id: string;
  scopes: string[];
  site: { name: string | null; url: string | null } | null;
  connected_at: string;
  access_token_expires_at: string;
}

export interface PreparedPost {
  seo: Omit<PublishSeo, 'canonical_url'>;
  /** Nodes of the rich-content document (all levels). */
  rich_content_nodes: number;
  rich_content_bytes: number;
}

export interface UploadedCover {
  file_id: string;
  url: string;
  mime_type: string;
  size_bytes: number;
}

export interface CreatedDraft {
  draft_id: string;
  connection_id: string;
  found_existing: boolean;
  category_ids: string[];
  tag_ids: string[];
}

export interface PublishedPost {
  post_id: string;
  url: string | null;
}

/** The publish result (the task record's `result`). */
export interface PublishResult extends Record<string, unknown> {
  success: true;
  status: 'published' | 'draft';
  post_id: string;
  draft_id: string;
  url: string | null;
  title: string;
  category_ids: string[];
  tag_ids: string[];
  /** Ids the request named that the builder does not know (it leaves them out without an error). */
  ignored_category_ids: string[];
  ignored_tag_ids: string[];
  cover_image: { file_id: string; url: string } | null;
  seo: PublishSeo;
  rich_content: { nodes: number; bytes: number };
  /** An earlier attempt of this job had already created the draft (found by its idempotency marker). */
  reused_existing_draft: boolean;
}

/** The builder's limit on one draft post (400 KB). */
export const MAX_DRAFT_BYTES = 400 * 1024;
/** The builder's limit on a title. */
export const MAX_TITLE_LENGTH = 100;
