/**
 * Configuration variables of the processes themselves and of the services they
 * use: environment and logging, the API address, PostgreSQL, Temporal (task
 * queues and worker slots), Kafka and the projector, health ports and
 * heartbeats, start-up and shutdown.
 * Part of CONFIG_VARS (infra/config/index.ts).
 */
import type { VarSpec } from './spec';

export const PLATFORM_VARS = {
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
} as const satisfies Record<string, VarSpec>;
