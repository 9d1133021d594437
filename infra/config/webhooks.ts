/**
 * Configuration variables of webhooks (infra/webhooks/,
 * workflows/webhook-delivery.ts; docs/webhooks.md).
 * Part of CONFIG_VARS (infra/config/index.ts).
 */
import type { VarSpec } from './spec';

export const WEBHOOK_VARS = {
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
