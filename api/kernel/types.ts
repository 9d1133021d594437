/**
 * The types every part of the API shares: what the app is built with
 * (AppDeps), what a route declares (RouteDef) and what its handler receives
 * (HandlerCtx), and the per-request state. Kept apart from the modules that
 * use them, so the registry, the stages and the route modules depend on this
 * file and not on each other.
 */
import type { BillingProvider } from '../../infra/billing';
import type { Knex } from 'knex';
import type { CredentialCache } from '../identity/credential-cache';
import type { TaskCache } from './task-cache';
import type { PostgresRateLimiter } from '../../infra/ratelimit/postgres';
import type { Logger } from 'pino';
import type { Request, Response } from 'express';
import type { HealthSnapshot } from '../../infra/health/checks';
import type { Readable } from 'node:stream';
import type { EventStore } from '../../infra/eventstore';
import type { CorpusProvider } from '../../infra/research';
import type { WebhookSecretStore } from '../../infra/webhooks/secrets';
import type { SsrfOptions } from '../../infra/webhooks/ssrf';
import type { SitebuilderApiSettings } from '../../infra/sitebuilder/settings';
import type { IntegrationCredentialStore } from '../../infra/seo/credentials';
import type { RateDecision } from '../../infra/ratelimit/postgres';
import type { RateOptions, RateScheme } from '../../domain/plans';
import type { Caller } from '../identity/lookup';
import type { Family } from './families';
import type { JsonSchema } from './envelopes/common';
import type { RequestSchemas } from './validation';
import type { Client } from '@temporalio/client';
import type { ImageStudioSettings } from '../../infra/image';
import type { OutreachApiAdapters } from '../../infra/outreach';
import type { MediaStorage } from '../../infra/storage/port';
import type { PodcastApiAdapters } from '../../infra/podcast';

export interface ApiSettings {
  /** Largest JSON body (bytes) of every family but the image studio. */
  bodyLimitBytes: number;
  /** Largest JSON body (bytes) of the image studio. */
  imageBodyLimitBytes: number;
  /** How long a write waits for the projector before the API applies it to the projection itself (ms; 0: neither). */
  consistencyTimeoutMs: number;
  /** How long a rotated key keeps working (s). */
  rotationGraceSeconds: number;
  /** Lifetime of session tokens (s). */
  sessionTtlSeconds: number;
  rate: RateOptions;
  /** How long a generating route waits for its task before answering 202 with the task to poll (ms; api/kernel/tasks.ts). */
  taskWaitMs?: number;
  /** The same for the writers' generation routes (api/writers/tasks.ts; default 25 s). */
  writerTaskWaitMs?: number;
  /** How long an Idempotency-Key of the developer family is remembered (s; api/kernel/idempotency.ts). */
  idempotencyTtlSeconds?: number;
  /** How long a cancel route waits for its task to read `cancelled` before answering the record as it stands (ms). */
  cancelWaitMs?: number;
  /** Calls per hour of the calendar family without a valid credential, per client IP / OAuth client (default 1,000). */
  calendarAnonymousPerHour?: number;
  /** Calls per hour of the developer family without a valid credential, per client IP (default 36,000). */
  developerAnonymousPerHour?: number;
  /** The writers render through the studios when asked (WRITERS_RENDERING, default true). */
  writersRendering?: boolean;
}

/** The Temporal client of the API and the task queue its workers poll (connected on first use). */
export interface WorkflowClient {
  client(): Promise<Client>;
  taskQueue: string;
}

/** What webhook commands need besides the store: encrypted secret storage and the SSRF rules. */
export interface WebhookAdapters {
  secrets: WebhookSecretStore;
  ssrf: SsrfOptions;
}

/** Users' integration credentials (Search Console) and whether the deployment's Search Console client is configured. */
export interface IntegrationAdapters {
  credentials: IntegrationCredentialStore;
  searchConsole: boolean;
}

