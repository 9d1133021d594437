/**
 * The adapters each process needs, built once at start-up from the validated
 * configuration. Nothing below api/, activities/ or projections/ reads the
 * configuration itself: they get what is built here.
 */
import { billingFromConfig } from '../infra/billing';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { type Config, publicBaseUrl as baseUrlOf } from '../infra/config';
import type { HealthSnapshot } from '../infra/health/checks';
import { platformHealth } from '../infra/health/platform';
import type { Context } from './context';
import { createEventStore, EventStore } from '../infra/eventstore';
import { PostgresUsageMeter } from '../infra/quota/meter';
import { gatewayMeter } from '../infra/quota/gateway-meter';
import { aiGatewayFromConfig, llamaFromConfig } from '../infra/ai';
import { researchFromConfig } from '../infra/research';
import { keywordVendorFromConfig } from '../infra/keywords';
import { IntegrationCredentialStore, searchConsoleFromConfig } from '../infra/seo';
import { SecretBox, WebhookSecretStore } from '../infra/webhooks/secrets';
import { webhookSettings } from '../infra/webhooks/settings';
import { getUser } from '../projections/identity';
import { isPlanName, PLANS } from '../domain/plans';
import type { WebhookActivityDeps } from '../activities/webhooks';
import type { WebhookAdapters } from '../api/kernel/types';
import { apiSettingsOf, sitebuilderSettings, SitebuilderApiSettings } from '../infra/sitebuilder/settings';
import { createOAuthClient } from '../infra/sitebuilder/oauth';
import { createSitebuilderApi } from '../infra/sitebuilder/blog-api';
import { createTokenManager, SitebuilderTokenStore } from '../infra/sitebuilder/tokens';
import type { SitebuilderActivityDeps } from '../activities/sitebuilder';
import {
  mailboxFromConfig,
  mailIdentity,
  MailboxPollState,
  OutreachApiAdapters,
  policyEngine,
  repliesReadiness,
  SendLedger,
  sendingReadiness,
  smtpFromConfig,
} from '../infra/outreach';
import type { AiGateway } from '../infra/ai';
import { loadSampleSites } from '../infra/outreach/sites';
import type { ResearchProvider } from '../infra/research';
import type { BatchNotifyDeps } from '../activities/writers';
import { generationProgress } from '../activities/ai-call';
import path from 'node:path';
import { projectRoot } from '../infra/paths';
import { createLocalDirStorage } from '../infra/storage/local-dir';
import { createEspeakSynthesizer } from '../infra/tts/espeak';
import { createOpenAiSpeechSynthesizer } from '../infra/tts/openai-speech';
import { mediaMeter } from '../infra/media/meter';
import type { Engine } from '../infra/media/engine';
import type { PodcastApiAdapters } from '../infra/podcast';
import { createEspeakLanguageSynthesizer, espeakCatalogue } from '../infra/tts/languages';
import { createApertiumTranslator } from '../infra/translate/apertium';
import { imageStorageFromConfig } from './image-adapters';

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

/** What the writers' batch notifications need: the secret store, SSRF rules, retry schedule, attempt time-out. */
export function writerNotifyDeps(db: Knex, config: Config): BatchNotifyDeps {
  const s = webhookSettings(config);
  return {
    secrets: new WebhookSecretStore(db, new SecretBox(s.secretKey)),
    allow: s.allow,
    schedule: s.schedule,
    attemptTimeoutMs: s.attemptTimeoutMs,
  };
}

/**
 * The worker's AI side: the gateway (metered in PostgreSQL), the research provider, and the in-process
 * model when its file is present (`llama`: the worker closes it at shutdown).
 */
export function aiAdapters(db: Knex, store: EventStore, config: Config, logger: Logger) {
  const llama = llamaFromConfig(config);
  return {
    // A vendor's streamed answer moves its task's progress and heartbeats (activities/ai-call.ts).
    gateway: aiGatewayFromConfig(
      config,
      gatewayMeter(usageMeter(db, store)),
      logger,
      llama,
      generationProgress(store, config.AI_PROGRESS_EVERY_MS),
    ),
    research: researchFromConfig(config),
    llama,
  };
}

