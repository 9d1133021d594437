/**
 * Rendering through the studios: a profnet carousel with render_images gets
 * one image-studio image per slide (offline `local` renderer: no image vendor
 * configured), a video post with generate_video gets a video-studio render of
 * its scene plan (offline espeak-ng voice, ffmpeg). The files are fetched
 * through the studios' own file routes with the same user's key (another
 * user gets 404) and checked with sharp (width, height) and ffprobe (a video
 * stream, duration ≈ the plan). Health reports the studios as available.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import pino from 'pino';
import sharp from 'sharp';
import { call, JsonResponse } from '../../support/http';
import { bearer, startTestApi, TestApi } from '../../support/api';
import { startTestWorker, testLogger, testTemporal, uniq } from '../../support/env';
import { mediaFolders } from '../../support/video-worker';
import { waitFor } from '../../support/wait';
import { createActivities } from '../../../activities';
import { createEventStore } from '../../../infra/eventstore';
import { PostgresUsageMeter } from '../../../infra/quota/meter';
import { gatewayMeter } from '../../../infra/quota/gateway-meter';
import { createAiGateway, createLocalProvider } from '../../../infra/ai';
import { createCorpusProvider, createResearchProvider, DEFAULT_CORPUS_DIR } from '../../../infra/research';
import { createLocalImageStorage } from '../../../infra/image/storage';
import type { ImageStudioSettings } from '../../../infra/image';
import { DEFAULT_INPUT_LIMITS } from '../../../infra/image';
import { mediaMeter } from '../../../infra/media/meter';
import { DEFAULT_TOOLS } from '../../../infra/media/tools';
import { createEspeakSynthesizer } from '../../../infra/tts/espeak';
import { createLocalDirStorage } from '../../../infra/storage/local-dir';
import { taskStatusProjection } from '../../../projections/task-status';
import { writerPreferencesProjection } from '../../../projections/writer-preferences';
import { writerBatchesProjection } from '../../../projections/writer-batches';
import { videoProjection } from '../../../projections/video';
import { writerResultSchema } from '../../../api/writers/responses';

jest.setTimeout(420000);

const run = promisify(execFile);
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
const validResult = ajv.compile(writerResultSchema);

describe('writers: rendering through the image studio and the video studio', () => {
  let api: TestApi;
  let worker: Awaited<ReturnType<typeof startTestWorker>>;
  let temporal: Awaited<ReturnType<typeof testTemporal>>;
  const folders = mediaFolders();
  const imageDir = mkdtempSync(path.join(tmpdir(), 'writer-images-'));
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    temporal = await testTemporal();
    const taskQueue = uniq('writers-render');
    const images = createLocalImageStorage(imageDir);
    const media = createLocalDirStorage(folders.storageDir);
    const imageStudio: ImageStudioSettings = {
      storage: images,
      configured: { vendor_a: false, vendor_c: false, vendor_d: false, vendor_e: false },
      defaultModels: {},
      input: DEFAULT_INPUT_LIMITS,
      maxOutputPixels: 16_000_000,
    };
    api = await startTestApi({
      logger: pino({ level: 'silent' }),
      // No image-assets projector: an image URL in an answer is served only because the route that answered made
      // the projection hold it (settle: catch-up by the API after the 500 ms bound), whatever the projector's pace.
      projections: [taskStatusProjection, writerPreferencesProjection, writerBatchesProjection, videoProjection],
      deps: {
        workflows: { client: async () => temporal.client, taskQueue },
        imageStudio,
        media: { storage: media, speechVendorConfigured: false },
      },
    });
    const db = api.schema.db;
    const store = createEventStore(db);
    const meter = new PostgresUsageMeter(db, store, async () => ({ tokens: 50_000_000 }));
    const gateway = createAiGateway({ local: createLocalProvider(), meter: gatewayMeter(meter) });
    const research = createResearchProvider({
      corpus: createCorpusProvider({ dir: DEFAULT_CORPUS_DIR, publicBaseUrl: 'http://127.0.0.1:8000' }),
    });
    const engine = {
      tools: { ...DEFAULT_TOOLS, x264Preset: 'ultrafast' },
      speech: { local: createEspeakSynthesizer() },
    };
    worker = await startTestWorker(
      createActivities({
        logger: testLogger(),
        tasks: { store },
        writers: { gateway, research, store },
        image: { storage: images, vendors: {}, gateway, meter, store, limitInputPixels: 40_000_000 },
        video: { store, gateway, storage: media, workDir: folders.workDir, meter: mediaMeter(meter) },
        videoRender: { store, engine, storage: media, workDir: folders.workDir, meter: mediaMeter(meter) },
      }),
      taskQueue,
    );
    alice = (await api.user('pro')).key;
    bob = (await api.user('pro')).key;
  });
  afterAll(async () => {
    await worker?.stop();
    await api?.stop();
    await temporal?.connection.close();
    folders.remove();
    rmSync(imageDir, { recursive: true, force: true });
  });

  const get = (p: string, k: string = alice) => call(`${api.url}${p}`, { headers: bearer(k) });
  const fetchFile = async (url: string, k: string = alice) => {
    const r = await fetch(`${api.url}${url}`, { headers: bearer(k) });
    return { status: r.status, type: r.headers.get('content-type'), body: Buffer.from(await r.arrayBuffer()) };
  };
  /** A generation as a client runs it: the answer within the wait, else the task's result once it completes. */
  const generate = async (p: string, json: unknown, timeoutMs: number): Promise<JsonResponse> => {
    const r = await call(`${api.url}${p}`, {
      method: 'POST',
      headers: { ...bearer(alice), prefer: 'wait=60' },
      json,
    });
    if (r.status !== 202) return r;
    const done = async () => ['completed', 'failed'].includes((await get(r.body.status_url)).body.status);
    await waitFor('task finished', done, timeoutMs, 500);
    const t = await get(r.body.status_url);
    return { ...t, status: t.body.status === 'completed' ? 200 : 500, body: t.body.result ?? t.body };
  };

  it('health: the image studio (offline local renderer) and the video studio (offline voice) are available', async () => {
    const r = await get('/api/profnet/health');
    expect(r.status).toBe(200);
    expect(r.body.services).toMatchObject({ image_studio: 'available', video_studio: 'available' });
    expect(r.body.modules).toMatchObject({ image_rendering: 'available', video_rendering: 'available' });
    expect(r.body.providers).toMatchObject({
      image: 'offline (local procedural renderer)',
      video: 'offline (espeak-ng speech, local visuals)',
    });
  });

  it('carousel with render_images: one image per slide at the asked size, served to its owner only', async () => {
    const r = await generate(
      '/api/profnet/generate-carousel',
      { topic: 'email newsletters', slides: 3, render_images: true, render_options: { width: 160, height: 200 } },
      180000,
    );
    expect(r.status).toBe(200);
    expect(validResult(r.body)).toBe(true);
    const slides = r.body.content.slides;
    expect(slides).toHaveLength(3);
    expect(r.body.rendering).toEqual([
      expect.objectContaining({
        asset: 'slide_images',
        requested: true,
        status: 'rendered',
        service: 'image_studio',
        provider: 'local',
        offline: true,
        message: expect.stringContaining('3 of 3 images rendered'),
      }),
    ]);
    const assets = r.body.rendering[0].assets;
    expect(assets.map((a: { index: number }) => a.index)).toEqual([1, 2, 3]);
    const keys = new Set<string>();
    for (const a of assets) {
      expect(a).toMatchObject({ status: 'rendered', content_type: 'image/png', width: 160, height: 200 });
      expect(a.url).toMatch(/^\/api\/image-studio\/images\/[^/]+$/);
      keys.add(a.url);
      const f = await fetchFile(a.url);
      expect([f.status, f.type]).toEqual([200, 'image/png']);
      expect(await sharp(f.body).metadata()).toMatchObject({ format: 'png', width: 160, height: 200 });
      expect((await fetchFile(a.url, bob)).status).toBe(404);
    }
    // Each slide has its own image (its title is drawn on it by the offline renderer).
    expect(keys.size).toBe(3);
  });

  it('a batch item with render_images: its image URLs are served as soon as the batch status names them', async () => {
    const r = await call(`${api.url}/api/profnet/batch-generate`, {
      method: 'POST',
      headers: bearer(alice),
      json: {
        requests: [
          {
            type: 'carousel',
            topic: 'customer onboarding',
            slides: 3,
            render_images: true,
            render_options: { width: 120, height: 150 },
          },
        ],
      },
    });
    expect([r.status, r.body.error]).toEqual([202, undefined]);
    let s = await get(r.body.status_url);
    await waitFor(
      'batch completed',
      async () => {
        s = await get(r.body.status_url);
        return s.body.status === 'completed' && s.body.items.every((i: { result?: unknown }) => i.result);
      },
      180000,
      100,
    );
    const rendering = s.body.items[0].result.rendering[0];
    expect(rendering).toMatchObject({ asset: 'slide_images', status: 'rendered', service: 'image_studio' });
    expect(rendering.assets).toHaveLength(3);
    for (const a of rendering.assets) {
      const f = await fetchFile(a.url);
      expect([a.url, f.status, f.type]).toEqual([a.url, 200, 'image/png']);
      expect(await sharp(f.body).metadata()).toMatchObject({ width: 120, height: 150 });
    }
  });

  it('video post with generate_video: a video-studio render of the scene plan, duration ≈ the plan', async () => {
    const r = await generate(
      '/api/profnet/generate-video-post',
      {
        topic: 'video marketing for small teams',
        duration: '8_seconds',
        aspect_ratio: '16:9',
        generate_video: true,
        render_options: { resolution: '480p', fps: 24 },
      },
      360000,
    );
    expect(r.status).toBe(200);
    expect(validResult(r.body)).toBe(true);
    expect(r.body.content.total_duration_seconds).toBe(8);
    const v = r.body.rendering[0];
    expect(v).toMatchObject({
      asset: 'video',
      requested: true,
      status: 'rendered',
      service: 'video_studio',
      provider: 'local',
      offline: true,
      task_id: `${r.body.task_id}-video`,
    });
    const [asset] = v.assets;
    expect(asset).toMatchObject({ status: 'rendered', content_type: 'video/mp4', width: 854, height: 480 });
    expect(asset.duration_seconds).toBeCloseTo(8, 0);
    expect(asset.files.map((f: { kind: string }) => f.kind).sort()).toEqual(['subtitles_srt', 'subtitles_vtt']);
    // The render is the caller's video-studio task, and its file is served through the studio's route.
    const task = await get(`/api/videonet/render/${v.task_id}`);
    expect([task.status, task.body.status]).toEqual([200, 'completed']);
    expect((await get(`/api/videonet/render/${v.task_id}`, bob)).status).toBe(404);
    const f = await fetchFile(asset.url);
    expect([f.status, f.type]).toEqual([200, 'video/mp4']);
    expect((await fetchFile(asset.url, bob)).status).toBe(404);
    const file = path.join(folders.root, 'writer-video.mp4');
    writeFileSync(file, f.body);
    const probe = JSON.parse(
      (await run('ffprobe', ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', file])).stdout,
    );
    const video = probe.streams.find((s: { codec_type: string }) => s.codec_type === 'video');
    expect(video).toMatchObject({ codec_name: 'h264', width: 854, height: 480 });
    expect(probe.streams.some((s: { codec_type: string }) => s.codec_type === 'audio')).toBe(true);
    expect(Math.abs(Number(probe.format.duration) - 8)).toBeLessThan(0.25);
  });
});