/** Current use of a user's plan limits in a billing period (the quota meter's rows). */
export interface QuotaReader {
  current(userId: string): Promise<Record<string, { used: number; reserved: number }>>;
}

/**
 * What the API needs from the outside. Every adapter is built once at start-up
 * (workers/api.ts; tests build their own), never inside a route.
 */
export interface AppDeps {
  logger: Logger;
  db: Knex;
  store: EventStore;
  /** Services and platform processes (workers/api.ts caches it for a second). */
  health: () => Promise<HealthSnapshot>;
  temporalUiUrl: string;
  /** The typed Temporal boundary (api/kernel/workflows.ts); absent: routes that run workflows answer 503. */
  workflows?: WorkflowClient;
  /** The local research corpus: fact checking retrieves from it, /api/research/corpus/{slug} serves it. */
  corpus: CorpusProvider;
  /** Encrypted webhook secrets and the SSRF rules of webhook URLs. */
  webhooks: WebhookAdapters;
  /** Integration credentials (SEO dashboard Search Console connection); absent: those routes answer 503. */
  integrations?: IntegrationAdapters;
  /** The billing provider of paid upgrades and the page its checkout returns to; absent: checkout answers 503. */
  billing?: { provider: BillingProvider; returnUrl: string };
  /** Plan-limit use, for refusing a task at once when its plan limit is used up. */
  quota?: QuotaReader;
  /** Base URL clients use to reach the API (PUBLIC_BASE_URL or http://HOST:PORT); blog metadata builds canonical URLs on it. */
  publicBaseUrl?: string;
  /** The text provider AI calls resolve to by default (vendor_a, vendor_b or local), for quota pre-checks. */
  aiProvider?: string;
  settings: ApiSettings;
  /** The clock of billing periods, subscription dates, trends and projections (default: the system clock; tests fix it). */
  now?: () => Date;
  /** Site publishing: authorization URL parts, PKCE key, state lifetime, cover URL rules (absent: routes answer 503). */
  sitebuilder?: SitebuilderApiSettings;
  /** Image studio: storage, configured image vendors, input and output limits; absent = its image routes answer 503. */
  imageStudio?: ImageStudioSettings;
  /** Backlink outreach: policy engine, send ledger, unsubscribe key, what is configured; absent = those routes answer 503. */
  outreach?: OutreachApiAdapters;
  /** Media files (storage port) and speech-vendor availability; absent: media routes answer 503. */
  media?: { storage: MediaStorage; speechVendorConfigured: boolean };
  /** Podcast maker: speech catalogue, translation pairs, what is configured; absent: dubbing lists answer 503. */
  podcast?: PodcastApiAdapters;
  /** Routes added to the platform's own (tests register families' probe routes this way). */
  extraRoutes?: RouteDef[];
  /** Verified credentials of this process, dropped on identity changes (api/identity/credential-cache.ts); absent: no cache. */
  credentials?: CredentialCache;
  /** Task records of this process, dropped when the task-status projection changes them (api/kernel/task-cache.ts); absent: no cache. */
  tasks?: TaskCache;
  /** The process's one rate limiter (leases of shared quota); absent: createApp makes one. */
  rateLimiter?: PostgresRateLimiter;
}

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface RouteResponse {
  description: string;
  /** Schema of `data` (wrapped in the family's success envelope in the document). */
  data?: JsonSchema;
  /** The success body carries a `message` (subscription family). */
  message?: boolean;
  /** Non-JSON responses (the docs page, files): content type(s); `data` is then the raw body schema. */
  contentType?: string | string[];
}

export type HandlerResult =
  | { status?: number; data?: unknown; message?: string; headers?: Record<string, string> }
  | {
      /** Non-JSON bodies (the docs page, stored files). A stream is piped; `headers` are set first (Range, ETag, ...). */
      raw: { status?: number; contentType: string; body: string | Buffer | Readable; headers?: Record<string, string> };
    };

