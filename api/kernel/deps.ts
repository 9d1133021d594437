/** The API's settings, read from the configuration at start-up (the types are in ./types.ts). */
import Ajv from 'ajv';
import type { Config } from '../../infra/config';
import type { ConcurrentTaskOverrides, RateOverrides } from '../../domain/plans';
import type { ApiSettings } from './types';

export type { ApiSettings, AppDeps } from './types';

const overridesSchema = {
  type: 'object',
  propertyNames: { enum: ['*', 'free', 'basic', 'pro', 'enterprise'] },
  additionalProperties: {
    type: 'object',
    propertyNames: { enum: ['general', 'developer', 'calendar', 'integration', 'status'] },
    additionalProperties: {
      type: 'object',
      propertyNames: { enum: ['minute', 'hour', 'day'] },
      additionalProperties: { type: 'integer', minimum: 1 },
    },
  },
};
const validateOverrides = new Ajv({ allErrors: false }).compile(overridesSchema);

const concurrencySchema = {
  type: 'object',
  propertyNames: { enum: ['*', 'free', 'basic', 'pro', 'enterprise'] },
  additionalProperties: {
    type: 'object',
    propertyNames: { enum: ['render', 'generation'] },
    additionalProperties: { type: 'integer', minimum: 1 },
  },
};
const validateConcurrency = new Ajv({ allErrors: false }).compile(concurrencySchema);

/** Parses the JSON of `variable` with `validate`; throws naming the variable when it is not valid. */
function parseJsonSetting<T>(variable: string, text: string, validate: typeof validateOverrides): T {
  if (!text) return {} as T;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new Error(`Invalid configuration: ${variable} is not JSON`);
  }
  if (!validate(v))
    throw new Error(
      `Invalid configuration: ${variable} ${validate.errors?.[0]?.instancePath} ${validate.errors?.[0]?.message}`,
    );
  return v as T;
}

/** Parses RATE_LIMIT_OVERRIDES; throws naming the variable when it is not valid. */
export const parseRateOverrides = (text: string): RateOverrides =>
  parseJsonSetting('RATE_LIMIT_OVERRIDES', text, validateOverrides);

/** Parses TASK_CONCURRENCY_OVERRIDES; throws naming the variable when it is not valid. */
export const parseConcurrencyOverrides = (text: string): ConcurrentTaskOverrides =>
  parseJsonSetting('TASK_CONCURRENCY_OVERRIDES', text, validateConcurrency);

export function apiSettings(c: Config): ApiSettings {
  return {
    bodyLimitBytes: c.API_BODY_LIMIT_BYTES,
    imageBodyLimitBytes: c.API_IMAGE_BODY_LIMIT_BYTES,
    consistencyTimeoutMs: c.API_CONSISTENCY_TIMEOUT_MS,
    rotationGraceSeconds: c.API_KEY_ROTATION_GRACE_SECONDS,
    sessionTtlSeconds: c.SESSION_TTL_SECONDS,
    rate: {
      overrides: parseRateOverrides(c.RATE_LIMIT_OVERRIDES),
      developmentPercent: c.RATE_LIMIT_DEV_PERCENT,
      concurrentTasks: parseConcurrencyOverrides(c.TASK_CONCURRENCY_OVERRIDES),
    },
    taskWaitMs: c.API_TASK_WAIT_MS,
    writerTaskWaitMs: c.WRITERS_TASK_WAIT_MS,
    idempotencyTtlSeconds: c.IDEMPOTENCY_KEY_TTL_SECONDS,
    cancelWaitMs: c.API_CANCEL_WAIT_MS,
    calendarAnonymousPerHour: c.CALENDAR_ANONYMOUS_RATE_PER_HOUR,
    developerAnonymousPerHour: c.DEVELOPER_ANONYMOUS_RATE_PER_HOUR,
    writersRendering: c.WRITERS_RENDERING,
  };
}
