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

type VarType = 'string' | 'integer' | 'boolean';

interface VarSpec {
  type: VarType;
  default?: string | number | boolean;
  description: string;
  /** Extra JSON Schema keywords (minimum, pattern, enum, ...). */
  schema?: Record<string, unknown>;
}

/**
 * The variables, each with its default and meaning. This table is the single
 * source: the schema, the docs (`docs/configuration.md`) and the docker compose
 * check are all derived from it.
 */
export const CONFIG_VARS = {
  NODE_ENV: { type: 'string', default: 'development', description: 'development, test or production', schema: { enum: ['development', 'test', 'production'] } },
  LOG_LEVEL: { type: 'string', default: 'info', description: 'pino log level', schema: { enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] } },
  HOST: { type: 'string', default: '127.0.0.1', description: 'Address the API listens on' },
  PORT: { type: 'integer', default: 8000, description: 'Port of the API (the spec names port 8000 for local development)', schema: { minimum: 0, maximum: 65535 } },
  PUBLIC_BASE_URL: { type: 'string', default: '', description: 'Base URL clients use to reach the API; empty means http://HOST:PORT', schema: { pattern: '^(|https?://.+)$' } },
  DATABASE_URL: { type: 'string', default: 'postgres://platform:platform@127.0.0.1:55432/platform', description: 'PostgreSQL connection string (event store, projections, limits)', schema: { pattern: '^postgres(ql)?://' } },
  DATABASE_POOL_MAX: { type: 'integer', default: 10, description: 'Largest number of PostgreSQL connections per process', schema: { minimum: 1, maximum: 200 } },
  TEMPORAL_ADDRESS: { type: 'string', default: '127.0.0.1:7233', description: 'Temporal frontend host:port', schema: { pattern: '^[^\\s:]+:\\d+$' } },
  TEMPORAL_NAMESPACE: { type: 'string', default: 'content-platform', description: 'Temporal namespace the platform uses', schema: { minLength: 1 } },
  TEMPORAL_TASK_QUEUE: { type: 'string', default: 'content-platform', description: 'Task queue of the platform worker', schema: { minLength: 1 } },
  TEMPORAL_UI_URL: { type: 'string', default: 'http://127.0.0.1:8233', description: 'Where operators find the Temporal Web UI (printed, linked from health)' },
  KAFKA_BROKERS: { type: 'string', default: '127.0.0.1:19092', description: 'Comma-separated Kafka bootstrap brokers host:port', schema: { pattern: '^[^\\s:,]+:\\d+(,[^\\s:,]+:\\d+)*$' } },
  KAFKA_CLIENT_ID: { type: 'string', default: 'content-platform', description: 'Kafka client id prefix' },
  KAFKA_TOPIC_PREFIX: { type: 'string', default: 'platform', description: 'Prefix of every topic and consumer group (lets test runs and deployments share a cluster)', schema: { pattern: '^[A-Za-z0-9._-]+$' } },
  KAFKA_TOPIC_PARTITIONS: { type: 'integer', default: 3, description: 'Partitions of each domain topic when the platform creates it', schema: { minimum: 1, maximum: 64 } },
  KAFKA_REPLICATION_FACTOR: { type: 'integer', default: 1, description: 'Replication factor of created topics (1 for the single-node local broker)', schema: { minimum: 1, maximum: 7 } },
  WORKER_HEALTH_PORT: { type: 'integer', default: 8101, description: 'Health port of the Temporal worker process (0 = any free port)', schema: { minimum: 0, maximum: 65535 } },
  RELAY_HEALTH_PORT: { type: 'integer', default: 8102, description: 'Health port of the event relay process (0 = any free port)', schema: { minimum: 0, maximum: 65535 } },
  PROJECTOR_HEALTH_PORT: { type: 'integer', default: 8103, description: 'Health port of the projector process (0 = any free port)', schema: { minimum: 0, maximum: 65535 } },
  WORKFLOW_BUNDLE_PATH: { type: 'string', default: '', description: 'Prebuilt workflow bundle the worker loads (npm run build writes dist/workflow-bundle.js); empty = bundle workflows/ at start' },
  MIGRATE_ON_START: { type: 'boolean', default: true, description: 'Run database migrations when the API starts' },
  SHUTDOWN_TIMEOUT_MS: { type: 'integer', default: 10000, description: 'How long a process waits for in-flight work on SIGTERM before it exits', schema: { minimum: 0, maximum: 600000 } },
} as const satisfies Record<string, VarSpec>;

export type ConfigKey = keyof typeof CONFIG_VARS;

type ValueOf<T extends VarType> = T extends 'integer' ? number : T extends 'boolean' ? boolean : string;

/** The validated configuration, one typed field per variable. */
export type Config = { [K in ConfigKey]: ValueOf<(typeof CONFIG_VARS)[K]['type']> };

export class ConfigError extends Error {
  constructor(readonly variable: string, message: string) {
    super(`Invalid configuration: ${variable} ${message}`);
    this.name = 'ConfigError';
  }
}

/** JSON Schema of the whole configuration, derived from CONFIG_VARS. */
export function configSchema(): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(CONFIG_VARS) as [string, VarSpec][]) {
    properties[name] = { type: spec.type, default: spec.default, description: spec.description, ...(spec.schema ?? {}) };
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
    const variable = err.instancePath.replace(/^\//, '') || String(err.params && (err.params as Record<string, unknown>).missingProperty || '?');
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
