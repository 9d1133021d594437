/**
 * The builder's REST API as the platform uses it (a port and its adapter):
 * Blog draft posts (create, query, get, publish), posts (get with the URL
 * fieldset), site media (generate an upload URL, upload), site properties and
 * published site URLs. Every call takes the access token of the connection;
 * a 401 comes back as a SitebuilderError with details.status 401 so the
 * caller can refresh once and try again.
 *
 * Idempotency: the builder has no idempotency key on draft creation, so each
 * draft carries a marker — a custom SEO meta tag named MARKER_META whose
 * content is the publish job id — and `findDraftByMarker` looks for it among
 * the drafts with the same title before anything is created again.
 */
import type { RicosDocument } from '../../domain/sitebuilder/ricos';
import { SitebuilderError } from './errors';
import { builderFetch, restError } from './http';
import type { SitebuilderEndpoints } from './settings';

export const MARKER_META = 'content-platform-publish-id';

export interface SeoTag {
  type: 'title' | 'meta';
  children?: string;
  props?: Record<string, string>;
  custom: boolean;
  disabled: boolean;
}

export interface NewDraft {
  title: string;
  richContent: RicosDocument;
  categoryIds: string[];
  tagIds: string[];
  /** A media file id and URL from uploadImage, shown as the post's cover. */
  cover?: { id: string; url: string };
  seoSlug: string;
  seoTags: SeoTag[];
  /** The publish job id, stored as the idempotency marker. */
  marker: string;
}

export interface RemoteDraft {
  id: string;
  title: string;
  status: string;
  categoryIds: string[];
  tagIds: string[];
  marker: string | null;
}

export interface RemotePost {
  id: string;
  slug: string | null;
  url: string | null;
}

export interface UploadedFile {
  id: string;
  url: string;
  mimeType: string;
  sizeBytes: number;
}

export interface SitebuilderApi {
  siteInfo(token: string): Promise<{ name: string | null; url: string | null }>;
  findDraftByMarker(token: string, title: string, marker: string): Promise<RemoteDraft | undefined>;
  createDraft(token: string, draft: NewDraft): Promise<RemoteDraft>;
  getDraft(token: string, id: string): Promise<RemoteDraft>;
  publishDraft(token: string, id: string): Promise<string>;
  getPost(token: string, id: string): Promise<RemotePost>;
  uploadImage(token: string, file: { bytes: Buffer; mimeType: string; fileName: string }): Promise<UploadedFile>;
}

type Json = Record<string, unknown>;

function draftOf(raw: unknown): RemoteDraft {
  const d = (raw ?? {}) as Json & { seoData?: { tags?: SeoTag[] } };
  if (typeof d.id !== 'string')
    throw new SitebuilderError('VENDOR_BAD_RESPONSE', 'The site builder answered a draft post without an id');
  const marker = (d.seoData?.tags ?? []).find((t) => t.type === 'meta' && t.props?.name === MARKER_META);
  return {
    id: d.id,
    title: String(d.title ?? ''),
    status: String(d.status ?? 'UNKNOWN'),
    categoryIds: Array.isArray(d.categoryIds) ? (d.categoryIds as string[]) : [],
    tagIds: Array.isArray(d.tagIds) ? (d.tagIds as string[]) : [],
    marker: marker?.props?.content ?? null,
  };
}

