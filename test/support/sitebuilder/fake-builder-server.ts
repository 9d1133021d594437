/**
 * The site builder on loopback, as a child process (oidc-provider is an ES
 * module that jest's module loader cannot load; a child process also outlives
 * the worker processes the crash test kills). Two servers:
 *
 * - OAuth: a real OAuth 2.0 authorization server (node-oidc-provider): the
 *   authorization endpoint with PKCE required, the token endpoint
 *   (authorization_code, refresh_token with rotation), revocation (RFC 7009)
 *   and introspection. Login and consent are answered at once for the
 *   account `site-owner` (a test has no person to click "allow").
 * - Content API: the builder's documented REST endpoints the platform uses
 *   (Blog draft posts: create, query, get, publish; posts: get with the URL
 *   fieldset; media: generate an upload URL and upload; site properties and
 *   published site URLs), each checking the bearer access token with the
 *   provider, so an expired or revoked token is refused as the builder would.
 *
 * Test controls under /__test: state (drafts, posts, files, issued tokens,
 * requests), behaviour (hold a draft creation, fail the next matching
 * request, the lifetime of the codes and access tokens issued from now on)
 * and revoke-all (the site owner revokes the app at the builder).
 * The parent learns the ports from an IPC message.
 */
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

const env = process.env;
const CLIENT_ID = env.FAKE_BUILDER_CLIENT_ID ?? 'platform-client';
const CLIENT_SECRET = env.FAKE_BUILDER_CLIENT_SECRET ?? 'platform-secret-value-0123456789';
const REDIRECT_URI = env.FAKE_BUILDER_REDIRECT_URI ?? 'http://127.0.0.1:9/sitebuilder/callback';
const ACCESS_TTL = Number(env.FAKE_BUILDER_ACCESS_TTL ?? 3600);
const CODE_TTL = Number(env.FAKE_BUILDER_CODE_TTL ?? 60);
const SCOPE = 'blog.manage';

interface Draft {
  id: string;
  title: string;
  status: 'UNPUBLISHED' | 'PUBLISHED';
  richContent: unknown;
  categoryIds: string[];
  tagIds: string[];
  media?: unknown;
  seoSlug?: string;
  seoData?: { tags?: { type: string; props?: Record<string, string>; children?: string }[] };
  memberId: string;
  editedDate: string;
}
interface Post {
  id: string;
  title: string;
  slug: string;
  categoryIds: string[];
  tagIds: string[];
  media?: unknown;
  seoData?: unknown;
  firstPublishedDate: string;
}
interface FileDescriptor {
  id: string;
  displayName: string;
  url: string;
  mimeType: string;
  sizeInBytes: string;
  mediaType: 'IMAGE';
  operationStatus: 'READY';
}
interface Failure {
  method: string;
  pathPrefix: string;
  status: number;
  body: unknown;
  times: number;
}

const drafts: Draft[] = [];
const posts: Post[] = [];
const files: FileDescriptor[] = [];
const uploads = new Map<string, { mimeType: string; fileName: string }>();
const issued = { access: [] as string[], refresh: [] as string[] };
const requests: { method: string; path: string; status: number }[] = [];
const behaviour = {
  holdDraftCreateMs: 0,
  failures: [] as Failure[],
  accessTtlSeconds: ACCESS_TTL,
  codeTtlSeconds: CODE_TTL,
};
const CATEGORIES = new Set(['cat-news', 'cat-guides']);
const TAGS = new Set(['tag-seo', 'tag-content']);

function buildProvider(issuer: string): Provider {
  const p = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: [REDIRECT_URI],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    scopes: ['openid', 'offline_access', SCOPE],
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      // Revocation by the client the token was issued to (RFC 7009).
      revocation: { enabled: true, allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId },
      introspection: { enabled: true },
    },
    // Every authorization of this client may refresh (the platform asks for offline access).
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    // Read when a token is issued: a test can make the next codes short-lived for one step and long-lived otherwise.
    ttl: {
      AccessToken: () => behaviour.accessTtlSeconds,
      AuthorizationCode: () => behaviour.codeTtlSeconds,
      RefreshToken: 86400,
      Grant: 86400,
      Interaction: 600,
      Session: 3600,
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub }) }),
    cookies: { keys: ['fake-builder-cookie-key'] },
  });
  p.on('access_token.saved', (t: { jti: string }) => issued.access.push(t.jti));
  p.on('refresh_token.saved', (t: { jti: string }) => issued.refresh.push(t.jti));
  return p;
}
let provider: Provider;
let oauthHandler: ReturnType<Provider['callback']>;

/** Login and consent answered at once for the site owner. */
async function interaction(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  if (details.prompt.name === 'login') {
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: 'site-owner' } },
      { mergeWithLastSubmission: false },
    );
    return;
  }
  const { params, session, prompt } = details;
  const grant = details.grantId
    ? (await provider.Grant.find(details.grantId))!
    : new provider.Grant({ accountId: session!.accountId, clientId: String(params.client_id) });
  const missing = prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  const grantId = await grant.save();
  await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
}

