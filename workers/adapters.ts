/**
 * The adapters each process needs, built once at start-up from the validated
 * configuration. Nothing below api/, activities/ or projections/ reads the
 * configuration itself: they get what is built here.
 */
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Config } from '../infra/config';
import { createEventStore, EventStore } from '../infra/eventstore';
import { PostgresUsageMeter } from '../infra/quota/meter';
import { gatewayMeter } from '../infra/quota/gateway-meter';
import { aiGatewayFromConfig, llamaFromConfig } from '../infra/ai';
import { researchFromConfig } from '../infra/research';
import { SecretBox, WebhookSecretStore } from '../infra/webhooks/secrets';
import { webhookSettings } from '../infra/webhooks/settings';
import { getUser } from '../projections/identity';
import { isPlanName, PLANS } from '../domain/plans';
import type { WebhookActivityDeps } from '../activities/webhooks';
import type { WebhookAdapters } from '../api/kernel/types';

/** The usage meter: limits of the user's plan as the identity projection has it. */
export function usageMeter(db: Knex, store: EventStore): PostgresUsageMeter {
  return new PostgresUsageMeter(db, store, async (userId) => {
    const plan = (await getUser(db, userId))?.plan;
    return PLANS[plan && isPlanName(plan) ? plan : 'free'].limits;
  });
}

/** Webhook secrets (encrypted with WEBHOOK_SECRET_KEY) and the SSRF rules, for the API's webhook commands. */
export function webhookAdapters(db: Knex, config: Config): WebhookAdapters {
  const s = webhookSettings(config);
  return { secrets: new WebhookSecretStore(db, new SecretBox(s.secretKey)), ssrf: { allow: s.allow } };
}

/** What the delivery activities need: store, secrets, SSRF rules, retry schedule, attempt time-out. */
export function webhookActivityDeps(db: Knex, store: EventStore, config: Config, logger?: Logger): WebhookActivityDeps {
  const s = webhookSettings(config);
  return {
    store,
    secrets: new WebhookSecretStore(db, new SecretBox(s.secretKey)),
    allow: s.allow,
    schedule: s.schedule,
    attemptTimeoutMs: s.attemptTimeoutMs,
    logger,
  };
}

/**
 * The worker's AI side: the gateway (metered in PostgreSQL), the research provider, and the in-process
 * model when its file is present (`llama`: the worker closes it at shutdown).
 */
export function aiAdapters(db: Knex, store: EventStore, config: Config, logger: Logger) {
  const llama = llamaFromConfig(config);
  return {
    gateway: aiGatewayFromConfig(config, gatewayMeter(usageMeter(db, store)), logger, llama),
    research: researchFromConfig(config),
    llama,
  };
}

export { createEventStore };