export function createSitebuilderApi(ep: Pick<SitebuilderEndpoints, 'apiBaseUrl' | 'timeoutMs'>): SitebuilderApi {
  const call = async (
    token: string,
    method: 'GET' | 'POST',
    path: string,
    action: string,
    json?: unknown,
  ): Promise<Json> => {
    const res = await builderFetch(
      `${ep.apiBaseUrl}${path}`,
      { method, headers: { authorization: `Bearer ${token}` }, json, timeoutMs: ep.timeoutMs },
      action,
    );
    if (res.status < 200 || res.status >= 300) throw restError(action, res);
    if (!res.json || typeof res.json !== 'object')
      throw new SitebuilderError(
        'VENDOR_BAD_RESPONSE',
        `The site builder answered ${action} with something that is not JSON`,
      );
    return res.json as Json;
  };

  return {
    async siteInfo(token) {
      const props = (await call(token, 'GET', '/site-properties/v4/properties', 'read the site properties'))
        .properties as Json | undefined;
      const urls = (await call(token, 'GET', '/urls-server/v2/published-site-urls', 'read the site URL')).urls as
        { url?: string; primary?: boolean }[] | undefined;
      const primary = (urls ?? []).find((u) => u.primary) ?? urls?.[0];
      return {
        name: typeof props?.siteDisplayName === 'string' ? props.siteDisplayName : null,
        url: typeof primary?.url === 'string' ? primary.url : null,
      };
    },

    async findDraftByMarker(token, title, marker) {
      // Titles are filterable ($eq); the marker is not, so the drafts with this title are read page by page.
      for (let offset = 0; offset < 1000; offset += 100) {
        const r = await call(token, 'POST', '/blog/v3/draft-posts/query', 'look up earlier drafts', {
          query: { filter: { title: { $eq: title } }, paging: { limit: 100, offset } },
        });
        const page = Array.isArray(r.draftPosts) ? r.draftPosts.map(draftOf) : [];
        const hit = page.find((d) => d.marker === marker);
        if (hit) return hit;
        if (page.length < 100) return undefined;
      }
      return undefined;
    },

    async createDraft(token, d) {
      const tags: SeoTag[] = [
        ...d.seoTags,
        { type: 'meta', props: { name: MARKER_META, content: d.marker }, custom: true, disabled: false },
      ];
      const r = await call(token, 'POST', '/blog/v3/draft-posts', 'create the draft post', {
        draftPost: {
          title: d.title,
          richContent: d.richContent,
          categoryIds: d.categoryIds,
          tagIds: d.tagIds,
          seoSlug: d.seoSlug,
          seoData: { tags },
          ...(d.cover
            ? { media: { wixMedia: { image: { id: d.cover.id, url: d.cover.url } }, displayed: true, custom: true } }
            : {}),
        },
        publish: false,
        fieldsets: ['URL'],
      });
      return draftOf(r.draftPost);
    },

    async getDraft(token, id) {
      const r = await call(token, 'GET', `/blog/v3/draft-posts/${encodeURIComponent(id)}`, 'read the draft post');
      return draftOf(r.draftPost);
    },

    async publishDraft(token, id) {
      const r = await call(
        token,
        'POST',
        `/blog/v3/draft-posts/${encodeURIComponent(id)}/publish`,
        'publish the draft post',
        {},
      );
      if (typeof r.postId !== 'string')
        throw new SitebuilderError('VENDOR_BAD_RESPONSE', 'The site builder published the draft without a post id');
      return r.postId;
    },

    async getPost(token, id) {
      const r = await call(
        token,
        'GET',
        `/blog/v3/posts/${encodeURIComponent(id)}?fieldsets=URL`,
        'read the published post',
      );
      const p = (r.post ?? {}) as { id?: string; slug?: string; url?: { base?: string; path?: string } };
      const url = p.url?.base && p.url.path !== undefined ? `${p.url.base.replace(/\/+$/, '')}${p.url.path}` : null;
      return { id: p.id ?? id, slug: p.slug ?? null, url };
    },

    async uploadImage(token, f) {
      const gen = await call(token, 'POST', '/site-media/v1/files/generate-upload-url', 'prepare the cover upload', {
        mimeType: f.mimeType,
        fileName: f.fileName,
      });
      if (typeof gen.uploadUrl !== 'string' || !/^https?:\/\//.test(gen.uploadUrl))
        throw new SitebuilderError('VENDOR_BAD_RESPONSE', 'The site builder answered without an upload URL');
      const u = new URL(gen.uploadUrl);
      u.searchParams.set('filename', f.fileName);
      const res = await builderFetch(
        u.toString(),
        { method: 'PUT', headers: { 'content-type': f.mimeType }, bytes: f.bytes, timeoutMs: ep.timeoutMs },
        'cover upload',
      );
      if (res.status < 200 || res.status >= 300) throw restError('upload the cover image', res);
      const file = ((res.json ?? {}) as Json).file as Json | undefined;
      if (!file || typeof file.id !== 'string' || typeof file.url !== 'string')
        throw new SitebuilderError('VENDOR_BAD_RESPONSE', 'The site builder answered the upload without a file id');
      return { id: file.id, url: file.url, mimeType: String(file.mimeType ?? f.mimeType), sizeBytes: f.bytes.length };
    },
  };
}