export interface HandlerCtx<B = unknown, Q = Record<string, unknown>, P = Record<string, string>> {
  body: B;
  query: Q;
  params: P;
  /** Set on every route with auth 'user' or 'admin'; on public routes only when a credential was sent. */
  caller?: Caller;
  /** The body's bytes, on routes with `rawBody`. */
  rawBody?: Buffer;
  requestId: string;
  /** RouteDef.scope of the route: the OAuth scope its handler checks. */
  scope?: string;
  deps: AppDeps;
  req: Request;
  res: Response;
}

/**
 * The context of any route, for helpers shared by routes of different shapes: everything but the body, query and
 * params, which each route's handler has typed by defineRoute (a helper that needs one takes it as an argument).
 */
export type RouteCtx = Omit<HandlerCtx, 'body' | 'query' | 'params'>;

// Routes of any body, query and params shapes live in one list; each route's own handler is typed by defineRoute.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface RouteDef<B = any, Q = any, P = any> {
  method: Method;
  /** OpenAPI-style path: `/api/settings/api-keys/{key_id}`. */
  path: string;
  /** Defaults to the family of the path prefix (api/kernel/families.ts). */
  family?: Family;
  /**
   * `public`: no credential needed (one sent is still checked); `user`: a credential of the family is required;
   * `admin`: the credential's user must be an administrator (others: 403). Documented as `x-required-role: admin`.
   */
  auth: 'public' | 'user' | 'admin';
  /**
   * Keep the request body's exact bytes as `ctx.rawBody` beside the parsed JSON (a signed delivery whose signature
   * covers the bytes: the billing provider's events).
   */
  rawBody?: boolean;
  summary: string;
  description?: string;
  operationId?: string;
  tags?: string[];
  /** Rate scheme instead of the family's (e.g. `integration`). */
  rateScheme?: RateScheme;
  /** Largest body in bytes (default: the family's limit from the settings). */
  bodyLimitBytes?: number;
  /** Body media type when it is not JSON: `application/x-www-form-urlencoded` (the OAuth token endpoint). */
  bodyContentType?: 'application/x-www-form-urlencoded';
  /**
   * `bare`: the success body is `data` itself, without the family's success envelope (Document 2 routes whose
   * responses list their own fields, e.g. `success, seo_score, ...`). Errors keep the family's envelope.
   */
  successBody?: 'envelope' | 'bare';
  /**
   * A GET whose spec lists body fields: the fields of a JSON object body fill the query parameters the query string
   * does not give, before validation (the query schema and the OpenAPI document describe them).
   */
  queryFromBody?: boolean;
  /**
   * A polled read (task status): the 200 answer carries a weak `ETag` computed from `data`, and a request whose
   * `If-None-Match` names it gets `304 Not Modified` without a body (api/kernel/conditional.ts).
   */
  etag?: boolean;
  /**
   * The answer is the same for every caller and every request (the plan catalogue): the handler runs once, on first
   * use, and its 200 body is serialised once. Only in families whose success envelope ignores the request
   * (Envelope.contextFree) or with a bare body.
   */
  constant?: boolean;
  /** Path parameter that must be the caller's user id (or the caller an administrator), else 404. */
  ownerParam?: string;
  /**
   * The OAuth scope an access token needs for this operation (calendar family): documented as the operation's
   * `oauth2` security requirement and given to the handler as `ctx.scope`, which checks it (api/calendar/access.ts)
   * where the family's order of checks puts it. API keys carry every scope.
   */
  scope?: string;
  request?: RequestSchemas;
  /** Success responses by status. Error responses are added from the family. */
  responses: Record<number, RouteResponse>;
  /** Error statuses this route answers beyond the family's defaults (409, 503, ...), each with its description. */
  errors?: Record<number, string>;
  handler(ctx: HandlerCtx<B, Q, P>): Promise<HandlerResult> | HandlerResult;
}

/** Per-request state in res.locals. */
export interface RequestState {
  requestId: string;
  family: Family;
  route?: RouteDef & { operationId: string };
  caller?: Caller;
  userId?: string;
  rate?: RateDecision;
}
