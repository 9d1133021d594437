/**
 * Authorization sweep over every operation of the OpenAPI document (issue 31). The document is built in-process
 * from the route registry (as scripts/openapi.ts writes it) and must list the same operations the API process
 * serves. On the full platform (API, Temporal worker, relay, projector), user A creates one resource of every kind
 * the document's path parameters name, through the API, and leaves data in every collection; then:
 *
 * - user B (same plan; B's API key, B's outreach session token, and for the calendar family also B's OAuth token
 *   with every scope) calls every operation with A's ids in the path — and in the body or query where an operation
 *   acts on a resource named there — and a minimal valid body: an operation naming A's resource answers 404 in its
 *   family's envelope, the administrators' operations 403, nothing answers 5xx (but the operations of an integration
 *   deliberately left unconfigured, listed below), and no answer carries any of A's ids, A's user id or the marker
 *   text A put in every name and title (beyond the values B sent itself);
 * - B again with a parent of B's own and a child of A's in the path (B's calendar with A's event, B's webhook with
 *   A's delivery, B's outreach campaign with A's lead): 404, so no child is looked up without its parent;
 * - an anonymous caller gets 401 in the family's envelope everywhere but the public operations, and the public
 *   operations of the document are exactly the ones docs/api.md lists ("Public routes");
 * - A reads every resource back (200) before B's sweep — so B's 404 is about ownership, not about a wrong id — and
 *   after it: nothing of A's was changed away or deleted.
 *
 * Exceptions (an operation answering B something else on A's id) are listed with their reason, so a new hole is a
 * failure here. The counts (operations, calls, resources by kind, exceptions, kinds not covered) are printed.
 */
