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
import { aiGatewayFromConfig } from '../infra/ai';
import { researchFromConfig } from '../infra/research';
import { keywordVendorFromConfig } from '../infra/keywords';
import { IntegrationCredentialStore, searchConsoleFromConfig } from '../infra/seo';
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

/** The worker's AI side: the gateway (metered in PostgreSQL) and the research provider. */
export function aiAdapters(db: Knex, store: EventStore, config: Config, logger: Logger) {
  return {
    gateway: aiGatewayFromConfig(config, gatewayMeter(usageMeter(db, store)), logger),
    research: researchFromConfig(config),
  };
}

export { createEventStore };

/** Keyword research: the corpus (term statistics), the keyword vendor if configured, the usage meter (paid requests). */
export function keywordAdapters(db: Knex, store: EventStore, config: Config) {
  return {
    corpus: researchFromConfig(config).corpus,
    vendor: keywordVendorFromConfig(config),
    meter: usageMeter(db, store),
  };
}

/** Users' integration credentials (encrypted with WEBHOOK_SECRET_KEY, like webhook secrets). */
export function integrationCredentials(db: Knex, config: Config): IntegrationCredentialStore {
  return new IntegrationCredentialStore(db, new SecretBox(webhookSettings(config).secretKey));
}

/** What the API needs for integrations: the credential store, and whether Search Console sync is configured. */
export function integrationAdapters(db: Knex, config: Config) {
  return { credentials: integrationCredentials(db, config), searchConsole: !!searchConsoleFromConfig(config) };
}

/** SEO performance activities: the event store, users' credentials and the Search Console client (if configured). */
export function performanceAdapters(db: Knex, store: EventStore, config: Config) {
  return { store, credentials: integrationCredentials(db, config), searchConsole: searchConsoleFromConfig(config) };
}
