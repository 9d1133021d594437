/**
 * A test worker wired like workers/temporal-worker.ts for the podcast maker:
 * task events, the AI gateway (local writer, metered), the research provider
 * (local corpus), the media engine (real ffmpeg, ffprobe, espeak-ng; Apertium
 * for offline translation), the image studio's activities and storage, all
 * under a temporary directory; plus the API-side adapters the routes need.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { createActivities } from '../../activities';
import { createEventStore } from '../../infra/eventstore';
import { PostgresUsageMeter } from '../../infra/quota/meter';
import { gatewayMeter } from '../../infra/quota/gateway-meter';
import { createAiGateway, createLocalProvider } from '../../infra/ai';
import { createCorpusProvider, createResearchProvider, DEFAULT_CORPUS_DIR } from '../../infra/research';
import { mediaMeter } from '../../infra/media/meter';
import { DEFAULT_TOOLS } from '../../infra/media/tools';
import { createEspeakSynthesizer } from '../../infra/tts/espeak';
import { createEspeakLanguageSynthesizer, espeakCatalogue } from '../../infra/tts/languages';
import { createApertiumTranslator } from '../../infra/translate/apertium';
import { createLocalDirStorage } from '../../infra/storage/local-dir';
import { createLocalImageStorage } from '../../infra/image/storage/local';
import type { ImageStudioSettings } from '../../infra/image';
import type { PodcastApiAdapters } from '../../infra/podcast';
import { startTestWorker, testLogger } from './env';

export async function startPodcastWorker(db: Knex) {
  const root = mkdtempSync(path.join(tmpdir(), 'podcast-test-'));
  const store = createEventStore(db);
  const meter = new PostgresUsageMeter(db, store, async () => ({}));
  const gateway = createAiGateway({ local: createLocalProvider(), meter: gatewayMeter(meter) });
  const research = createResearchProvider({
    corpus: createCorpusProvider({ dir: DEFAULT_CORPUS_DIR, publicBaseUrl: 'http://127.0.0.1' }),
  });
  const storage = createLocalDirStorage(path.join(root, 'storage'));
  const images = createLocalImageStorage(path.join(root, 'images'));
  const engine = { tools: { ...DEFAULT_TOOLS, x264Preset: 'ultrafast' }, speech: { local: createEspeakSynthesizer() } };
  const workDir = path.join(root, 'work');
  const translator = createApertiumTranslator();
  const worker = await startTestWorker(
    createActivities({
      logger: testLogger(),
      tasks: { store },
      image: { storage: images, vendors: {}, gateway, meter, store, limitInputPixels: 40_000_000 },
      podcast: { store, gateway, research },
      podcastMedia: {
        store,
        engine,
        storage,
        images,
        workDir,
        meter: mediaMeter(meter),
        gateway,
        dubSpeech: createEspeakLanguageSynthesizer(),
        translator,
      },
    }),
  );
  const imageStudio: ImageStudioSettings = {
    storage: images,
    configured: { vendor_a: false, vendor_c: false, vendor_d: false, vendor_e: false },
    defaultModels: {},
    input: { maxBytes: 10 * 1024 * 1024, maxPixels: 40_000_000 },
    maxOutputPixels: 33_554_432,
  };
  const podcast: PodcastApiAdapters = {
    speech: espeakCatalogue(),
    translationPairs: () => translator.pairs(),
    textVendorConfigured: false,
    maxUploadBytes: 2 * 1024 * 1024,
  };
  return {
    ...worker,
    store,
    storage,
    storageDir: path.join(root, 'storage'),
    engine,
    workDir,
    deps: { media: { storage, speechVendorConfigured: false }, imageStudio, podcast },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
