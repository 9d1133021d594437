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
  LOG_BUFFER_BYTES: {
    type: 'integer',
    default: 4096,
    description:
      'Log lines are written in blocks of this many bytes (and every second, and at exit); 0 writes each line at once',
    schema: { minimum: 0, maximum: 8192 },
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
    description:
      'Base URL clients use to reach the API; empty means http://HOST:PORT, which production refuses when HOST is a listen-everywhere address (0.0.0.0, ::): infra/startup.ts',
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
  WORKER_RENDER_SLOTS: {
    type: 'integer',
    default: 2,
    description:
      'Render activities (ffmpeg, speech) one worker process runs at once, on the task queue <TEMPORAL_TASK_QUEUE>-render; light tasks on the platform queue never wait behind them (docs/api.md, "Fair use of heavy work")',
    schema: { minimum: 1, maximum: 64 },
  },
  WORKER_GENERATION_SLOTS: {
    type: 'integer',
    default: 8,
    description:
      'Activities of long generations and batches one worker process runs at once, on the task queue <TEMPORAL_TASK_QUEUE>-generation',
    schema: { minimum: 1, maximum: 256 },
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
  PROJECTOR_STALL_MS: {
    type: 'integer',
    default: 60000,
    description:
      'A projection consumer with messages waiting that has finished no batch for this long is replaced by a new one (ms; 0 = never)',
    schema: { minimum: 0 },
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
  WRITERS_RENDERING: {
    type: 'boolean',
    default: true,
    description:
      'The professional- and social-network writers render slide images and video posts through the studios when asked; false answers those requests with rendering not_available naming this variable',
  },
  SHUTDOWN_TIMEOUT_MS: {
    type: 'integer',
    default: 10000,
    description:
      'How long a process waits for in-flight work on SIGTERM before it exits (every process exits within this bound; a second signal exits at once)',
    schema: { minimum: 0, maximum: 600000 },
  },
  PROCESS_HEARTBEAT_MS: {
    type: 'integer',
    default: 2000,
    description:
      'How often the worker, relay and projector record that they are alive (platform_processes; read by /api/health)',
    schema: { minimum: 100, maximum: 60000 },
  },
  HEALTH_STALE_SECONDS: {
    type: 'integer',
    default: 10,
    description: '/api/health: a background process whose last heartbeat is older than this counts as down',
    schema: { minimum: 1, maximum: 3600 },
  },
  HEALTH_MAX_RELAY_LAG_EVENTS: {
    type: 'integer',
    default: 5000,
    description: '/api/health: events the relay may be behind the event store before the platform is degraded',
    schema: { minimum: 0 },
  },
  HEALTH_MAX_PROJECTION_LAG: {
    type: 'integer',
    default: 5000,
    description: '/api/health: messages a projection may be behind Kafka before the platform is degraded',
    schema: { minimum: 0 },
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
  VENDOR_A_CONTEXT_TOKENS: {
    type: 'integer',
    default: 0,
    description:
      "Context size of vendor_a's model in tokens; completion budgets are cut to fit beside the prompt. 0 = read it from the server's model list (/models: llama.cpp's n_ctx, vLLM's max_model_len, context_length) when it says, else send each task's budget as it is",
    schema: { minimum: 0, maximum: 10000000 },
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
  VENDOR_B_CONTEXT_TOKENS: {
    type: 'integer',
    default: 0,
    description: "Context size of vendor_b's model in tokens (as VENDOR_A_CONTEXT_TOKENS)",
    schema: { minimum: 0, maximum: 10000000 },
  },
  AI_TIMEOUT_MS: {
    type: 'integer',
    default: 60000,
    description: 'Time-out of one attempt of a text-vendor or web-search call (AbortSignal)',
    schema: { minimum: 100, maximum: 600000 },
  },
  AI_PROGRESS_EVERY_MS: {
    type: 'integer',
    default: 5000,
    description:
      "How often a streamed vendor generation adds a progress message to its task ('Writing blog.section: 180 tokens so far')",
    schema: { minimum: 200, maximum: 600000 },
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
  // Keyword research and SEO performance data (infra/keywords/, infra/seo/; docs/content.md).
  KEYWORD_VENDOR: {
    type: 'string',
    default: '',
    description:
      'Keyword-data vendor of keyword research: dataforseo (Google Ads keyword planner data); empty = research-corpus statistics only',
    schema: { enum: ['', 'dataforseo'] },
  },
  DATAFORSEO_LOGIN: { type: 'string', default: '', description: 'DataForSEO API login (Basic auth user)' },
  DATAFORSEO_PASSWORD: { type: 'string', default: '', description: 'DataForSEO API password (Basic auth password)' },
  DATAFORSEO_BASE_URL: {
    type: 'string',
    default: '',
    description: 'Base URL of the DataForSEO API; empty = https://api.dataforseo.com',
    schema: { pattern: '^(|https?://.+)$' },
  },
  SEARCH_CONSOLE_CLIENT_ID: {
    type: 'string',
    default: '',
    description:
      'OAuth client id (Google Cloud, scope webmasters.readonly) users connect Search Console with; empty = Search Console sync not available (import still is)',
  },
  SEARCH_CONSOLE_CLIENT_SECRET: {
    type: 'string',
    default: '',
    description: 'OAuth client secret of SEARCH_CONSOLE_CLIENT_ID',
  },
  SEARCH_CONSOLE_TOKEN_URL: {
    type: 'string',
    default: '',
    description: 'OAuth token endpoint; empty = https://oauth2.googleapis.com/token',
    schema: { pattern: '^(|https?://.+)$' },
  },
  SEARCH_CONSOLE_API_BASE_URL: {
    type: 'string',
    default: '',
    description: 'Search Console API base URL; empty = https://www.googleapis.com',
    schema: { pattern: '^(|https?://.+)$' },
  },
  // Billing: paid plan upgrades (infra/billing/; docs/subscription.md "Billing", docs/security.md).
  BILLING_API_KEY: {
    type: 'string',
    default: '',
    description:
      'Secret API key of the Stripe-compatible billing provider; empty (or no BILLING_WEBHOOK_SECRET / BILLING_PRICE_IDS) = no checkout: users upgrade only through an administrator',
  },
  BILLING_WEBHOOK_SECRET: {
    type: 'string',
    default: '',
    description:
      "Signing secret of the billing provider's webhook endpoint (POST /api/subscription/billing/events); deliveries whose Stripe-Signature does not match are refused",
  },
  BILLING_PRICE_IDS: {
    type: 'string',
    default: '',
    description:
      "The provider's price id of each plan that can be bought, e.g. basic=price_123,pro=price_456,enterprise=price_789",
    schema: {
      pattern:
        '^(|\\s*(basic|pro|enterprise)\\s*=\\s*[^,=\\s]+\\s*(,\\s*(basic|pro|enterprise)\\s*=\\s*[^,=\\s]+\\s*)*)$',
    },
  },
  BILLING_BASE_URL: {
    type: 'string',
    default: '',
    description: "Billing provider's API base URL; empty = https://api.stripe.com",
    schema: { pattern: '^(|https?://.+)$' },
  },
  BILLING_RETURN_URL: {
    type: 'string',
    default: '',
    description:
      "Page the provider's checkout returns to (success and cancel, with ?checkout=success|cancelled); empty = PUBLIC_BASE_URL",
    schema: { pattern: '^(|https?://.+)$' },
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
    default: 500,
    description:
      'How long a write route waits for the projector to apply its write to the projection serving the next read (read-your-writes) before the API applies it itself; 0 answers at once without either',
    schema: { minimum: 0, maximum: 60000 },
  },
  API_CANCEL_WAIT_MS: {
    type: 'integer',
    default: 10000,
    description:
      'How long a cancel route waits for its task to read cancelled (the worker stops the work and records it) before answering the task record as it stands',
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
  CALENDAR_ANONYMOUS_RATE_PER_HOUR: {
    type: 'integer',
    default: 1000,
    description:
      'Calls per hour of the calendar family (/v1/calendar) without a valid credential (401s, the public OAuth token endpoint), counted per client IP address, or per client_id on the token endpoint; default the Free tier calendar rate (docs/calendar.md)',
    schema: { minimum: 1 },
  },
  DEVELOPER_ANONYMOUS_RATE_PER_HOUR: {
    type: 'integer',
    default: 36000,
    description:
      'Calls per hour of the developer family (/v1) without a valid credential (401s, /v1/health called without a key), counted per client IP address so that meta.rate_limit is always present; default ten a second, enough for the health probes of a few load balancers (docs/api.md)',
    schema: { minimum: 1 },
  },
  RATE_LIMIT_OVERRIDES: {
    type: 'string',
    default: '',
    description:
      'JSON overriding rate tiers: {"<plan>|*": {"<general|developer|calendar|integration>": {"<minute|hour|day>": n}}} (Enterprise contracts, tests)',
  },
  TASK_CONCURRENCY_OVERRIDES: {
    type: 'string',
    default: '',
    description:
      'JSON overriding the heavy tasks a user may run at once: {"<plan>|*": {"<render|generation>": n}} (Enterprise contracts, benchmarks; docs/api.md, "Fair use of heavy work")',
  },
  API_TASK_WAIT_MS: {
    type: 'integer',
    default: 20000,
    description:
      'How long a generating route waits for its task before answering 202 with a task to poll (ms); clients may ask for less with Prefer: wait=<s> or respond-async (docs/content.md)',
    schema: { minimum: 0, maximum: 120000 },
  },
  WRITERS_TASK_WAIT_MS: {
    type: 'integer',
    default: 25000,
    description:
      "How long the professional- and social-network writers' generation routes wait for their task before answering 202 (ms); Prefer: wait=<s> may ask for up to 60 s, respond-async for none (docs/writers.md)",
    schema: { minimum: 0, maximum: 120000 },
  },
  API_PROCESSES: {
    type: 'integer',
    default: 0,
    description:
      'API processes serving PORT together (node:cluster, one port); 0 = one per core (os.availableParallelism()). Each has its own credential cache and rate-limit leases (docs/api.md)',
    schema: { minimum: 0, maximum: 64 },
  },
  CREDENTIAL_CACHE_TTL_MS: {
    type: 'integer',
    default: 5000,
    description:
      'How long an API process keeps a verified credential (ms); identity changes drop it at once through PostgreSQL LISTEN/NOTIFY, this is the backstop bound (0 = no cache; docs/api.md, "Credentials")',
    schema: { minimum: 0, maximum: 60000 },
  },
  TASK_CACHE_TTL_MS: {
    type: 'integer',
    default: 60000,
    description:
      'How long an API process keeps a task record it read (ms); the task-status projection announces every change through PostgreSQL LISTEN/NOTIFY, this is the backstop bound (0 = no cache; docs/api.md, "Polling a task")',
    schema: { minimum: 0, maximum: 600000 },
  },
  RATE_LIMIT_LEASE_MAX: {
    type: 'integer',
    default: 100,
    description:
      'Most requests of one window an API process leases from the shared PostgreSQL counter at once (also at most 1/20 of the limit); 1 = one statement per request (docs/api.md, "Rate limits")',
    schema: { minimum: 1, maximum: 10000 },
  },
  IDEMPOTENCY_KEY_TTL_SECONDS: {
    type: 'integer',
    default: 86400,
    description:
      'How long the developer API remembers an Idempotency-Key and its answer (s); a key seen again within it replays the answer (docs/content.md)',
    schema: { minimum: 60, maximum: 2592000 },
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
  // Site publishing (infra/sitebuilder/, workflows/sitebuilder.ts; docs/sitebuilder.md). Empty client id = not configured.
  SITEBUILDER_CLIENT_ID: {
    type: 'string',
    default: '',
    description: 'OAuth 2.0 client id of the platform at the website builder; empty = site publishing not configured',
  },
  SITEBUILDER_CLIENT_SECRET: {
    type: 'string',
    default: '',
    description: 'OAuth 2.0 client secret (sent with HTTP Basic to the token and revocation endpoints)',
  },
  SITEBUILDER_AUTHORIZE_URL: {
    type: 'string',
    default: '',
    description: "The builder's OAuth authorization endpoint (the site owner's browser goes there)",
    schema: { pattern: '^(|https?://.+)$' },
  },
  SITEBUILDER_TOKEN_URL: {
    type: 'string',
    default: '',
    description: "The builder's OAuth token endpoint (authorization_code and refresh_token grants, PKCE S256)",
    schema: { pattern: '^(|https?://.+)$' },
  },
  SITEBUILDER_REVOKE_URL: {
    type: 'string',
    default: '',
    description:
      "The builder's OAuth revocation endpoint (RFC 7009); empty = disconnect only forgets the tokens (the answer says revoked_at_builder: false)",
    schema: { pattern: '^(|https?://.+)$' },
  },
  SITEBUILDER_API_BASE_URL: {
    type: 'string',
    default: '',
    description: "Base URL of the builder's REST API (blog draft posts, posts, site media, site properties)",
    schema: { pattern: '^(|https?://.+)$' },
  },
  SITEBUILDER_REDIRECT_URI: {
    type: 'string',
    default: '',
    description:
      "Redirect URI registered with the builder; the client's page there posts code and state to POST /api/sitebuilder/auth/callback",
    schema: { pattern: '^(|https?://.+)$' },
  },
  SITEBUILDER_SCOPES: {
    type: 'string',
    default: 'offline_access',
    description: 'Space-separated OAuth scopes asked for (offline_access for a refresh token, plus the blog scope)',
  },
  SITEBUILDER_TOKEN_KEY: {
    type: 'string',
    default: '',
    description:
      'Key encrypting site-builder tokens at rest (AES-256-GCM) and deriving PKCE verifiers, 32 bytes base64; required in production, the same for API and worker; empty in development/test = generated once into .run/sitebuilder-token.key',
  },
  SITEBUILDER_STATE_TTL_SECONDS: {
    type: 'integer',
    default: 600,
    description: 'How long an authorization (state + PKCE verifier) may be completed by the callback',
    schema: { minimum: 10, maximum: 86400 },
  },
  SITEBUILDER_REFRESH_MARGIN_SECONDS: {
    type: 'integer',
    default: 120,
    description: 'An access token is refreshed when it expires within this many seconds (before it is used)',
    schema: { minimum: 0, maximum: 86400 },
  },
  SITEBUILDER_TIMEOUT_MS: {
    type: 'integer',
    default: 15000,
    description: 'Time-out of one call to the builder (OAuth or REST) and of the cover image download, ms',
    schema: { minimum: 100, maximum: 300000 },
  },
  SITEBUILDER_MEDIA_MAX_BYTES: {
    type: 'integer',
    default: 10485760,
    description: 'Largest cover image downloaded and uploaded to the builder (bytes)',
    schema: { minimum: 1024, maximum: 104857600 },
  },
  SITEBUILDER_MEDIA_ALLOW_PRIVATE_HOSTS: {
    type: 'string',
    default: '',
    description:
      'Comma-separated host or host:port entries whose cover image URLs may resolve to private/loopback addresses (SSRF allow-list, same form as WEBHOOK_ALLOW_PRIVATE_HOSTS)',
  },
  // Image studio (api/image-studio/, activities/image.ts; docs/image-studio.md). A vendor without a key is not configured.
  IMAGE_STORAGE: {
    type: 'string',
    default: 'local',
    description: 'Where image files are stored: local (IMAGE_STORAGE_DIR, shared by API and worker) or s3 (IMAGE_S3_*)',
    schema: { enum: ['local', 's3'] },
  },
  IMAGE_STORAGE_DIR: {
    type: 'string',
    default: '',
    description: 'Folder of the local image storage (content-addressed files); empty = .run/images of the project',
  },
  IMAGE_S3_ENDPOINT: {
    type: 'string',
    default: '',
    description: 'S3-compatible endpoint (path-style requests, SigV4), e.g. https://s3.eu-west-1.amazonaws.com',
    schema: { pattern: '^(|https?://.+)$' },
  },
  IMAGE_S3_BUCKET: { type: 'string', default: '', description: 'Bucket of the S3 image storage' },
  IMAGE_S3_REGION: { type: 'string', default: 'us-east-1', description: 'Region the S3 requests are signed for' },
  IMAGE_S3_ACCESS_KEY_ID: { type: 'string', default: '', description: 'Access key id of the S3 image storage' },
  IMAGE_S3_SECRET_ACCESS_KEY: { type: 'string', default: '', description: 'Secret access key of the S3 image storage' },
  IMAGE_S3_PREFIX: { type: 'string', default: '', description: 'Prefix of every object key, e.g. images/' },
  IMAGE_VENDOR_C_API_KEY: {
    type: 'string',
    default: '',
    description: 'Key of image vendor vendor_c (Stability AI REST API v2beta); empty = not configured',
  },
  IMAGE_VENDOR_C_BASE_URL: {
    type: 'string',
    default: '',
    description: 'Base URL of vendor_c; empty = https://api.stability.ai',
    schema: { pattern: '^(|https?://.+)$' },
  },
  IMAGE_VENDOR_C_MODEL: {
    type: 'string',
    default: 'stable-image-core',
    description:
      'Generation model of vendor_c when a request names none (stable-image-core, stable-image-ultra, sd3.5-large, sd3.5-large-turbo, sd3.5-medium); priced by domain/pricing.ts',
  },
  IMAGE_VENDOR_D_API_KEY: {
    type: 'string',
    default: '',
    description: 'Key of image vendor vendor_d (Black Forest Labs FLUX API); empty = not configured',
  },
  IMAGE_VENDOR_D_BASE_URL: {
    type: 'string',
    default: '',
    description: 'Base URL of vendor_d; empty = https://api.bfl.ai',
    schema: { pattern: '^(|https?://.+)$' },
  },
  IMAGE_VENDOR_D_MODEL: {
    type: 'string',
    default: 'flux-pro-1.1',
    description:
      'Generation model of vendor_d when a request names none (flux-pro-1.1, flux-pro-1.1-ultra, flux-dev); priced by domain/pricing.ts',
  },
  IMAGE_VENDOR_E_API_KEY: {
    type: 'string',
    default: '',
    description: 'Key of image vendor vendor_e (Replicate predictions API); empty = not configured',
  },
  IMAGE_VENDOR_E_BASE_URL: {
    type: 'string',
    default: '',
    description: 'Base URL of vendor_e; empty = https://api.replicate.com/v1',
    schema: { pattern: '^(|https?://.+)$' },
  },
  IMAGE_VENDOR_E_MODEL: {
    type: 'string',
    default: 'black-forest-labs/flux-schnell',
    description:
      'Generation model of vendor_e when a request names none (an official model owner/name, or owner/name:version); priced by domain/pricing.ts',
  },
  IMAGE_VENDOR_A_API_KEY: {
    type: 'string',
    default: '',
    description: 'Key of image vendor vendor_a (OpenAI Images API); empty = not configured',
  },
  IMAGE_VENDOR_A_BASE_URL: {
    type: 'string',
    default: '',
    description: 'Base URL of vendor_a; empty = https://api.openai.com/v1',
    schema: { pattern: '^(|https?://.+)$' },
  },
  IMAGE_VENDOR_A_MODEL: {
    type: 'string',
    default: 'gpt-image-1',
    description:
      'Generation model of vendor_a when a request names none (gpt-image-1, dall-e-3, dall-e-2); priced by domain/pricing.ts',
  },
  IMAGE_VENDOR_TIMEOUT_MS: {
    type: 'integer',
    default: 120000,
    description: 'Time-out of one HTTP attempt to an image vendor',
    schema: { minimum: 100, maximum: 600000 },
  },
  IMAGE_VENDOR_MAX_RETRIES: {
    type: 'integer',
    default: 2,
    description: 'Retries of 429/5xx/network errors within one image vendor call (the activity retry policy adds more)',
    schema: { minimum: 0, maximum: 10 },
  },
  IMAGE_VENDOR_TASK_TIMEOUT_MS: {
    type: 'integer',
    default: 300000,
    description: 'How long an asynchronous vendor task (polled by id) may take',
    schema: { minimum: 1000, maximum: 340000 },
  },
  IMAGE_MAX_INPUT_BYTES: {
    type: 'integer',
    default: 10485760,
    description: 'Largest decoded input image (bytes); larger is 400',
    schema: { minimum: 1024 },
  },
  IMAGE_MAX_INPUT_PIXELS: {
    type: 'integer',
    default: 40000000,
    description: "Largest input width x height (sharp's limitInputPixels): decompression bombs are 400",
    schema: { minimum: 1024, maximum: 268402689 },
  },
  IMAGE_MAX_OUTPUT_PIXELS: {
    type: 'integer',
    default: 33554432,
    description: 'Largest output width x height of upscale and outpaint (400 above)',
    schema: { minimum: 1024, maximum: 268402689 },
  },
  // Backlink outreach (infra/outreach/, workflows/outreach-*.ts; docs/outreach.md).
  OUTREACH_SMTP_URL: {
    type: 'string',
    default: '',
    description:
      'SMTP server outreach mail is sent through: smtp://user:pass@host:port (STARTTLS when offered; ?starttls=never|required) or smtps://...; empty = sending not configured (503)',
    schema: { pattern: '^(|smtps?://.+)$' },
  },
  OUTREACH_IMAP_URL: {
    type: 'string',
    default: '',
    description:
      'IMAP mailbox of the sender, read for replies and bounces: imap://user:pass@host:port (?starttls=never|required) or imaps://...; empty = replies not polled (503)',
    schema: { pattern: '^(|imaps?://.+)$' },
  },
  OUTREACH_IMAP_MAILBOX: { type: 'string', default: 'INBOX', description: 'IMAP folder replies arrive in' },
  OUTREACH_FROM_ADDRESS: {
    type: 'string',
    default: '',
    description: 'Sender mailbox of outreach mail (From:); its copy of each message goes to the same address',
  },
  OUTREACH_FROM_NAME: {
    type: 'string',
    default: '',
    description: 'Display name of the sender (From: and the footer of every outreach message; required to send)',
  },
  OUTREACH_POSTAL_ADDRESS: {
    type: 'string',
    default: '',
    description: 'Physical postal address printed in the footer of every outreach message (required to send)',
  },
  OUTREACH_PUBLIC_BASE_URL: {
    type: 'string',
    default: '',
    description:
      'HTTPS base URL of this API as recipients reach it, for one-click unsubscribe links (RFC 8058); empty = PUBLIC_BASE_URL; must be https in production',
    schema: { pattern: '^(|https?://.+)$' },
  },
  OUTREACH_UNSUBSCRIBE_SECRET: {
    type: 'string',
    default: '',
    description:
      'Key of the HMAC in unsubscribe links; required in production when outreach sending is configured (OUTREACH_SMTP_URL), the same for API and worker; empty in development/test = generated once into .run/outreach-unsubscribe.key',
  },
  OUTREACH_SENDER_DAILY_CAP: {
    type: 'integer',
    default: 50,
    description: 'Sends per sender mailbox, workspace and UTC day',
    schema: { minimum: 1, maximum: 100000 },
  },
  OUTREACH_DOMAIN_DAILY_CAP: {
    type: 'integer',
    default: 5,
    description: 'Sends per recipient domain, workspace and UTC day',
    schema: { minimum: 1, maximum: 100000 },
  },
  OUTREACH_WARMUP_RAMP: {
    type: 'string',
    default: '10,20,30,40',
    description:
      "Caps of a new sender mailbox's first days in a workspace (day 1, 2, ...), never above OUTREACH_SENDER_DAILY_CAP; empty = no warm-up",
    schema: { pattern: '^(|\\s*\\d+\\s*(,\\s*\\d+\\s*)*)$' },
  },
  OUTREACH_IDEMPOTENCY_WINDOW_HOURS: {
    type: 'integer',
    default: 168,
    description: 'The same recipient and subject again within this many hours is refused',
    schema: { minimum: 1, maximum: 8760 },
  },
  OUTREACH_POLICY_LOCK_TIMEOUT_MS: {
    type: 'integer',
    default: 5000,
    description: 'Longest wait of a policy check for a row lock (statements: twice this); past it the send is refused',
    schema: { minimum: 10, maximum: 60000 },
  },
  OUTREACH_MAIL_TIMEOUT_MS: {
    type: 'integer',
    default: 30000,
    description: 'Connect/greeting/socket time-out of SMTP and IMAP connections',
    schema: { minimum: 100, maximum: 300000 },
  },
  OUTREACH_REPLY_POLL_SECONDS: {
    type: 'integer',
    default: 300,
    description:
      'Interval of the Temporal Schedule that polls the mailbox for replies (created by the worker when OUTREACH_IMAP_URL is set); 0 = no schedule',
    schema: { minimum: 0, maximum: 86400 },
  },
  // Media engine and video studio (infra/media/, infra/tts/, infra/storage/; docs/video.md).
  MEDIA_STORAGE_DIR: {
    type: 'string',
    default: '',
    description:
      'Folder of finished media files (videos, subtitles, audio) that the API serves; the API and every worker must see the same folder; empty = .run/media of the project',
  },
  MEDIA_WORK_DIR: {
    type: 'string',
    default: '',
    description:
      'Scratch folder of running renders (per task, removed when the render ends); shared by all workers of a deployment so a scene retried on another worker finds its checkpoint; empty = .run/media-work of the project',
  },
  FFMPEG_PATH: { type: 'string', default: 'ffmpeg', description: 'ffmpeg binary (Debian package ffmpeg)' },
  FFPROBE_PATH: { type: 'string', default: 'ffprobe', description: 'ffprobe binary (Debian package ffmpeg)' },
  ESPEAK_PATH: {
    type: 'string',
    default: 'espeak-ng',
    description: 'espeak-ng binary, the offline speech provider `local` (Debian package espeak-ng)',
  },
  MEDIA_X264_PRESET: {
    type: 'string',
    default: 'veryfast',
    description: 'x264 preset of every H.264 encode (slower = smaller files for the same quality)',
    schema: {
      enum: ['ultrafast', 'superfast', 'veryfast', 'faster', 'fast', 'medium', 'slow', 'slower', 'veryslow'],
    },
  },
  MEDIA_X264_CRF: {
    type: 'integer',
    default: 23,
    description: 'x264 constant rate factor (quality: lower is better and bigger)',
    schema: { minimum: 0, maximum: 51 },
  },
  MEDIA_MAX_INPUT_BYTES: {
    type: 'integer',
    default: 536870912,
    description: 'Largest media file the engine accepts as an input (checked with ffprobe before use)',
    schema: { minimum: 1024 },
  },
  TTS_VENDOR_BASE_URL: {
    type: 'string',
    default: '',
    description:
      'OpenAI-compatible base URL of the speech vendor `tts_vendor` (POST {base}/audio/speech, e.g. https://api.openai.com/v1); empty = offline espeak-ng only',
    schema: { pattern: '^(|https?://.+)$' },
  },
  TTS_VENDOR_API_KEY: { type: 'string', default: '', description: 'Bearer key of the speech vendor' },
  TTS_VENDOR_MODEL: {
    type: 'string',
    default: 'tts-1',
    description: 'Speech model sent to the vendor; metered per started 1,000 characters (domain/pricing.ts)',
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
