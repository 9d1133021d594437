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
import { SecretBox, WebhookSecretStore } from '../infra/webhooks/secrets';
import { webhookSettings } from '../infra/webhooks/settings';
import { getUser } from '../projections/identity';
import { isPlanName, PLANS } from '../domain/plans';
import type { WebhookActivityDeps } from '../activities/webhooks';
import type { WebhookAdapters } from '../api/kernel/types';
import path from 'node:path';
import { projectRoot } from '../infra/paths';
import { createLocalDirStorage } from '../infra/storage/local-dir';
import { createEspeakSynthesizer } from '../infra/tts/espeak';
import { createOpenAiSpeechSynthesizer } from '../infra/tts/openai-speech';
import { mediaMeter } from '../infra/media/meter';
import type { Engine } from '../infra/media/engine';

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
