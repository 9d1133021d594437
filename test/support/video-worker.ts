/**
 * A test worker wired like workers/temporal-worker.ts for the video studio:
 * task events, the AI gateway (local provider, metered), the media engine
 * (real ffmpeg, ffprobe and espeak-ng) with its own storage and scratch
 * folders under a temporary directory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { createActivities } from '../../activities';
import { createEventStore } from '../../infra/eventstore';
import { Limits, PostgresUsageMeter } from '../../infra/quota/meter';
import { gatewayMeter } from '../../infra/quota/gateway-meter';
import { createAiGateway, createLocalProvider } from '../../infra/ai';
import { mediaMeter } from '../../infra/media/meter';
import { DEFAULT_TOOLS } from '../../infra/media/tools';
import { createEspeakSynthesizer } from '../../infra/tts/espeak';
import type { SpeechSynthesizer } from '../../infra/tts/port';
import { createLocalDirStorage } from '../../infra/storage/local-dir';
import { startTestWorker, testLogger } from './env';

export function mediaFolders() {
  const root = mkdtempSync(path.join(tmpdir(), 'media-test-'));
  return {
    root,
    storageDir: path.join(root, 'storage'),
    workDir: path.join(root, 'work'),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

export async function startVideoWorker(
  db: Knex,
  opts: {
    limits?: Limits;
    preset?: string;
    vendorSpeech?: SpeechSynthesizer;
    folders?: ReturnType<typeof mediaFolders>;
  } = {},
) {
  const store = createEventStore(db);
  const folders = opts.folders ?? mediaFolders();
  const meter = new PostgresUsageMeter(db, store, async () => opts.limits ?? {});
  const gateway = createAiGateway({ local: createLocalProvider(), meter: gatewayMeter(meter) });
  const storage = createLocalDirStorage(folders.storageDir);
  const engine = {
    tools: { ...DEFAULT_TOOLS, x264Preset: opts.preset ?? 'ultrafast' },
    speech: { local: createEspeakSynthesizer(), ...(opts.vendorSpeech ? { vendor: opts.vendorSpeech } : {}) },
  };
  const media = { store, engine, storage, workDir: folders.workDir, meter: mediaMeter(meter) };
  const worker = await startTestWorker(
    createActivities({
      logger: testLogger(),
      tasks: { store },
      video: { store, gateway, storage, workDir: folders.workDir, meter: media.meter },
      videoRender: media,
    }),
  );
  return { ...worker, store, meter, storage, folders, engine };
}