/** What the API needs for site publishing: authorization URL parts, PKCE key, state lifetime, cover URL rules. */
export function sitebuilderApiSettings(config: Config): SitebuilderApiSettings {
  return apiSettingsOf(sitebuilderSettings(config));
}

/** Site publishing activities: the OAuth client, the builder's REST API, encrypted token storage with refresh. */
export function sitebuilderActivityDeps(
  db: Knex,
  store: EventStore,
  config: Config,
  publicBaseUrl: string,
  logger?: Logger,
): SitebuilderActivityDeps {
  const s = sitebuilderSettings(config);
  const oauth = createOAuthClient(s);
  const tokens = new SitebuilderTokenStore(db, new SecretBox(s.tokenKey));
  return {
    store,
    settings: s,
    oauth,
    api: createSitebuilderApi(s),
    tokens,
    tokenManager: createTokenManager({ store, tokens, oauth, refreshMarginSeconds: s.refreshMarginSeconds }),
    media: { ssrf: { allow: s.mediaAllow }, maxBytes: s.mediaMaxBytes, timeoutMs: s.timeoutMs },
    publicBaseUrl,
    logger,
  };
}

/** What the API's outreach routes need: the policy engine (validate), the ledger (unsubscribe links), readiness. */
export function outreachApiAdapters(db: Knex, config: Config, logger?: Logger): OutreachApiAdapters {
  return {
    policy: policyEngine(db, config, logger),
    ledger: new SendLedger(db),
    unsubscribeKey: mailIdentity(config).unsubscribeKey,
    sending: sendingReadiness(config),
    replies: repliesReadiness(config),
  };
}

/** The outreach activities' adapters: policy, ledger, SMTP, IMAP, the mail identity, gateway and research. */
export function outreachActivityDeps(
  db: Knex,
  store: EventStore,
  config: Config,
  logger: Logger,
  ai: { gateway: AiGateway; research: ResearchProvider },
) {
  return {
    store,
    policy: policyEngine(db, config, logger),
    ledger: new SendLedger(db),
    identity: mailIdentity(config),
    transport: smtpFromConfig(config),
    mailbox: mailboxFromConfig(config),
    pollState: new MailboxPollState(db),
    sites: loadSampleSites(),
    logger,
    ...ai,
  };
}

/**
 * /api/health of an API process: the services (PostgreSQL, Temporal, Kafka) and
 * the platform's own processes (infra/health/platform.ts), computed at most
 * once a second however often it is asked (the route is public).
 */
export function platformHealthCheck(ctx: Context, store: EventStore): () => Promise<HealthSnapshot> {
  const c = ctx.config;
  let cached: { at: number; value: Promise<HealthSnapshot> } | undefined;
  const compute = async (): Promise<HealthSnapshot> => {
    const [base, processes] = await Promise.all([
      ctx.health(),
      platformHealth(ctx.db, store, async () => (await ctx.temporal()).connection, {
        staleSeconds: c.HEALTH_STALE_SECONDS,
        maxRelayLagEvents: c.HEALTH_MAX_RELAY_LAG_EVENTS,
        maxProjectionLagMessages: c.HEALTH_MAX_PROJECTION_LAG,
        namespace: c.TEMPORAL_NAMESPACE,
        taskQueue: c.TEMPORAL_TASK_QUEUE,
      }).catch((e: Error) => ({
        platform: { status: 'down' as const, instances: 0, reason: `cannot read process health: ${e.message}` },
      })),
    ]);
    const ok = base.status === 'ok' && Object.values(processes).every((p) => p.status === 'ok');
    return { status: ok ? 'ok' : 'degraded', services: base.services, processes };
  };
  return () => {
    if (!cached || Date.now() - cached.at > 1000) cached = { at: Date.now(), value: compute() };
    return cached.value;
  };
}

