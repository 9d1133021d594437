/** Webhook settings of a process, read once from the configuration (docs/configuration.md). */
import type { Config } from '../config';
import { DEFAULT_SCHEDULE_SECONDS, parseSchedule } from '../../domain/webhooks/schedule';
import { AllowEntry, parseAllowList } from './ssrf';
import { webhookSecretKey } from './secret-key';

export interface WebhookSettings {
  /** Encrypts signing secrets at rest (32 bytes). */
  secretKey: Buffer;
  /** SSRF allow-list (WEBHOOK_ALLOW_PRIVATE_HOSTS). */
  allow: AllowEntry[];
  /** Seconds before each attempt (WEBHOOK_RETRY_SCHEDULE). */
  schedule: number[];
  /** Time-out of one attempt, ms. */
  attemptTimeoutMs: number;
}

export function webhookSettings(c: Config): WebhookSettings {
  return {
    secretKey: webhookSecretKey(c),
    allow: parseAllowList(c.WEBHOOK_ALLOW_PRIVATE_HOSTS),
    schedule: c.WEBHOOK_RETRY_SCHEDULE ? parseSchedule(c.WEBHOOK_RETRY_SCHEDULE) : [...DEFAULT_SCHEDULE_SECONDS],
    attemptTimeoutMs: c.WEBHOOK_ATTEMPT_TIMEOUT_MS,
  };
}
