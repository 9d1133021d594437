/**
 * Configuration variables of the API core (api/; docs/api.md): request size,
 * consistency wait, credentials, rate limits, task waits and caches.
 * Part of CONFIG_VARS (infra/config/index.ts).
 */
import type { VarSpec } from './spec';

export const API_VARS = {
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
} as const satisfies Record<string, VarSpec>;
