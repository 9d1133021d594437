/**
 * A render whose narration comes from the speech vendor (an OpenAI-compatible
 * /audio/speech server, scripted on loopback): one request per sentence with
 * the scene's voice, the audio measured like any other, and the vendor's
 * characters metered as `tts_vendor` (one call per started 1,000 characters,
 * per scene), once.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startTestApi, TestApi, bearer } from '../../support/api';
import { isolatedSchema, IsolatedSchema } from '../../support/schema';
import { testTemporal } from '../../support/env';
import { call } from '../../support/http';
import { startVideoWorker, mediaFolders } from '../../support/video-worker';
import { startFakeVendor, FakeVendor } from '../../support/fake-vendor';
import { taskStatusProjection } from '../../../projections/task-status';
import { videoProjection } from '../../../projections/video';
import { createEspeakSynthesizer } from '../../../infra/tts/espeak';
import { createOpenAiSpeechSynthesizer } from '../../../infra/tts/openai-speech';
import { narrationSentences } from '../../../domain/media/narration';

jest.setTimeout(600000);

describe('renders with vendor speech', () => {
  let api: TestApi;
  let schema: IsolatedSchema;
  let vendor: FakeVendor;
  let worker: Awaited<ReturnType<typeof startVideoWorker>>;
  let temporal: Awaited<ReturnType<typeof testTemporal>>;
  const folders = mediaFolders();

  beforeAll(async () => {
    // The vendor answers every sentence with the same short WAV (made once with espeak-ng).
    const sample = path.join(folders.root, 'sample.wav');
    await createEspeakSynthesizer().synthesize({ text: 'Vendor speech sample.', voice: {}, out: sample });
    vendor = await startFakeVendor([{ bytes: readFileSync(sample), headers: { 'content-type': 'audio/wav' } }]);
    temporal = await testTemporal();
    schema = await isolatedSchema();
    worker = await startVideoWorker(schema.db, {
      folders,
      vendorSpeech: createOpenAiSpeechSynthesizer({
        baseUrl: vendor.baseUrl,
        apiKey: 'sk-speech',
        model: 'tts-1',
        timeoutMs: 5000,
        maxRetries: 1,
      }),
    });
    api = await startTestApi({
      schema,
      projections: [taskStatusProjection, videoProjection],
      settings: { rate: { overrides: { '*': { status: { minute: 10000 } } } } },
      deps: {
        workflows: { client: async () => temporal.client, taskQueue: worker.taskQueue },
        media: { storage: worker.storage, speechVendorConfigured: true },
      },
    });
  });

  afterAll(async () => {
    await worker?.stop();
    await api?.stop();
    await vendor?.close();
    await temporal?.connection.close();
    await schema?.drop();
    folders.remove();
  });

  it('each sentence is one vendor request in the chosen voice; usage is metered per scene as tts_vendor', async () => {
    const user = await api.user('pro');
    const plan = await call(`${api.url}/api/videonet/plan`, {
      method: 'POST',
      headers: bearer(user.key),
      json: { topic: 'Vendor voices', format: 'short', duration_seconds: 16, scene_count: 2 },
    });
    expect(plan.status).toBe(201);
    const start = await call(`${api.url}/api/videonet/render`, {
      method: 'POST',
      headers: bearer(user.key),
      json: { plan_id: plan.body.plan_id, resolution: '480p', speech_provider: 'tts_vendor', voice: { voice: 'nova' } },
    });
    expect(start.status).toBe(202);
    let r = start;
    do {
      await new Promise((res) => setTimeout(res, 500));
      r = await call(`${api.url}/api/videonet/render/${start.body.task_id}`, { headers: bearer(user.key) });
    } while (['started', 'in_progress'].includes(r.body.status));
    expect(r.body.status).toBe('completed');
    expect(r.body.result.speech).toMatchObject({ provider: 'tts_vendor', voices: ['nova'], models: ['tts-1'] });

    const sentences = plan.body.scenes.flatMap((s: { narration: string }) => narrationSentences(s.narration));
    expect(vendor.requests).toHaveLength(sentences.length);
    for (const q of vendor.requests) {
      expect(q.path).toBe('/v1/audio/speech');
      expect(q.headers.authorization).toBe('Bearer sk-speech');
      expect(q.body).toMatchObject({ model: 'tts-1', voice: 'nova', response_format: 'wav' });
    }
    const usage = (await schema.db('es_events').where({ type: 'UsageRecorded' }))
      .map((e) => e.data)
      .filter((u) => u.provider === 'tts_vendor');
    expect(usage).toHaveLength(2); // one per scene
    for (const u of usage) expect(u).toMatchObject({ calls: 1, cost: 0.015, model: 'tts-1', user_id: user.userId });
  });
});