const oauthServer = http.createServer((req, res) => {
  if (req.url?.startsWith('/interaction/')) {
    interaction(req, res).catch((e) => {
      res.writeHead(500).end(String(e));
    });
    return;
  }
  oauthHandler(req, res);
});

function send(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The builder's bearer check: an unknown, expired or revoked token is 401; a token without the blog scope is 403. */
async function authorized(req: http.IncomingMessage, res: http.ServerResponse): Promise<boolean> {
  const header = req.headers.authorization ?? '';
  const value = header.replace(/^Bearer\s+/i, '');
  const token = value ? await provider.AccessToken.find(value) : undefined;
  if (!token || token.isExpired) {
    send(res, 401, { message: 'Unauthorized', details: { applicationError: { code: 'UNAUTHORIZED' } } });
    return false;
  }
  if (
    !String(token.scope ?? '')
      .split(' ')
      .includes(SCOPE)
  ) {
    send(res, 403, { message: `Missing scope ${SCOPE}`, details: { applicationError: { code: 'FORBIDDEN' } } });
    return false;
  }
  return true;
}

const base = () => `http://127.0.0.1:${(apiServer.address() as AddressInfo).port}`;
const postUrl = (p: Post) => ({ base: 'https://site-owner.example', path: `/post/${p.slug}` });
const slugOf = (t: string) =>
  t
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

function violation(field: string, description: string) {
  return {
    message: description,
    details: { validationError: { fieldViolations: [{ field, description, violatedRule: 'VALIDATION' }] } },
  };
}

async function contentApi(req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<void> {
  const method = req.method ?? 'GET';
  const path = url.pathname;
  const failure = behaviour.failures.find((f) => f.method === method && path.startsWith(f.pathPrefix));
  if (failure) {
    if (--failure.times <= 0) behaviour.failures.splice(behaviour.failures.indexOf(failure), 1);
    send(res, failure.status, failure.body);
    return;
  }
  // The upload URL carries its own one-time authorization (like the builder's signed upload URLs).
  const upload = /^\/_upload\/([0-9a-f-]{36})$/.exec(path);
  if (upload && method === 'PUT') {
    const u = uploads.get(upload[1]);
    if (!u) return send(res, 404, { message: 'upload URL unknown or used' });
    uploads.delete(upload[1]);
    const bytes = await readBody(req);
    const file: FileDescriptor = {
      id: `${randomUUID().replace(/-/g, '')}~mv2.${u.mimeType === 'image/png' ? 'png' : 'jpg'}`,
      displayName: url.searchParams.get('filename') ?? u.fileName,
      url: `https://static.site-owner.example/media/${upload[1]}`,
      mimeType: u.mimeType,
      sizeInBytes: String(bytes.length),
      mediaType: 'IMAGE',
      operationStatus: 'READY',
    };
    files.push(file);
    return send(res, 200, { file });
  }
  if (!(await authorized(req, res))) return;
  const body = method === 'POST' ? JSON.parse((await readBody(req)).toString('utf8') || '{}') : {};

  if (method === 'GET' && path === '/site-properties/v4/properties')
    return send(res, 200, { properties: { siteDisplayName: 'Site Owner Blog', language: 'en' } });
  if (method === 'GET' && path === '/urls-server/v2/published-site-urls')
    return send(res, 200, { urls: [{ url: 'https://site-owner.example', primary: true, urlType: 'PRIMARY' }] });

  if (method === 'POST' && path === '/site-media/v1/files/generate-upload-url') {
    if (!/^image\//.test(body.mimeType ?? ''))
      return send(res, 400, violation('mimeType', 'mimeType must be an image'));
    const id = randomUUID();
    uploads.set(id, { mimeType: body.mimeType, fileName: body.fileName ?? 'file' });
    return send(res, 200, { uploadUrl: `${base()}/_upload/${id}` });
  }

  if (method === 'POST' && path === '/blog/v3/draft-posts') {
    const d = body.draftPost ?? {};
    if (typeof d.title !== 'string' || d.title.trim() === '')
      return send(res, 400, violation('draftPost.title', 'title is required'));
    if (d.title.length > 100)
      return send(res, 400, violation('draftPost.title', 'title must be at most 100 characters'));
    if (!d.richContent || !Array.isArray(d.richContent.nodes))
      return send(res, 400, violation('draftPost.richContent', 'richContent.nodes is required'));
    const draft: Draft = {
      id: randomUUID(),
      title: d.title,
      status: 'UNPUBLISHED',
      richContent: d.richContent,
      // Like the builder: category and tag ids that do not exist are left out without an error.
      categoryIds: (d.categoryIds ?? []).filter((c: string) => CATEGORIES.has(c)),
      tagIds: (d.tagIds ?? []).filter((t: string) => TAGS.has(t)),
      media: d.media,
      seoSlug: d.seoSlug,
      seoData: d.seoData,
      memberId: 'site-owner',
      editedDate: new Date().toISOString(),
    };
    drafts.push(draft);
    // The draft exists now; a held answer lets a test kill the platform's worker before it records it.
    if (behaviour.holdDraftCreateMs > 0) await new Promise((r) => setTimeout(r, behaviour.holdDraftCreateMs));
    return send(res, 200, { draftPost: draft });
  }
  if (method === 'POST' && path === '/blog/v3/draft-posts/query') {
    const filter = body.query?.filter ?? {};
    const keys = Object.keys(filter);
    if (keys.some((k) => k !== 'title'))
      return send(res, 400, violation('query.filter', `unsupported filter field ${keys.join(',')}`));
    const title = filter.title?.$eq;
    const found = drafts.filter((d) => title === undefined || d.title === title);
    const limit = Math.min(Number(body.query?.paging?.limit ?? 50), 100);
    const offset = Number(body.query?.paging?.offset ?? 0);
    return send(res, 200, {
      draftPosts: found.slice(offset, offset + limit),
      metaData: { count: Math.min(limit, Math.max(0, found.length - offset)), offset, total: found.length },
    });
  }
  const draftPath = /^\/blog\/v3\/draft-posts\/([0-9a-f-]{36})(\/publish)?$/.exec(path);
  if (draftPath) {
    const d = drafts.find((x) => x.id === draftPath[1]);
    if (!d)
      return send(res, 404, { message: 'draft post not found', details: { applicationError: { code: 'NOT_FOUND' } } });
    if (method === 'GET' && !draftPath[2]) return send(res, 200, { draftPost: d });
    if (method === 'POST' && draftPath[2]) {
      if (d.status === 'PUBLISHED')
        return send(res, 400, {
          message: 'draft post is already published',
          details: { applicationError: { code: 'ALREADY_PUBLISHED' } },
        });
      d.status = 'PUBLISHED';
      posts.push({
        id: d.id,
        title: d.title,
        slug: d.seoSlug || slugOf(d.title),
        categoryIds: d.categoryIds,
        tagIds: d.tagIds,
        media: d.media,
        seoData: d.seoData,
        firstPublishedDate: new Date().toISOString(),
      });
      return send(res, 200, { postId: d.id });
    }
  }
  const postPath = /^\/blog\/v3\/posts\/([0-9a-f-]{36})$/.exec(path);
  if (postPath && method === 'GET') {
    const p = posts.find((x) => x.id === postPath[1]);
    if (!p) return send(res, 404, { message: 'post not found', details: { applicationError: { code: 'NOT_FOUND' } } });
    const withUrl = (url.searchParams.getAll('fieldsets') ?? []).includes('URL');
    return send(res, 200, { post: { ...p, ...(withUrl ? { url: postUrl(p) } : {}) } });
  }
  send(res, 404, { message: `no route ${method} ${path}` });
}

async function testControl(req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<void> {
  if (url.pathname === '/__test/state') return send(res, 200, { drafts, posts, files, issued, requests });
  const body = JSON.parse((await readBody(req)).toString('utf8') || '{}');
  if (url.pathname === '/__test/behaviour') {
    if (body.holdDraftCreateMs !== undefined) behaviour.holdDraftCreateMs = body.holdDraftCreateMs;
    if (body.accessTtlSeconds !== undefined) behaviour.accessTtlSeconds = body.accessTtlSeconds;
    if (body.codeTtlSeconds !== undefined) behaviour.codeTtlSeconds = body.codeTtlSeconds;
    if (body.fail) behaviour.failures.push({ times: 1, ...body.fail });
    return send(res, 200, behaviour);
  }
  if (url.pathname === '/__test/revoke-all') {
    // The site owner removes the app at the builder: every token it holds stops working.
    for (const v of issued.access) await (await provider.AccessToken.find(v))?.destroy();
    for (const v of issued.refresh) await (await provider.RefreshToken.find(v))?.destroy();
    return send(res, 200, { revoked: true });
  }
  send(res, 404, { message: 'unknown test control' });
}

const apiServer = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  // Recorded on arrival (a request whose client died before the answer counts too); the status once answered.
  const entry = { method: req.method ?? '', path: url.pathname, status: 0 };
  if (!url.pathname.startsWith('/__test')) requests.push(entry);
  res.on('finish', () => (entry.status = res.statusCode));
  const handler = url.pathname.startsWith('/__test') ? testControl : contentApi;
  handler(req, res, url).catch((e) => send(res, 500, { message: String(e) }));
});

async function main(): Promise<void> {
  await new Promise<void>((r) => oauthServer.listen(Number(env.FAKE_BUILDER_OAUTH_PORT ?? 0), '127.0.0.1', r));
  const oauthPort = (oauthServer.address() as AddressInfo).port;
  // The issuer names the port the server got, so the provider is built once it listens.
  provider = buildProvider(`http://127.0.0.1:${oauthPort}`);
  oauthHandler = provider.callback();
  await new Promise<void>((r) => apiServer.listen(0, '127.0.0.1', r));
  const apiPort = (apiServer.address() as AddressInfo).port;
  process.send?.({ type: 'ready', oauthPort, apiPort });
}

process.on('disconnect', () => process.exit(0));
main().catch((e) => {
  process.stderr.write(`fake builder failed: ${e}\n`);
  process.exit(1);
});