/** Folders of the media engine: finished files (served by the API) and the renders' scratch. */
export function mediaDirs(config: Config): { storageDir: string; workDir: string } {
  return {
    storageDir: config.MEDIA_STORAGE_DIR || path.join(projectRoot(), '.run', 'media'),
    workDir: config.MEDIA_WORK_DIR || path.join(projectRoot(), '.run', 'media-work'),
  };
}

/** The media engine: ffmpeg/ffprobe settings and the speech providers (espeak-ng always, the vendor when configured). */
export function mediaEngine(config: Config): Engine {
  return {
    tools: {
      ffmpeg: config.FFMPEG_PATH,
      ffprobe: config.FFPROBE_PATH,
      x264Preset: config.MEDIA_X264_PRESET,
      crf: config.MEDIA_X264_CRF,
      maxInputBytes: config.MEDIA_MAX_INPUT_BYTES,
    },
    speech: {
      local: createEspeakSynthesizer(config.ESPEAK_PATH),
      ...(config.TTS_VENDOR_BASE_URL
        ? {
            vendor: createOpenAiSpeechSynthesizer({
              baseUrl: config.TTS_VENDOR_BASE_URL,
              apiKey: config.TTS_VENDOR_API_KEY,
              model: config.TTS_VENDOR_MODEL,
              timeoutMs: config.AI_TIMEOUT_MS,
              maxRetries: config.AI_MAX_RETRIES,
            }),
          }
        : {}),
    },
  };
}

/** What the API needs of the media engine: the storage it serves files from, and whether vendor speech exists. */
export function mediaAppDeps(config: Config) {
  return {
    storage: createLocalDirStorage(mediaDirs(config).storageDir),
    speechVendorConfigured: !!config.TTS_VENDOR_BASE_URL,
  };
}

/** The worker's media side: engine, storage, scratch folder and the render/speech meter. */
export function mediaActivityDeps(db: Knex, store: EventStore, config: Config) {
  const { storageDir, workDir } = mediaDirs(config);
  return {
    store,
    engine: mediaEngine(config),
    storage: createLocalDirStorage(storageDir),
    workDir,
    meter: mediaMeter(usageMeter(db, store)),
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

/** Paid plan upgrades: the billing provider (if configured) and the page its checkout returns to. */
export function billingAdapters(config: Config) {
  const provider = billingFromConfig(config);
  return provider && { provider, returnUrl: config.BILLING_RETURN_URL || baseUrlOf(config) };
}

/** SEO performance activities: the event store, users' credentials and the Search Console client (if configured). */
export function performanceAdapters(db: Knex, store: EventStore, config: Config) {
  return { store, credentials: integrationCredentials(db, config), searchConsole: searchConsoleFromConfig(config) };
}

/** The podcast maker's API side: espeak-ng's catalogue, Apertium's pairs, what is configured (docs/podcast.md). */
export function podcastAppDeps(config: Config): PodcastApiAdapters {
  const translator = createApertiumTranslator();
  return {
    speech: espeakCatalogue(config.ESPEAK_PATH),
    translationPairs: () => translator.pairs(),
    textVendorConfigured: !!(config.VENDOR_A_BASE_URL || config.VENDOR_B_BASE_URL),
    maxUploadBytes: 16 * 1024 * 1024,
  };
}

/** The podcast maker's worker side: text (gateway, research) and media (engine, storages, translator, dubbing voice). */
export function podcastActivityDeps(
  config: Config,
  media: ReturnType<typeof mediaActivityDeps>,
  ai: { gateway: AiGateway; research: ResearchProvider },
) {
  return {
    podcast: { store: media.store, gateway: ai.gateway, research: ai.research },
    podcastMedia: {
      ...media,
      gateway: ai.gateway,
      images: imageStorageFromConfig(config),
      dubSpeech: createEspeakLanguageSynthesizer(config.ESPEAK_PATH),
      translator: createApertiumTranslator(),
    },
  };
}
