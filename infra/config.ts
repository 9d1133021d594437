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
  NODE_ENV: {
    type: 'string',
    default: 'development',
    description: 'development, test or production',
    schema: { enum: ['development', 'test', 'production'] },
  },
  LOG_LEVEL: {
    type: 'string',
    default: 'info',
    description: 'pino log level',
    schema: { enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] },
  },
  HOST: { type: 'string', default: '127.0.0.1', description: 'Address the API listens on' },
  PORT: {
    type: 'integer',
    default: 8000,
    description: 'Port of the API (the spec names port 8000 for local development)',
    schema: { minimum: 0, maximum: 65535 },
  },
  PUBLIC_BASE_URL: {
    type: 'string',
    default: '',
    description: 'Base URL clients use to reach the API; empty means http://HOST:PORT',
    schema: { pattern: '^(|https?://.+)$' },
  },
  DATABASE_URL: {
    type: 'string',
    default: 'postgres://platform:platform@127.0.0.1:55432/platform',
    description: 'PostgreSQL connection string (event store, projections, limits)',
    schema: { pattern: '^postgres(ql)?://' },
  },
  DATABASE_POOL_MAX: {
    type: 'integer',
    default: 10,
    description: 'Largest number of PostgreSQL connections per process',
    schema: { minimum: 1, maximum: 200 },
  },
  TEMPORAL_ADDRESS: {
    type: 'string',
    default: '127.0.0.1:7233',
    description: 'Temporal frontend host:port',
    schema: { pattern: '^[^\\s:]+:\\d+$' },
  },
  TEMPORAL_NAMESPACE: {
    type: 'string',
    default: 'content-platform',
    description: 'Temporal namespace the platform uses',
    schema: { minLength: 1 },
  },
  TEMPORAL_TASK_QUEUE: {
    type: 'string',
    default: 'content-platform',
    description: 'Task queue of the platform worker',
    schema: { minLength: 1 },
  },
  TEMPORAL_UI_URL: {
    type: 'string',
    default: 'http://127.0.0.1:8233',
    description: 'Where operators find the Temporal Web UI (printed, linked from health)',
  },
  KAFKA_BROKERS: {
    type: 'string',
    default: '127.0.0.1:19092',
    description: 'Comma-separated Kafka bootstrap brokers host:port',
    schema: { pattern: '^[^\\s:,]+:\\d+(,[^\\s:,]+:\\d+)*$' },
  },
  KAFKA_CLIENT_ID: { type: 'string', default: 'content-platform', description: 'Kafka client id prefix' },
  KAFKA_TOPIC_PREFIX: {
    type: 'string',
    default: 'platform',
    description: 'Prefix of every topic and consumer group (lets test runs and deployments share a cluster)',
    schema: { pattern: '^[A-Za-z0-9._-]+$' },
  },
  KAFKA_TOPIC_PARTITIONS: {
    type: 'integer',
    default: 3,
    description: 'Partitions of each domain topic when the platform creates it',
    schema: { minimum: 1, maximum: 64 },
  },
  KAFKA_REPLICATION_FACTOR: {
    type: 'integer',
    default: 1,
    description: 'Replication factor of created topics (1 for the single-node local broker)',
    schema: { minimum: 1, maximum: 7 },
  },
  PROJECTOR_PARTITIONS_CONCURRENTLY: {
    type: 'integer',
    default: 3,
    description:
      'Partitions whose batches one projection applies at the same time (each in its own PostgreSQL transaction)',
    schema: { minimum: 1, maximum: 64 },
  },
  WORKER_HEALTH_PORT: {
    type: 'integer',
    default: 8101,
    description: 'Health port of the Temporal worker process (0 = any free port)',
    schema: { minimum: 0, maximum: 65535 },
  },
  RELAY_HEALTH_PORT: {
    type: 'integer',
    default: 8102,
    description: 'Health port of the event relay process (0 = any free port)',
    schema: { minimum: 0, maximum: 65535 },
  },
  PROJECTOR_HEALTH_PORT: {
    type: 'integer',
    default: 8103,
    description: 'Health port of the projector process (0 = any free port)',
    schema: { minimum: 0, maximum: 65535 },
  },
  WORKFLOW_BUNDLE_PATH: {
    type: 'string',
    default: '',
    description:
      'Prebuilt workflow bundle the worker loads (npm run build writes dist/workflow-bundle.js); empty = bundle workflows/ at start',
  },
  MIGRATE_ON_START: { type: 'boolean', default: true, description: 'Run database migrations when the API starts' },
  SHUTDOWN_TIMEOUT_MS: {
    type: 'integer',
    default: 10000,
    description: 'How long a process waits for in-flight work on SIGTERM before it exits',
    schema: { minimum: 0, maximum: 600000 },
  },
  // AI provider layer (infra/ai/, infra/research/; docs/providers.md). Empty base URL = vendor not configured.
  VENDOR_A_BASE_URL: {
    type: 'string',
    default: '',
    description:
      'OpenAI-compatible base URL of text vendor vendor_a (e.g. https://api.openai.com/v1, http://127.0.0.1:11434/v1); empty = not configured',
    schema: { pattern: '^(|https?://.+)$' },
  },
  VENDOR_A_API_KEY: {
    type: 'string',
    default: '',
    description: 'Bearer key of vendor_a (may stay empty for local servers such as Ollama)',
  },
  VENDOR_A_MODEL: {
    type: 'string',
    default: 'gpt-4o-mini',
    description: 'Model name sent to vendor_a; priced by domain/pricing.ts',
  },
  VENDOR_B_BASE_URL: {
    type: 'string',
    default: '',
    description:
      'OpenAI-compatible base URL of text vendor vendor_b (e.g. https://generativelanguage.googleapis.com/v1beta/openai); empty = not configured',
    schema: { pattern: '^(|https?://.+)$' },
  },
  VENDOR_B_API_KEY: { type: 'string', default: '', description: 'Bearer key of vendor_b' },
  VENDOR_B_MODEL: {
    type: 'string',
    default: 'gemini-2.0-flash',
    description: 'Model name sent to vendor_b; priced by domain/pricing.ts',
  },
  AI_TIMEOUT_MS: {
    type: 'integer',
    default: 60000,
    description: 'Time-out of one attempt of a text-vendor or web-search call (AbortSignal)',
    schema: { minimum: 100, maximum: 600000 },
  },
  AI_MAX_RETRIES: {
    type: 'integer',
    default: 3,
    description:
      'Retries after the first attempt on 429/5xx/time-out/network errors (exponential backoff with jitter, Retry-After honoured)',
    schema: { minimum: 0, maximum: 10 },
  },
  WEB_SEARCH_PROVIDER: {
    type: 'string',
    default: '',
    description: 'Web-search vendor for research: tavily or exa; empty = local corpus only',
    schema: { enum: ['', 'tavily', 'exa'] },
  },
  WEB_SEARCH_API_KEY: {
    type: 'string',
    default: '',
    description: 'Key of the web-search vendor (Tavily: Bearer; Exa: x-api-key)',
  },
  WEB_SEARCH_BASE_URL: {
    type: 'string',
    default: '',
    description: 'Base URL of the web-search vendor; empty = https://api.tavily.com or https://api.exa.ai',
    schema: { pattern: '^(|https?://.+)$' },
  },
  RESEARCH_CORPUS_DIR: {
    type: 'string',
    default: '',
    description: 'Folder of Markdown/HTML/text documents indexed for research; empty = data/corpus of the project',
  },
  // In-process language model `llama` (infra/ai/llama/; docs/providers.md). Loaded by the Temporal worker only.
  LLAMA_MODEL_PATH: {
    type: 'string',
    default: '',
    description:
      'GGUF model file of the llama provider (any instruct model with a chat template); empty = the default SmolLM2-135M-Instruct the project scripts fetch into .tools/models/; "off" = no llama provider. A missing file means no llama provider',
  },
  LLAMA_CONTEXTS: {
    type: 'integer',
    default: 0,
    description: 'Generations the worker runs at the same time (one llama.cpp context each); 0 = one per CPU core',
    schema: { minimum: 0, maximum: 64 },
  },
  LLAMA_THREADS: {
    type: 'integer',
    default: 0,
    description: 'CPU threads of each context; 0 = CPU cores / LLAMA_CONTEXTS (at least 1)',
    schema: { minimum: 0, maximum: 256 },
  },
  LLAMA_CONTEXT_SIZE: {
    type: 'integer',
    default: 2048,
    description: 'Tokens one context holds (prompt + answer); memory grows with it and with the model',
    schema: { minimum: 256, maximum: 131072 },
  },
  LLAMA_CALL_BUDGET_MS: {
    type: 'integer',
    default: 120000,
    description:
      'Time one AI call may spend in the model; sentences not reached by then keep the template writer text (reported as time_budget). Keep it below the activity time-outs (3 min sync, 5 min tasks)',
    schema: { minimum: 1000, maximum: 3600000 },
  },
  LLAMA_TEMPERATURE: {
    type: 'string',
    default: '0.3',
    description:
      'Sampling temperature of the llama provider (0 = always the likeliest token); top-k 40, top-p 0.9, min-p 0.05, repeat penalty 1.1 over the last 64 tokens, seed from the call idempotency key',
    schema: { pattern: '^(0|[0-1](\\.\\d+)?|2(\\.0+)?)$' },
  },
  // API core (api/; docs/api.md): request size, consistency wait, credentials, rate limits.
  API_BODY_LIMIT_BYTES: {
    type: 'integer',
    default: 1048576,
    description:
      'Largest JSON request body of the API (CONTENT_TOO_LONG / 413 above it); image studio routes use API_IMAGE_BODY_LIMIT_BYTES',
    schema: { minimum: 1024 },
  },
  API_IMAGE_BODY_LIMIT_BYTES: {
    type: 'integer',
    default: 26214400,
    description: 'Largest request body of the image studio routes (base64 images, recommended under 10 MB each)',
    schema: { minimum: 1024 },
  },
  API_CONSISTENCY_TIMEOUT_MS: {
    type: 'integer',
    default: 2000,
    description:
      'How long a write route waits for the projection serving the next read (read-your-writes) before it answers anyway',
    schema: { minimum: 0, maximum: 60000 },
  },
  API_KEY_ROTATION_GRACE_SECONDS: {
    type: 'integer',
    default: 86400,
    description: 'How long a rotated API key keeps working after POST .../rotate (24 h)',
    schema: { minimum: 0 },
  },
  SESSION_TTL_SECONDS: {
    type: 'integer',
    default: 43200,
    description: 'Lifetime of a session token made by POST /api/settings/sessions (12 h)',
    schema: { minimum: 1 },
  },
  RATE_LIMIT_DEV_PERCENT: {
    type: 'integer',
    default: 50,
    description: 'Development keys get this percentage of the production rate limits (rounded down, at least 1)',
    schema: { minimum: 1, maximum: 100 },
  },
  RATE_LIMIT_OVERRIDES: {
    type: 'string',
    default: '',
    description:
      'JSON overriding rate tiers: {"<plan>|*": {"<general|developer|calendar|integration>": {"<minute|hour|day>": n}}} (Enterprise contracts, tests)',
  },
  // Webhooks (infra/webhooks/, workflows/webhook-delivery.ts; docs/webhooks.md).
  WEBHOOK_SECRET_KEY: {
    type: 'string',
    default: '',
    description:
      'Key encrypting webhook signing secrets at rest (AES-256-GCM), 32 bytes base64; required in production, the same for API and worker; empty in development/test = generated once into .run/webhook-secret.key',
  },
  WEBHOOK_ALLOW_PRIVATE_HOSTS: {
    type: 'string',
    default: '',
    description:
      'Comma-separated host or host:port entries ([v6]:port for IPv6) whose webhook URLs may resolve to private/loopback/link-local addresses (SSRF allow-list; e.g. 127.0.0.1 for local receivers)',
  },
  WEBHOOK_RETRY_SCHEDULE: {
    type: 'string',
    default: '',
    description:
      'Seconds to wait before each webhook delivery attempt, comma-separated (first = before attempt 1); empty = 0,5,300,1800,7200,18000,36000,50400,72000,86400; each wait gets a deterministic ±10% jitter',
    schema: { pattern: '^(|\\s*\\d+(\\.\\d+)?\\s*(,\\s*\\d+(\\.\\d+)?\\s*)*)$' },
  },
  WEBHOOK_ATTEMPT_TIMEOUT_MS: {
    type: 'integer',
    default: 15000,
    description: 'Time-out of one webhook delivery attempt (connect + response), ms',
    schema: { minimum: 100, maximum: 120000 },
  },
} as const satisfies Record<string, VarSpec>;

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