import { createHmac, randomBytes, randomInt, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { PLATFORM_ROUTES } from '../../../api/routes';
import { docsRoutes } from '../../../api/docs/routes';
import { buildOpenApi } from '../../../api/kernel/openapi';
import { VERSION } from '../../../api/health/routes';
import type { RouteDef } from '../../../api/kernel/registry';
import { Family, FAMILIES, familyOf } from '../../../api/kernel/families';
import { ENVELOPES } from '../../../api/kernel/envelopes';
import { unsubscribeToken } from '../../../infra/outreach/unsubscribe';
import { JsonResponse } from '../../support/http';
import {
  expectStatus,
  FullPlatform,
  PlatformUser,
  request,
  RequestOptions,
  startFullPlatform,
  waitForTask,
} from '../../support/full-platform';
import { noise, solid } from '../../support/images';
import { testTemporal } from '../../support/env';
import { TASK_TYPE, USER_ID } from '../../../domain/search-attributes';

jest.setTimeout(15 * 60_000);

// ---------------------------------------------------------------------------------------------------------------
// The document and its operations
// ---------------------------------------------------------------------------------------------------------------

type Schema = Record<string, unknown>;
interface Param {
  name: string;
  in: string;
  required?: boolean;
  schema: Schema;
}
interface Operation {
  key: string; // "GET /v1/calendar/calendars/{calendar_id}"
  method: string;
  path: string;
  family: Family;
  isPublic: boolean;
  admin: boolean;
  pathParams: string[];
  query: Param[];
  body?: { contentType: string; schema: Schema };
}

const routes: RouteDef[] = [...PLATFORM_ROUTES];
routes.push(...docsRoutes(() => routes));
const DOC = buildOpenApi(routes, { version: VERSION }) as {
  paths: Record<string, Record<string, Schema>>;
  components: Schema;
};
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const OPERATIONS: Operation[] = Object.entries(DOC.paths).flatMap(([p, item]) =>
  Object.entries(item)
    .filter(([m]) => METHODS.includes(m))
    .map(([m, o]) => {
      const params = (o.parameters as Param[] | undefined) ?? [];
      const security = o.security as Record<string, unknown>[];
      const content = (o.requestBody as { content?: Record<string, { schema: Schema }> } | undefined)?.content;
      const contentType = content && Object.keys(content)[0];
      return {
        key: `${m.toUpperCase()} ${p}`,
        method: m.toUpperCase(),
        path: p,
        family: familyOf(p),
        isPublic: security.some((s) => Object.keys(s).length === 0),
        admin: o['x-required-role'] === 'admin',
        pathParams: params.filter((x) => x.in === 'path').map((x) => x.name),
        query: params.filter((x) => x.in === 'query'),
        ...(contentType ? { body: { contentType, schema: content[contentType].schema } } : {}),
      };
    }),
);

/** A JSON Schema of the document, its $ref followed. */
const deref = (s: Schema): Schema =>
  typeof s?.$ref === 'string'
    ? deref(
        s.$ref
          .split('/')
          .slice(1)
          .reduce<Schema>((a, k) => a[k] as Schema, DOC as unknown as Schema),
      )
    : s;

/** The smallest value a schema accepts, as far as a generic reading can tell (required fields only). */
function minimal(s0: Schema, depth = 0): unknown {
  const s = deref(s0);
  if (!s || depth > 12) return undefined;
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum)) return s.enum.find((x) => x !== null) ?? s.enum[0];
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  if (s.default !== undefined) return s.default;
  // Alternatives of whole schemas (not of required lists beside the properties): the first.
  if (Array.isArray(s.oneOf) && !s.properties) return minimal(s.oneOf[0] as Schema, depth + 1);
  if (Array.isArray(s.anyOf) && !s.properties && !s.type) {
    const branch = (s.anyOf as Schema[]).find((b) => deref(b).type !== 'null') ?? (s.anyOf[0] as Schema);
    return minimal(branch, depth + 1);
  }
  const type = Array.isArray(s.type) ? (s.type as string[]).find((t) => t !== 'null') : (s.type as string | undefined);
  switch (type) {
    case 'string': {
      if (s.format === 'date-time') return new Date(Date.now() + 2 * 86400_000).toISOString();
      if (s.format === 'date') return new Date(Date.now() + 2 * 86400_000).toISOString().slice(0, 10);
      if (s.format === 'uri' || s.format === 'url') return 'https://example.com/page';
      if (s.format === 'email') return 'someone@example.com';
      if (s.format === 'uuid') return randomUUID();
      const min = Math.max((s.minLength as number | undefined) ?? 1, 1);
      return 'sweep'.repeat(Math.ceil(min / 5)).slice(0, Math.max((s.maxLength as number | undefined) ?? 1e9, min));
    }
    case 'integer':
    case 'number':
      return (
        (s.minimum as number | undefined) ??
        (s.exclusiveMinimum !== undefined
          ? (s.exclusiveMinimum as number) + 1
          : Math.min(1, (s.maximum as number) ?? 1))
      );
    case 'boolean':
      return false;
    case 'array':
      return Array.from({ length: (s.minItems as number | undefined) ?? 0 }, () =>
        minimal((s.items as Schema) ?? {}, depth + 1),
      );
    default: {
      if (!s.properties && type !== 'object') return undefined;
      const props = (s.properties as Record<string, Schema> | undefined) ?? {};
      // One of several required lists (oneOf/anyOf beside the properties): the first.
      const alternative = ((s.oneOf ?? s.anyOf) as Schema[] | undefined)?.[0];
      const required = [
        ...new Set([
          ...((s.required as string[] | undefined) ?? []),
          ...((alternative?.required as string[] | undefined) ?? []),
        ]),
      ];
      // A body that must name at least n fields (a PATCH): the first ones.
      for (const k of Object.keys(props))
        if (required.length < ((s.minProperties as number | undefined) ?? 0) && !required.includes(k)) required.push(k);
      return Object.fromEntries(required.map((k) => [k, minimal(props[k] ?? {}, depth + 1)]));
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Resource kinds: what each path parameter names
// ---------------------------------------------------------------------------------------------------------------

/** The kind of resource a path parameter names: by parameter, then the first path prefix that matches. */
const KINDS: [param: string, prefix: string, kind: string][] = [
  ['key_id', '/api/settings/api-keys/', 'api_key'],
  ['session_id', '/api/settings/sessions/', 'session'],
  ['task_id', '/api/blog/research/', 'blog_research_task'],
  ['task_id', '/api/blog/outline/', 'blog_outline_task'],
  ['task_id', '/api/blog/generate/medium/', 'blog_medium_task'],
  ['task_id', '/api/blog/tasks/', 'blog_research_task'],
  ['task_id', '/api/sitebuilder/publish/', 'sitebuilder_publish_task'],
  ['task_id', '/api/profnet/tasks/', 'profnet_task'],
  ['task_id', '/api/socialnet-writer/tasks/', 'socialnet_task'],
  ['task_id', '/api/tasks/', 'podcast_script_task'],
  ['task_id', '/v1/tasks/', 'content_task'],
  ['task_id', '/api/videonet/render/', 'video_render_task'],
  ['task_id', '/api/podcast/dub/voices/', 'voice_clone_task'],
  ['task_id', '/api/podcast/dub/', 'dub_task'],
  ['taskId', '/api/story/task/', 'video_render_task'],
  ['slug', '/api/research/corpus/', 'corpus_document'],
  ['id', '/api/webhooks/', 'webhook'],
  ['delivery_id', '/api/webhooks/', 'webhook_delivery'],
  ['user_id', '/api/subscription/', 'user'],
  ['alert_id', '/api/subscription/alerts/', 'alert'],
  ['section_id', '/api/blog/section/', 'blog_section'],
  ['platform', '/api/image-studio/', 'image_platform'],
  ['key', '/api/image-studio/images/', 'studio_image'],
  ['campaign_id', '/api/v1/backlink-outreach/', 'outreach_campaign'],
  ['id', '/api/v1/backlink-outreach/campaigns/', 'outreach_campaign'],
  ['lead_id', '/api/v1/backlink-outreach/', 'outreach_lead'],
  ['template_id', '/api/v1/backlink-outreach/', 'outreach_template'],
  ['token', '/api/v1/backlink-outreach/unsubscribe/', 'unsubscribe_token'],
  ['batch_id', '/api/profnet/', 'profnet_batch'],
  ['batch_id', '/api/socialnet-writer/', 'socialnet_batch'],
  ['calendar_id', '/v1/calendar/', 'calendar'],
  ['event_id', '/v1/calendar/', 'calendar_event'],
  ['campaign_id', '/v1/calendar/', 'calendar_campaign'],
  ['user_id', '/v1/calendar/calendars/', 'share_grantee'],
  ['webhook_id', '/v1/calendar/webhooks/', 'calendar_webhook'],
  ['client_id', '/v1/calendar/oauth/clients/', 'oauth_client'],
  ['content_id', '/v1/content/', 'content'],
  ['version', '/v1/content/', 'content_version'],
  ['persona_id', '/v1/personas/', 'persona'],
  ['id', '/api/videonet/plan/', 'video_plan'],
  ['id', '/api/videonet/scenes/', 'video_scene'],
  ['filename', '/api/videonet/videos/', 'video_file'],
  ['filename', '/api/podcast/audio/', 'podcast_audio_file'],
  ['path', '/api/podcast/images/', 'podcast_image'],
  ['filename', '/api/podcast/videos/', 'podcast_video_file'],
  ['filename', '/api/podcast/final-videos/', 'podcast_final_video_file'],
  ['filename', '/api/podcast/dub/voices/audio/', 'voice_file'],
  ['filename', '/api/podcast/dub/audio/', 'dub_file'],
  ['project_id', '/api/podcast/projects/', 'podcast_project'],
];

const kindOf = (param: string, p: string) => KINDS.find(([n, prefix]) => n === param && p.startsWith(prefix))?.[2];

/** Path parameters that name no user's resource: the same value is anyone's to use (filled as below). */
const PUBLIC_KINDS: Record<string, string> = {
  corpus_document: "the research corpus is the platform's public sample library, served without a credential",
  image_platform: "a platform name of the image studio's format catalogue, the same for every user",
  unsubscribe_token:
    'a capability mailed to a lead (HMAC of a send attempt), not a user resource; probed with a well-signed token of an attempt that does not exist',
  share_grantee: 'the user a calendar is shared with (user C); the calendar in the same path is A’s',
};

/**
 * Kinds a test cannot create without an outside vendor. They are probed with A's real id of the nearest kind
 * (A's task id, A's file name), so B still gets 404 on an id of A's; reported as not covered.
 */
const NOT_CREATABLE: Record<string, { why: string; probe: string }> = {
  voice_clone_task: {
    why: 'voice cloning needs a speech vendor with a cloning adapter; none exists (POST /api/podcast/dub/voices/clone answers 503)',
    probe: 'dub_task',
  },
  voice_file: { why: 'a cloned voice sample exists only after a clone (above)', probe: 'dub_file' },
};

// ---------------------------------------------------------------------------------------------------------------
// Exceptions, each with its reason
// ---------------------------------------------------------------------------------------------------------------

/** Operations whose request names A's resource in the query as a filter: 2xx is right, without A's data. */
const FILTERS: Record<string, string> = {
  'GET /v1/calendar/calendars': "?team_id=A's team: the caller's own calendars of that team (none)",
  'GET /api/v1/backlink-outreach/campaigns': "?workspace_id=A's workspace: the caller's own campaigns in it (none)",
  'GET /api/podcast/videos': "?project_id=A's project: the caller's own videos of it (none)",
};

/** Operations that answer B's request naming A's resource with something else than 404, and why that is right. */
const B_EXCEPTIONS: Record<string, { status: number; why: string }> = {
  'GET /v1/calendar/oauth/authorize': {
    status: 302,
    why: "an OAuth client is an integrator's app any user may authorize (RFC 6749): B authorizes A's client for B's own calendars; the code goes to the client's registered redirect URI",
  },
};

/**
 * Operations that may answer the status given because the integration they need is deliberately not configured here
 * (the documented "not configured" answer, naming what to configure). None of them names a resource of A's.
 */
const UNCONFIGURED: Record<string, { status: number; why: string }> = {
  'POST /api/v1/backlink-outreach/replies/poll': {
    status: 503,
    why: 'replies need an IMAP mailbox (OUTREACH_IMAP_URL); configuring one would leave a Temporal schedule polling it',
  },
  'POST /api/podcast/dub/voices/clone': { status: 503, why: 'no speech vendor with a cloning adapter exists' },
  'POST /api/image-studio/control/process': {
    status: 503,
    why: 'every control operation needs an image vendor (the answer names the variables to set)',
  },
};

/**
 * Operations an OAuth access token may not use at all (403 before any resource is looked at, whatever the id):
 * managing OAuth clients and giving consent take an API key (docs/calendar.md, OAuth 2.0).
 */
const OAUTH_TOKEN_REFUSED = new Set([
  'POST /v1/calendar/oauth/clients',
  'GET /v1/calendar/oauth/clients/{client_id}',
  'DELETE /v1/calendar/oauth/clients/{client_id}',
  'GET /v1/calendar/oauth/authorize',
]);

/**
 * Public operations that refuse the sweep's request on its own proof, whoever calls: the status and why. (The
 * billing events route gets a delivery signed with the provider's secret, so it is not here: it answers 200.)
 */
const PUBLIC_REFUSALS: Record<string, { status: number; why: string }> = {
  'POST /v1/calendar/oauth/token': {
    status: 401,
    why: "invalid_client (RFC 6749 5.2): the form names A's OAuth client without its secret",
  },
  'POST /api/v1/backlink-outreach/unsubscribe/{token}': { status: 404, why: 'the token names no send attempt' },
};

// ---------------------------------------------------------------------------------------------------------------
// Envelopes and the documented public routes
// ---------------------------------------------------------------------------------------------------------------

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
const errorShape = Object.fromEntries(FAMILIES.map((f) => [f, ajv.compile(ENVELOPES[f].errorSchema)]));
const UNAUTHENTICATED: Record<Family, [(b: JsonResponse['body']) => unknown, string]> = {
  general: [(b) => b?.error?.code, 'INVALID_API_KEY'],
  developer: [(b) => b?.error?.code, 'INVALID_API_KEY'],
  subscription: [(b) => b?.error, 'AuthenticationError'],
  calendar: [(b) => b?.error?.code, 'AUTHENTICATION_ERROR'],
  outreach: [(b) => b?.detail, 'Not authenticated'],
  image_studio: [(b) => b?.detail, 'Authentication required'],
};

/** The "Public routes" table of docs/api.md: `| \`METHOD\` | \`/path\` | why |`. */
function documentedPublicRoutes(): string[] {
  const text = readFileSync(path.resolve(__dirname, '../../../docs/api.md'), 'utf8');
  const start = text.indexOf('### Public routes');
  if (start < 0) throw new Error('docs/api.md has no "### Public routes" section');
  const section = text.slice(start, text.indexOf('\n#', start + 5));
  return [...section.matchAll(/^\| `(GET|POST|PUT|PATCH|DELETE)` \| `([^`]+)` \|/gm)].map((m) => `${m[1]} ${m[2]}`);
}

// ---------------------------------------------------------------------------------------------------------------
// The sweep
// ---------------------------------------------------------------------------------------------------------------

const REDIRECT = 'https://integrator.example.com/callback';
/** In every name, title and topic of A's: a leak of A's text shows as this marker in B's answers. */
const MARK = `amark${randomBytes(5).toString('hex')}`;

type User = PlatformUser;
interface Outcome {
  op: Operation;
  credential: string;
  status: number;
  problem?: string;
}

describe('authorization sweep over every operation of the OpenAPI document', () => {
  /** The platform, its loopback site builder and its API address. */
  let P: FullPlatform;
  let builder: FullPlatform['builder'];
  let base: string;
  let A: User;
  let B: User;
  let C: User;
  /** A's resources by kind. */
  const ids: Record<string, string> = {};
  const started = Date.now();
  const counts: Record<string, number> = {};
  const exceptionsSeen = new Set<string>();
  const unconfiguredSeen = new Set<string>();
  /** B's refusals on operations naming nothing of A's (B's own state: nothing connected, nothing to do), for the summary. */
  const ownRefusals = new Set<string>();
  let namingA = 0;
  /** Answers by pass and status, for the summary. */
  const statuses: Record<string, Record<string, number>> = {};
  const tally = (who: string, status: number) => {
    statuses[who] ??= {};
    statuses[who][status] = (statuses[who][status] ?? 0) + 1;
  };

  const req = (credential: string | null, method: string, p: string, opts: RequestOptions = {}) =>
    request(base, credential, method, p, opts);
  const ok = expectStatus;
  /** Waits for a task of A's to finish (GET `statusPath`), returns its record. */
  const finished = (statusPath: string, credential = A.key): Promise<JsonResponse['body']> =>
    waitForTask(base, statusPath, credential, 240_000, P.explain);

  beforeAll(async () => {
    P = await startFullPlatform('authz-sweep');
    ({ builder, base } = P);
    [A, B, C] = [await P.user('sweep'), await P.user('sweep'), await P.user('sweep')];
    // B's outreach session and B's OAuth access token (every scope), made through the API like a client does.
    B.session = await P.session(B.key);
    B.oauth = await P.oauthToken(B.key, 'B app', REDIRECT);
  });

  afterAll(async () => {
    await P?.stop();
    const kinds = Object.keys(ids).sort();
    process.stdout.write(
      [
        `authorization sweep: ${OPERATIONS.length} operations in the document, ${Math.round((Date.now() - started) / 1000)} s`,
        `  calls: ${Object.entries(counts)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}`,
        `  resources of A: ${kinds.length} kinds — ${kinds.map((k) => `${k}=${ids[k].slice(0, 24)}`).join(', ')}`,
        `  operations whose request names A's resource (B's key/session pass): ${namingA} (each must answer 404)`,
        `  exceptions seen: ${[...exceptionsSeen].join('; ') || 'none'}`,
        `  B refused on its own operations: ${[...ownRefusals].sort().join('; ') || 'none'}`,
        `  unconfigured integrations seen: ${[...unconfiguredSeen].join('; ') || 'none'}`,
        `  statuses: ${Object.entries(statuses)
          .map(([who, byStatus]) => `${who} ${JSON.stringify(byStatus)}`)
          .join('; ')}`,
        `  not covered: ${Object.entries(NOT_CREATABLE)
          .map(([k, v]) => `${k} (${v.why}; probed with A's ${v.probe})`)
          .join('; ')}`,
        '',
      ].join('\n'),
    );
  });

  // -------------------------------------------------------------------------------------------------------------
  // A's resources
  // -------------------------------------------------------------------------------------------------------------

  async function createResourcesOfA(): Promise<void> {
    const post = (p: string, json: unknown = {}, headers: Record<string, string> = {}, cred = A.key) =>
      req(cred, 'POST', p, { json, headers });
    const topic = `remote work ${MARK}`;

    // Identity: a second key (the one B's key operations aim at) and a session (A's outreach credential).
    ids.api_key = (await ok(post('/api/settings/api-keys', { name: `key ${MARK}` }), 201)).body.data.key_id;
    const session = (await ok(post('/api/settings/sessions'), 201)).body.data;
    ids.session = session.session_id;
    A.session = session.token;

    const video = async () => {
      const plan = (
        await ok(
          post('/api/videonet/plan', { topic: `Morning routines ${MARK}`, format: 'short', duration_seconds: 15 }),
          201,
        )
      ).body;
      ids.video_plan = plan.plan_id;
      ids.video_scene = (
        await ok(post('/api/videonet/scenes', { plan_id: plan.plan_id }), 201)
      ).body.scenes[0].scene_id;
      const render = (await ok(post('/api/videonet/render', { plan_id: plan.plan_id, resolution: '480p' }), 202)).body;
      ids.video_render_task = render.task_id;
      ids.video_file = (await finished(`/api/videonet/render/${render.task_id}`)).result.filename;
    };

    const podcast = async () => {
      const project = (await ok(post('/api/podcast/projects', { title: `Show ${MARK}` }), 201)).body.project_id;
      ids.podcast_project = project;
      const script = (
        await ok(
          post('/api/podcast/script', {
            project_id: project,
            idea: `Why mornings matter ${MARK}`,
            duration_minutes: 0.5,
            speakers: [{ name: 'Ann' }],
          }),
          202,
        )
      ).body;
      ids.podcast_script_task = script.task_id;
      await finished(`/api/tasks/${script.task_id}`);
      await ok(post('/api/podcast/script/approve', { project_id: project, version: 1 }), 200);
      const audio = (await ok(post('/api/podcast/audio', { project_id: project, scene_id: 'scene-1' }), 202)).body;
      ids.podcast_audio_file = (await finished(`/api/tasks/${audio.task_id}`)).result.filename;
      ids.podcast_image = (
        await ok(post('/api/podcast/image', { project_id: project, scene_id: 'scene-1' }), 200)
      ).body.image_key;
      const [scene, dub] = await Promise.all([
        ok(post('/api/podcast/render/video', { project_id: project, scene_id: 'scene-1', resolution: '480p' }), 202),
        ok(post('/api/podcast/dub/audio', { project_id: project, target_language: 'es' }), 202),
      ]);
      ids.dub_task = dub.body.task_id;
      ids.podcast_video_file = (await finished(`/api/tasks/${scene.body.task_id}`)).result.filename;
      ids.dub_file = (await finished(`/api/tasks/${dub.body.task_id}`)).result.filename;
      const final = (await ok(post('/api/podcast/render/combine-videos', { project_id: project }), 202)).body;
      ids.podcast_final_video_file = (await finished(`/api/tasks/${final.task_id}`)).result.filename;
    };

    const content = async () => {
      const gen = (await ok(post('/v1/content/generate', { type: 'blog_post', topic, length: 'short' }), 202)).body
        .data;
      ids.content_task = gen.task_id;
      ids.content = (await finished(`/v1/tasks/${gen.task_id}`)).result.content_id;
      ids.content_version = '1';
      ids.persona = (await ok(post('/v1/personas', { name: `Persona ${MARK}` }), 201)).body.data.persona_id;
    };

    const sitebuilder = async () => {
      const url = (await ok(req(A.key, 'GET', '/api/sitebuilder/auth/url'), 200)).body.data.authorization_url;
      await ok(post('/api/sitebuilder/auth/callback', await builder.authorize(url)), 200);
      const t = (
        await ok(post('/api/sitebuilder/publish', { title: `Post ${MARK}`, content: '# Hello\n\nA short post.' }), 202)
      ).body.data;
      ids.sitebuilder_publish_task = t.task_id;
      await finished(`/api/sitebuilder/publish/${t.task_id}`);
    };

    const rest = async () => {
      // Blog writer: the three task kinds and a section's continuity record.
      ids.blog_research_task = (await ok(post('/api/blog/research/start', { topic }), 200)).body.task_id;
      ids.blog_outline_task = (
        await ok(
          post('/api/blog/outline/start', {
            custom_instructions: `Write about ${topic}`,
            research: { sources: [{ url: 'https://example.com/a', title: 'A source' }] },
          }),
          200,
        )
      ).body.task_id;
      ids.blog_medium_task = (
        await ok(
          post('/api/blog/generate/medium/start', {
            title: `Remote work ${MARK}`,
            sections: [{ id: 's1', heading: 'Why remote work' }],
          }),
          200,
        )
      ).body.task_id;
      ids.blog_section = `section-${MARK}`;
      await ok(
        post('/api/blog/section/generate', {
          section: { id: ids.blog_section, heading: 'Why remote work', target_words: 20 },
        }),
        200,
      );

      // Webhooks: an endpoint and a delivery (the test ping).
      ids.webhook = (
        await ok(post('/api/webhooks', { url: `http://127.0.0.1:9/hook-${MARK}`, events: ['quota.warning'] }), 201)
      ).body.data.id;
      ids.webhook_delivery = (await ok(post(`/api/webhooks/${ids.webhook}/test`), 202)).body.data.delivery_id;

      // Image studio: an image of A's own (random pixels: no one else has the same content-addressed key).
      const up = (
        await ok(
          post('/api/image-studio/upscale', {
            image_base64: (await noise(24, 24, randomInt(1, 1e9))).toString('base64'),
            mode: 'fast',
          }),
          200,
        )
      ).body;
      ids.studio_image = String(up.image_url).split('/').pop()!;

      // Backlink outreach (A's session token): campaign, lead, template, a suppression entry.
      const O = '/api/v1/backlink-outreach';
      ids.outreach_campaign = (
        await ok(post(`${O}/campaigns`, { name: `Campaign ${MARK}` }, {}, A.session), 201)
      ).body.id;
      ids.outreach_lead = (
        await ok(
          post(
            `${O}/campaigns/${ids.outreach_campaign}/leads`,
            { website_url: `https://${MARK}.example.org`, contact_email: `editor-${MARK}@example.org` },
            {},
            A.session,
          ),
          201,
        )
      ).body.id;
      ids.outreach_template = (
        await ok(post(`${O}/emails/templates`, { name: `T ${MARK}`, subject: 'Hello', body: 'Hi' }, {}, A.session), 201)
      ).body.id;
      await ok(post(`${O}/suppression`, { email: `blocked-${MARK}@example.org` }, {}, A.session), 201);

      // Writers: a task and a batch of each network, and preferences.
      const async = { prefer: 'respond-async' };
      ids.profnet_task = (await ok(post('/api/profnet/generate-post', { topic }, async), 202)).body.task_id;
      ids.socialnet_task = (await ok(post('/api/socialnet-writer/post/generate', { topic }, async), 202)).body.task_id;
      ids.profnet_batch = (
        await ok(post('/api/profnet/batch-generate', { requests: [{ topic, type: 'post' }] }), 202)
      ).body.batch_id;
      ids.socialnet_batch = (
        await ok(post('/api/socialnet-writer/batch/generate', { requests: [{ topic, type: 'post' }] }), 202)
      ).body.batch_id;
      await ok(post('/api/profnet/user/preferences', { brand_settings: { brand_voice: `Brand ${MARK}` } }), 201);

      // Calendar: a calendar (in a team), an event, a campaign, a share with C, a webhook, an OAuth client.
      const cal = (
        await ok(
          post('/v1/calendar/calendars', { name: `Calendar ${MARK}`, timezone: 'UTC', team_id: `team-${MARK}` }),
          201,
        )
      ).body;
      ids.calendar = cal.id;
      ids.calendar_event = (
        await ok(
          post(`/v1/calendar/calendars/${cal.id}/events`, {
            title: `Event ${MARK}`,
            content_type: 'social_post',
            platform: 'profnet',
            scheduled_at: new Date(Date.now() + 7 * 86400_000).toISOString(),
          }),
          201,
        )
      ).body.id;
      ids.calendar_campaign = (
        await ok(post(`/v1/calendar/calendars/${cal.id}/campaigns`, { name: `Campaign ${MARK}` }), 201)
      ).body.id;
      await ok(post(`/v1/calendar/calendars/${cal.id}/share`, { user_id: C.userId, role: 'viewer' }), 201, 200);
      ids.calendar_webhook = (
        await ok(
          post('/v1/calendar/webhooks', { url: `http://127.0.0.1:9/cal-${MARK}`, events: ['event.created'] }),
          201,
        )
      ).body.id;
      ids.oauth_client = (
        await ok(post('/v1/calendar/oauth/clients', { client_name: `App ${MARK}`, redirect_uris: [REDIRECT] }), 201)
      ).body.client_id;

      // SEO dashboard: imported performance rows and a Search Console credential (collections, no path id).
      await ok(
        post('/api/seo-dashboard/performance/import', {
          domain: `${MARK}.example.com`,
          csv: `date,query,page,clicks,impressions,ctr,position\n2026-11-01,remote work,https://${MARK}.example.com/a,3,100,0.03,4.2`,
        }),
        201,
      );
      await ok(
        req(A.key, 'PUT', '/api/seo-dashboard/search-console', {
          json: { refresh_token: `refresh-${MARK}`, site_url: `https://${MARK}.example.com/` },
        }),
        200,
        201,
      );
    };

    await Promise.all([video(), podcast(), content(), sitebuilder(), rest()]);

    // A usage alert, last (A's usage then stands at 87 % of the plan's monthly cost).
    ids.alert = await P.raiseUsageAlert(A.userId, A.key, `sweep-${MARK}`);
    ids.user = A.userId;
  }

  // -------------------------------------------------------------------------------------------------------------
  // Requests of the sweep
  // -------------------------------------------------------------------------------------------------------------

  const PUBLIC_VALUES = (): Record<string, string> => ({
    corpus_document: 'content-repurposing',
    image_platform: 'profnet',
    unsubscribe_token: unsubscribeToken(Buffer.from(P.secrets.unsubscribe, 'utf8'), randomUUID()),
    share_grantee: C.userId,
  });

  /** The value of a path parameter: A's resource of its kind (or the probe of a kind not covered, or a public value). */
  function valueOf(op: Operation, param: string, own: Record<string, string> = {}): string {
    const kind = kindOf(param, op.path)!;
    if (own[param]) return own[param];
    if (kind in PUBLIC_KINDS) return PUBLIC_VALUES()[kind];
    if (kind in NOT_CREATABLE) return ids[NOT_CREATABLE[kind].probe];
    return ids[kind];
  }

  /** B's own small image (the studio's routes take one). */
  let bImage = '';
  /** B's own grant at the site builder (code and state), for B's callback. */
  let bGrant: { code: string; state: string | null } = { code: 'none', state: null };

  /** Bodies and queries B sends where the generic minimal body is not valid, or where the body names A's resource. */
  const BODIES: Record<string, () => unknown> = {
    'POST /api/blog/research/start': () => ({ topic: 'mornings' }),
    'POST /api/profnet/batch-generate': () => ({ requests: [{ type: 'post', topic: 'mornings' }] }),
    'POST /api/socialnet-writer/batch/generate': () => ({ requests: [{ type: 'post', topic: 'mornings' }] }),
    'POST /api/blog/flow-analysis/basic': () => ({ content: 'Mornings matter. They set the day.' }),
    'POST /api/blog/flow-analysis/advanced': () => ({ content: 'Mornings matter. They set the day.' }),
    'POST /api/blog/outline/refine': () => ({
      outline: [{ id: 's1', heading: 'Mornings' }],
      operation: 'rename',
      section_id: 's1',
      payload: { heading: 'Better mornings' },
    }),
    'POST /api/webhooks': () => ({ url: 'http://127.0.0.1:9/b-hook', events: ['quota.warning'] }),
    'PATCH /api/webhooks/{id}': () => ({ enabled: false }),
    'POST /v1/calendar/webhooks': () => ({ url: 'http://127.0.0.1:9/b-cal', events: ['event.created'] }),
    'POST /api/v1/backlink-outreach/suppression': () => ({ email: 'someone@example.com' }),
    'POST /api/seo-dashboard/performance/import': () => ({
      domain: 'example.com',
      csv: 'date,query,page,clicks,impressions,ctr,position\n2026-11-01,mornings,https://example.com/a,1,10,0.1,3',
    }),
    'POST /api/seo-dashboard/performance/sync': () => ({ domain: 'example.com' }),
    'POST /api/sitebuilder/auth/callback': () => bGrant,
    'POST /api/subscription/billing/events': () => ({ id: 'evt_sweep', type: 'customer.created' }),
    'POST /api/videonet/scenes': () => ({ plan_id: ids.video_plan }),
    'POST /api/videonet/render': () => ({ plan_id: ids.video_plan, resolution: '480p' }),
    'POST /api/podcast/script': () => ({
      project_id: ids.podcast_project,
      idea: 'an idea',
      duration_minutes: 0.5,
      speakers: [{ name: 'Bob' }],
    }),
    'POST /api/podcast/script/approve': () => ({ project_id: ids.podcast_project, version: 1 }),
    'POST /api/podcast/audio': () => ({ project_id: ids.podcast_project, scene_id: 'scene-1' }),
    'POST /api/podcast/audio/upload': () => ({
      project_id: ids.podcast_project,
      scene_id: 'scene-1',
      audio_base64: randomBytes(64).toString('base64'),
    }),
    'POST /api/podcast/combine-audio': () => ({ project_id: ids.podcast_project }),
    'POST /api/podcast/image': () => ({ project_id: ids.podcast_project, scene_id: 'scene-1' }),
    'POST /api/podcast/render/video': () => ({ project_id: ids.podcast_project, scene_id: 'scene-1' }),
    'POST /api/podcast/render/combine-videos': () => ({ project_id: ids.podcast_project }),
    'POST /api/podcast/dub/audio': () => ({ project_id: ids.podcast_project, target_language: 'es' }),
    'POST /api/podcast/dub/estimate': () => ({ project_id: ids.podcast_project, target_language: 'es' }),
    'POST /api/podcast/idea/enhance': () => ({ idea: 'an idea', project_id: ids.podcast_project }),
    'POST /api/podcast/analyze': () => ({ idea: 'an idea', project_id: ids.podcast_project }),
    'POST /api/podcast/regenerate-queries': () => ({ idea: 'an idea', project_id: ids.podcast_project }),
    'POST /api/podcast/research/exa': () => ({ queries: ['mornings'], project_id: ids.podcast_project }),
    'POST /api/podcast/avatar/make-presentable': () => ({ image_key: ids.podcast_image }),
    'POST /api/podcast/avatar/upload': () => ({ image_base64: bImage, project_id: ids.podcast_project }),
    'POST /api/podcast/avatar/generate': () => ({ prompt: 'a host', project_id: ids.podcast_project }),
    'POST /api/v1/backlink-outreach/outreach/send': () => ({
      campaign_id: ids.outreach_campaign,
      lead_id: ids.outreach_lead,
      subject: 'Hello',
      body: 'Hi there',
    }),
    'POST /api/v1/backlink-outreach/discover/deep': () => ({ keyword: 'mornings', campaign_id: ids.outreach_campaign }),
    'POST /api/v1/backlink-outreach/emails/generate': () => ({ topic: 'mornings', template_id: ids.outreach_template }),
    'PATCH /api/v1/backlink-outreach/campaigns/{id}/leads/bulk-status': () => ({
      lead_ids: [ids.outreach_lead],
      status: 'contacted',
    }),
    'PATCH /v1/calendar/calendars/{calendar_id}/events/bulk': () => ({
      event_ids: [ids.calendar_event],
      updates: { status: 'draft' },
    }),
    'POST /v1/calendar/oauth/token': () => ({
      grant_type: 'authorization_code',
      code: `cpa_${randomBytes(16).toString('hex')}`,
      redirect_uri: REDIRECT,
      client_id: ids.oauth_client,
      client_secret: 'cpcs_wrong',
    }),
    'POST /api/image-studio/edit/process': () => ({ image_base64: bImage, operation: 'remove_background' }),
    'POST /api/image-studio/control/process': () => ({
      control_image_base64: bImage,
      operation: 'sketch',
      prompt: 'a cat',
    }),
    'POST /api/image-studio/upscale': () => ({ image_base64: bImage, mode: 'fast' }),
    'POST /api/image-studio/social/optimize': () => ({ image_base64: bImage, platforms: ['profnet'] }),
  };
  const QUERIES: Record<string, () => Record<string, string>> = {
    'GET /api/seo-dashboard/performance': () => ({ domain: 'example.com' }),
    'GET /v1/calendar/calendars': () => ({ team_id: `team-${MARK}` }),
    'GET /api/v1/backlink-outreach/campaigns': () => ({ workspace_id: A.userId }),
    'GET /api/podcast/videos': () => ({ project_id: ids.podcast_project }),
    'GET /v1/calendar/oauth/authorize': () => ({
      response_type: 'code',
      client_id: ids.oauth_client,
      redirect_uri: REDIRECT,
      scope: 'calendar:read',
      state: 'sweep',
    }),
  };

  /** The request of `op`: A's ids in the path (but the parameters `own` gives), a minimal valid body. */
  function requestOf(op: Operation, own: Record<string, string> = {}) {
    const p = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(valueOf(op, name, own)));
    const query: Record<string, string> = {};
    for (const q of op.query) if (q.required) query[q.name] = String(minimal(q.schema));
    Object.assign(query, QUERIES[op.key]?.() ?? {});
    const qs = new URLSearchParams(query).toString();
    const body = op.body ? (BODIES[op.key]?.() ?? minimal(op.body.schema)) : undefined;
    const form = op.body?.contentType === 'application/x-www-form-urlencoded';
    const headers: Record<string, string> = { prefer: 'respond-async' };
    // The billing provider's deliveries are signed (Stripe-Signature: t=<s>,v1=<HMAC-SHA256(secret, "t.body")>).
    if (op.key === 'POST /api/subscription/billing/events') {
      const t = Math.floor(Date.now() / 1000);
      const mac = createHmac('sha256', P.secrets.billing)
        .update(`${t}.${JSON.stringify(body)}`)
        .digest('hex');
      headers['stripe-signature'] = `t=${t},v1=${mac}`;
    }
    return {
      path: qs ? `${p}?${qs}` : p,
      json: form ? undefined : body,
      form: form ? (body as Record<string, string>) : undefined,
      headers,
    };
  }

  /** A's values an answer to someone else must not carry: ids, user id, the marker (values of 8+ characters). */
  const secretsOfA = () =>
    [
      ...Object.entries(ids)
        .filter(([kind]) => !(kind in PUBLIC_KINDS))
        .map(([, v]) => v),
      A.userId,
      MARK,
    ].filter((v) => v.length >= 8);

  /** Whether an owned resource of A's is named by the request (path, query or body). */
  const namesA = (op: Operation, text: string) =>
    op.pathParams.some((n) => {
      const k = kindOf(n, op.path)!;
      return !(k in PUBLIC_KINDS);
    }) || secretsOfA().some((v) => text.includes(v));

  /** Calls `op` as `credential` and judges the answer; returns a problem description, if any. */
  async function sweepOne(
    op: Operation,
    credential: string,
    who: string,
    own: Record<string, string> = {},
  ): Promise<Outcome> {
    const r = requestOf(op, own);
    const res = await req(credential, op.method, r.path, r);
    counts[who] = (counts[who] ?? 0) + 1;
    tally(who, res.status);
    const sent = JSON.stringify([r.path, r.json ?? null, r.form ?? null]);
    const answer = `${typeof res.body === 'string' ? res.body : JSON.stringify(res.body ?? '')} ${res.headers.get('location') ?? ''}`;
    const leaked = secretsOfA().filter((v) => answer.includes(v) && !sent.includes(v));
    const out: Outcome = { op, credential: who, status: res.status };
    const fail = (why: string) => ({ ...out, problem: `${why}: ${answer.slice(0, 400)}` });
    if (leaked.length) return fail(`answer carries A's ${leaked.join(', ')}`);
    if (UNCONFIGURED[op.key]?.status === res.status) {
      unconfiguredSeen.add(`${op.key} → ${res.status}`);
      return out;
    }
    if (PUBLIC_REFUSALS[op.key]) {
      const want = PUBLIC_REFUSALS[op.key].status;
      return res.status === want ? out : fail(`public operation answered ${res.status}, not ${want}`);
    }
    if (res.status >= 500) return fail(`server error ${res.status}`);
    if (res.status === 401) return fail('401 for a valid credential');
    if (op.admin) return res.status === 403 ? out : fail(`admin operation answered ${res.status}, not 403`);
    if (who.includes('OAuth') && OAUTH_TOKEN_REFUSED.has(op.key))
      return res.status === 403 ? out : fail(`answered an OAuth token ${res.status}, not 403`);
    const exception = B_EXCEPTIONS[op.key];
    if (exception && res.status === exception.status) {
      exceptionsSeen.add(`${op.key} → ${exception.status}`);
      return out;
    }
    if (namesA(op, sent) && !(op.key in FILTERS)) {
      if (who === 'B') namingA++;
      if (res.status !== 404) return fail(`names A's resource, answered ${res.status}, not 404`);
      if (!errorShape[op.family](res.body)) return fail(`404 not in the ${op.family} error envelope`);
      return out;
    }
    if ([400, 422].includes(res.status)) return fail(`the sweep's request was refused as invalid (${res.status})`);
    if (res.status === 403) return fail('403 on an operation of its own');
    if (res.status >= 400) ownRefusals.add(`${op.key} → ${res.status}`);
    return out;
  }

  async function sweep(
    ops: Operation[],
    credential: (op: Operation) => string,
    who: string,
    own: (op: Operation) => Record<string, string> = () => ({}),
  ): Promise<Outcome[]> {
    const outcomes: Outcome[] = [];
    // Four at a time: the machine has two cores and the platform's processes beside the test.
    const queue = [...ops];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let op = queue.shift(); op; op = queue.shift())
          outcomes.push(await sweepOne(op, credential(op), who, own(op)));
      }),
    );
    return outcomes;
  }

  /** A reads back every resource of A's that a GET names: 200 (the ids are real, and nothing was taken away). */
  async function readBackAsA(): Promise<string[]> {
    const reads = OPERATIONS.filter(
      (op) =>
        op.method === 'GET' &&
        op.pathParams.length > 0 &&
        op.pathParams.every((n) => {
          const k = kindOf(n, op.path)!;
          return !(k in PUBLIC_KINDS) && !(k in NOT_CREATABLE);
        }),
    );
    const problems: string[] = [];
    let carrying = 0;
    for (const op of reads) {
      const r = requestOf(op);
      const cred = op.family === 'outreach' ? A.session! : A.key;
      const res = await req(cred, 'GET', r.path);
      counts['A read-back'] = (counts['A read-back'] ?? 0) + 1;
      if (res.status !== 200) problems.push(`${op.key}: A got ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
      // What the leak scan looks for is what A's own answers carry (beyond the ids A asked with).
      const answer = typeof res.body === 'string' ? res.body : JSON.stringify(res.body ?? '');
      if (secretsOfA().some((v) => answer.includes(v) && !r.path.includes(v))) carrying++;
    }
    expect(reads.length).toBeGreaterThan(40);
    expect(carrying).toBeGreaterThan(reads.length / 2);
    return problems;
  }

  // -------------------------------------------------------------------------------------------------------------
  // The tests
  // -------------------------------------------------------------------------------------------------------------

  it('the document built in-process lists the operations the API serves, and every path parameter has a kind', async () => {
    const served = (await ok(req(null, 'GET', '/openapi.json'), 200)).body as typeof DOC;
    const keys = (d: typeof DOC) =>
      Object.entries(d.paths)
        .flatMap(([p, item]) =>
          Object.keys(item)
            .filter((m) => METHODS.includes(m))
            .map((m) => `${m.toUpperCase()} ${p}`),
        )
        .sort();
    expect(keys(served)).toEqual(keys(DOC));
    expect(OPERATIONS.length).toBeGreaterThan(200);
    const unmapped = OPERATIONS.flatMap((op) =>
      op.pathParams.filter((n) => !kindOf(n, op.path)).map((n) => `${op.key} {${n}}`),
    );
    expect(unmapped).toEqual([]);
    // The exception lists name operations that exist.
    for (const k of [
      ...Object.keys(FILTERS),
      ...Object.keys(B_EXCEPTIONS),
      ...Object.keys(UNCONFIGURED),
      ...Object.keys(PUBLIC_REFUSALS),
      ...Object.keys(BODIES),
      ...Object.keys(QUERIES),
    ])
      expect([k, OPERATIONS.some((op) => op.key === k)]).toEqual([k, true]);
  });

  it('the public operations are exactly the ones docs/api.md lists and justifies', () => {
    const documented = documentedPublicRoutes().sort();
    expect(
      OPERATIONS.filter((op) => op.isPublic)
        .map((op) => op.key)
        .sort(),
    ).toEqual(documented);
    expect(OPERATIONS.filter((op) => op.admin).map((op) => op.key)).toEqual([
      'POST /api/subscription/admin/user/{user_id}/plan',
    ]);
  });

  it('A creates one resource of every kind the path parameters name, and reads each back', async () => {
    bImage = (await solid(16, 16, '#22aa44')).toString('base64');
    await createResourcesOfA();
    const kinds = new Set(OPERATIONS.flatMap((op) => op.pathParams.map((n) => kindOf(n, op.path)!)));
    const missing = [...kinds].filter((k) => !(k in PUBLIC_KINDS) && !(k in NOT_CREATABLE) && !ids[k]);
    expect(missing).toEqual([]);
    expect(await readBackAsA()).toEqual([]);
  });

  it("B, with B's own credentials, never gets A's resources: 404 on every operation naming one, 403 on admin operations", async () => {
    // B's own grant at the site builder, so B's callback connects B's site (and is not refused as a made-up code).
    const url = (await ok(req(B.key, 'GET', '/api/sitebuilder/auth/url'), 200)).body.data.authorization_url;
    bGrant = await builder.authorize(url);
    const credentialOf = (op: Operation) => (op.family === 'outreach' ? B.session! : B.key);
    const outcomes = await sweep(OPERATIONS, credentialOf, 'B');
    expect(outcomes).toHaveLength(OPERATIONS.length);
    // The calendar family again with B's OAuth access token (every scope).
    const calendar = OPERATIONS.filter((op) => op.family === 'calendar');
    const viaOAuth = await sweep(calendar, () => B.oauth!, 'B (OAuth token)');
    expect(viaOAuth).toHaveLength(calendar.length);
    // Parent of B's own, child of A's (an id looked up without its parent would show here): B's webhook with A's
    // delivery, B's outreach campaign with A's lead, B's calendar with A's event or campaign.
    const parents: Record<string, string> = {
      webhook: (await ok(req(B.key, 'POST', '/api/webhooks', { json: BODIES['POST /api/webhooks']() }), 201)).body.data
        .id,
      outreach_campaign: (
        await ok(req(B.session!, 'POST', '/api/v1/backlink-outreach/campaigns', { json: { name: 'B campaign' } }), 201)
      ).body.id,
      calendar: (await ok(req(B.key, 'POST', '/v1/calendar/calendars', { json: { name: 'B calendar' } }), 201)).body.id,
    };
    const owned = (op: Operation) =>
      op.pathParams.filter((n) => {
        const k = kindOf(n, op.path)!;
        return !(k in PUBLIC_KINDS) && (ids[k]?.length ?? 0) >= 8;
      });
    const nested = OPERATIONS.filter((op) => owned(op).length >= 2 && kindOf(owned(op)[0], op.path)! in parents);
    const mixed = await sweep(nested, credentialOf, "B (own parent, A's child)", (op) => {
      const parent = owned(op)[0];
      return { [parent]: parents[kindOf(parent, op.path)!] };
    });
    expect(nested.length).toBeGreaterThanOrEqual(10);
    const problems = [...outcomes, ...viaOAuth, ...mixed]
      .filter((o) => o.problem)
      .map((o) => `${o.credential} ${o.op.key} → ${o.status}: ${o.problem}`);
    expect(problems).toEqual([]);
  });

  it('anonymous: 401 in the family envelope on every operation but the public ones', async () => {
    const problems: string[] = [];
    const queue = [...OPERATIONS];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let op = queue.shift(); op; op = queue.shift()) {
          const r = requestOf(op);
          const res = await req(null, op.method, r.path, r);
          counts.anonymous = (counts.anonymous ?? 0) + 1;
          tally('anonymous', res.status);
          const answer = JSON.stringify(res.body ?? '');
          const leaked = secretsOfA().filter((v) => answer.includes(v) && !JSON.stringify(r).includes(v));
          if (leaked.length) problems.push(`${op.key}: answer carries A's ${leaked.join(', ')}`);
          if (op.isPublic) {
            const want = PUBLIC_REFUSALS[op.key]?.status;
            if (want ? res.status !== want : res.status === 401 || res.status >= 500)
              problems.push(`${op.key} (public) → ${res.status} ${answer.slice(0, 200)}`);
            continue;
          }
          const [pick, want] = UNAUTHENTICATED[op.family];
          if (res.status !== 401 || pick(res.body) !== want || !errorShape[op.family](res.body))
            problems.push(`${op.key} → ${res.status} ${answer.slice(0, 200)}`);
        }
      }),
    );
    expect(problems).toEqual([]);
  });

  it("A's resources are all still there after the sweeps", async () => {
    expect(await readBackAsA()).toEqual([]);
  });

  it('every workflow the sweep made the platform start carries UserId and TaskType (operators find each one)', async () => {
    const { client, connection } = await testTemporal();
    const types = new Set<string>();
    const missing: string[] = [];
    let runs = 0;
    // Visibility is eventually consistent: the last runs show within moments.
    await new Promise((r) => setTimeout(r, 2000));
    for await (const w of client.workflow.list({ query: `StartTime >= '${new Date(started).toISOString()}'` })) {
      if (w.taskQueue !== P.taskQueue && !w.taskQueue.startsWith(`${P.taskQueue}-`)) continue;
      runs++;
      types.add(w.type);
      if (!w.typedSearchAttributes.get(USER_ID) || !w.typedSearchAttributes.get(TASK_TYPE))
        missing.push(`${w.type} ${w.workflowId}`);
    }
    await connection.close();
    process.stdout.write(
      `workflows the sweep started: ${runs} runs of ${types.size} types, ${missing.length} without UserId/TaskType\n`,
    );
    expect(types.size).toBeGreaterThan(25);
    expect(missing).toEqual([]);
  });
});
