/**
 * The platform's one configuration module. Every process reads its settings
 * here, from the environment, and validates them with ajv before doing
 * anything else: a wrong value stops the process with a message that names
 * the variable, instead of failing later somewhere far from the cause.
 *
 * Defaults point at the local stack that `scripts/stack` starts; every service
 * address can be pointed elsewhere (an existing PostgreSQL, a Temporal
 * cluster, a Kafka cluster) by setting the variable.
 */
import Ajv from 'ajv';
import type { VarSpec, VarType } from './spec';
import { PLATFORM_VARS } from './platform';
import { AI_VARS } from './ai';
import { SEO_VARS } from './seo';
import { BILLING_VARS } from './billing';
import { LLAMA_VARS } from './llama';
import { API_VARS } from './api';
import { WEBHOOK_VARS } from './webhooks';
import { SITEBUILDER_VARS } from './sitebuilder';
import { IMAGE_VARS } from './image';
import { OUTREACH_VARS } from './outreach';
import { MEDIA_VARS } from './media';

/**
 * The variables, each with its default and meaning. This table is the single
 * source: the schema, the docs (`docs/configuration.md`) and the docker compose
 * check are all derived from it. Each area's variables are written in their own
 * file (infra/config/<area>.ts) and combined here, in the order the docs list them.
 */
export const CONFIG_VARS = {
  ...PLATFORM_VARS,
  ...AI_VARS,
  ...SEO_VARS,
  ...BILLING_VARS,
  ...LLAMA_VARS,
  ...API_VARS,
  ...WEBHOOK_VARS,
  ...SITEBUILDER_VARS,
  ...IMAGE_VARS,
  ...OUTREACH_VARS,
  ...MEDIA_VARS,
} as const satisfies Record<string, VarSpec>;

// A variable declared in two area files would be silently overwritten by the later spread: refuse to load instead.
const declared = [
  PLATFORM_VARS,
  AI_VARS,
  SEO_VARS,
  BILLING_VARS,
  LLAMA_VARS,
  API_VARS,
  WEBHOOK_VARS,
  SITEBUILDER_VARS,
  IMAGE_VARS,
  OUTREACH_VARS,
  MEDIA_VARS,
].flatMap((area) => Object.keys(area));
if (declared.length !== Object.keys(CONFIG_VARS).length)
  throw new Error(
    `infra/config: declared in two area files: ${declared.filter((k, i) => declared.indexOf(k) !== i).join(', ')}`,
  );

export type ConfigKey = keyof typeof CONFIG_VARS;

type ValueOf<T extends VarType> = T extends 'integer' ? number : T extends 'boolean' ? boolean : string;

/** The validated configuration, one typed field per variable. */
export type Config = { [K in ConfigKey]: ValueOf<(typeof CONFIG_VARS)[K]['type']> };

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`Invalid configuration: ${variable} ${message}`);
    this.name = 'ConfigError';
  }
}

/** JSON Schema of the whole configuration, derived from CONFIG_VARS. */
export function configSchema(): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(CONFIG_VARS) as [string, VarSpec][]) {
    properties[name] = {
      type: spec.type,
      default: spec.default,
      description: spec.description,
      ...(spec.schema ?? {}),
    };
  }
  return { type: 'object', properties, required: Object.keys(CONFIG_VARS), additionalProperties: false };
}

const ajv = new Ajv({ allErrors: true, useDefaults: true, coerceTypes: true });
const validate = ajv.compile(configSchema());

/**
 * Reads and validates the configuration from `env` (process.env by default).
 * Throws ConfigError naming the first wrong variable.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const raw: Record<string, unknown> = {};
  for (const name of Object.keys(CONFIG_VARS)) {
    const value = env[name];
    if (value !== undefined && value !== '') raw[name] = value;
  }
  for (const [name, spec] of Object.entries(CONFIG_VARS) as [string, VarSpec][]) {
    // ajv's coercion accepts "1"/"0" for booleans; we also accept the usual words.
    if (spec.type === 'boolean' && typeof raw[name] === 'string') {
      const v = (raw[name] as string).toLowerCase();
      if (['true', 'yes', 'on', '1'].includes(v)) raw[name] = true;
      else if (['false', 'no', 'off', '0'].includes(v)) raw[name] = false;
    }
  }
  if (!validate(raw)) {
    const err = validate.errors![0];
    const variable =
      err.instancePath.replace(/^\//, '') ||
      String((err.params && (err.params as Record<string, unknown>).missingProperty) || '?');
    const given = env[variable];
    throw new ConfigError(variable, `${err.message}${given !== undefined ? ` (got "${given}")` : ''}`);
  }
  return raw as Config;
}

let cached: Config | undefined;

/**
 * The process-wide configuration. On a wrong value it prints the message and
 * exits with status 78 (EX_CONFIG): a misconfigured process must not start.
 */
export function config(): Config {
  if (cached) return cached;
  try {
    cached = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(78);
    }
    throw e;
  }
  return cached;
}

/** The base URL clients use, derived from PUBLIC_BASE_URL or HOST:PORT. */
export function publicBaseUrl(c: Config): string {
  return c.PUBLIC_BASE_URL || `http://${c.HOST}:${c.PORT}`;
}
