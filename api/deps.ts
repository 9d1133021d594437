/**
 * What the API needs from the outside, injected so tests can build the app
 * against their own schema, settings and extra routes.
 */
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import Ajv from 'ajv';
import type { checkAll } from '../infra/health/checks';
import type { PostgresEventStore } from '../infra/eventstore/postgres';
import type { Config } from '../infra/config';
import type { RateOptions, RateOverrides } from '../domain/plans';
import type { RouteDef } from './registry';
import type { Client } from '@temporalio/client';

export interface ApiSettings {
  /** Largest JSON body (bytes) of every family but the image studio. */
  bodyLimitBytes: number;
  /** Largest JSON body (bytes) of the image studio. */
  imageBodyLimitBytes: number;
  /** Bound of the read-your-writes wait after a write (ms). */
  consistencyTimeoutMs: number;
  /** How long a rotated key keeps working (s). */
  rotationGraceSeconds: number;
  /** Lifetime of session tokens (s). */
  sessionTtlSeconds: number;
  rate: RateOptions;
}

export interface AppDeps {
  logger: Logger;
  db: Knex;
  store: PostgresEventStore;
  health: () => ReturnType<typeof checkAll>;
  temporalUiUrl: string;
  /** Temporal client (connected on first use); routes that start or control workflows use it. */
  temporal?: () => Promise<Client>;
  /** Task queue the platform's workers poll. */
  taskQueue?: string;
  /** The local research corpus (served at /api/research/corpus/{slug}). */
  corpus?: Pick<import('../infra/research').CorpusProvider, 'document'>;
  /** Base URL clients use to reach the API (PUBLIC_BASE_URL or http://HOST:PORT); blog metadata builds canonical URLs on it. */
  publicBaseUrl?: string;
  /** Webhook settings (SSRF allow-list, retry schedule, secret key); read from the configuration when absent. */
  webhooks?: import('../infra/webhooks/settings').WebhookSettings;
  /** The text provider AI calls resolve to by default (vendor_a, vendor_b or local), for quota pre-checks. */
  aiProvider?: string;
  settings: ApiSettings;
  /** The clock of billing periods, subscription dates, trends and projections (default: the system clock; tests fix it). */
  now?: () => Date;
  /** Routes added to the platform's own (tests register families' probe routes this way). */
  extraRoutes?: RouteDef[];
}

const overridesSchema = {
  type: 'object',
  propertyNames: { enum: ['*', 'free', 'basic', 'pro', 'enterprise'] },
  additionalProperties: {
    type: 'object',
    propertyNames: { enum: ['general', 'developer', 'calendar', 'integration', 'status'] },
    additionalProperties: { type: 'object', propertyNames: { enum: ['minute', 'hour', 'day'] }, additionalProperties: { type: 'integer', minimum: 1 } },
  },
};
const validateOverrides = new Ajv({ allErrors: false }).compile(overridesSchema);

/** Parses RATE_LIMIT_OVERRIDES; throws naming the variable when it is not valid. */
export function parseRateOverrides(text: string): RateOverrides {
  if (!text) return {};
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new Error('Invalid configuration: RATE_LIMIT_OVERRIDES is not JSON');
  }
  if (!validateOverrides(v)) throw new Error(`Invalid configuration: RATE_LIMIT_OVERRIDES ${validateOverrides.errors?.[0]?.instancePath} ${validateOverrides.errors?.[0]?.message}`);
  return v as RateOverrides;
}

export function apiSettings(c: Config): ApiSettings {
  return {
    bodyLimitBytes: c.API_BODY_LIMIT_BYTES,
    imageBodyLimitBytes: c.API_IMAGE_BODY_LIMIT_BYTES,
    consistencyTimeoutMs: c.API_CONSISTENCY_TIMEOUT_MS,
    rotationGraceSeconds: c.API_KEY_ROTATION_GRACE_SECONDS,
    sessionTtlSeconds: c.SESSION_TTL_SECONDS,
    rate: { overrides: parseRateOverrides(c.RATE_LIMIT_OVERRIDES), developmentPercent: c.RATE_LIMIT_DEV_PERCENT },
  };
}
