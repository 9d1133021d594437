/**
 * The video studio over HTTP, on the real stack: plans (offline planner),
 * scenes, a small render (480p, 15 s) to completion, the file route with
 * Range/ETag/traversal rules, the spec's cancel route, metering, and for
 * every route: 401 without a credential and 404 for another user. Answers
 * of the plan, scene and render routes are validated against the response
 * schemas /openapi.json documents (the render result's schema is closed, so
 * a field the worker returns but the schema lacks fails the test).
 */
import { randomUUID } from 'node:crypto';
import { startTestApi, TestApi, bearer } from '../../support/api';
import { isolatedSchema, IsolatedSchema } from '../../support/schema';
import { testTemporal } from '../../support/env';
import { answerSchemas, Conforms } from '../../support/conformance';
import { call } from '../../support/http';
import { startVideoWorker } from '../../support/video-worker';
import { taskStatusProjection } from '../../../projections/task-status';
import { videoProjection } from '../../../projections/video';
import { probe } from '../../../infra/media/probe';
import { waitFor } from '../../support/wait';

jest.setTimeout(600000);

const RATES = { rate: { overrides: { '*': { general: { minute: 10000, day: 100000 }, status: { minute: 10000 } } } } };

describe('video studio routes', () => {
  let api: TestApi;
  let schema: IsolatedSchema;
  let worker: Awaited<ReturnType<typeof startVideoWorker>>;
  let temporal: Awaited<ReturnType<typeof testTemporal>>;
  let alice: { userId: string; key: string };
  let bob: { userId: string; key: string };
  let plan: { plan_id: string; scenes: { duration_seconds: number }[]; coverage?: unknown };
  let scenes: { scene_id: string; duration_seconds: number }[];
  let rendered: {
    task_id: string;
    result: { filename: string; video_url: string; files: { filename: string; url: string }[] };
  };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let doc: any;
  let conforms: Conforms;

  beforeAll(async () => {
    temporal = await testTemporal();
    schema = await isolatedSchema();
    worker = await startVideoWorker(schema.db);
    api = await startTestApi({
      schema,
      projections: [taskStatusProjection, videoProjection],
      settings: RATES,
      deps: {
        workflows: { client: async () => temporal.client, taskQueue: worker.taskQueue },
        media: { storage: worker.storage, speechVendorConfigured: false },
      },
    });
    alice = await api.user('free');
    bob = await api.user('free');
    doc = (await call(`${api.url}/openapi.json`)).body;
    conforms = answerSchemas(doc);
  });

  afterAll(async () => {
    await worker?.stop();
    await api?.stop();
    await temporal?.connection.close();
    await schema?.drop();
    worker?.folders.remove();
  });

  const post = (path: string, key: string, json: unknown) =>
    call(`${api.url}${path}`, { method: 'POST', headers: bearer(key), json });
  const get = (path: string, key: string, headers: Record<string, string> = {}) =>
    call(`${api.url}${path}`, { headers: { ...bearer(key), ...headers } });

  it('POST /plan: a short plan from the offline planner, durations summing to the target; bounds of the format', async () => {
    const r = await post('/api/videonet/plan', alice.key, {
      topic: 'Morning routines',
      format: 'short',
      duration_seconds: 15,
      key_points: ['Drink water first'],
      tone: 'friendly',
    });
    expect(r.status).toBe(201);
    conforms('post', '/api/videonet/plan', r);
    expect(r.body).toMatchObject({
      format: 'short',
      aspect_ratio: '9:16',
      target_duration_seconds: 15,
      total_duration_seconds: 15,
      provider: 'local',
      offline: true,
      scenes_built: false,
      renders: [],
    });
    expect(r.body.scenes.length).toBe(2);
    // The offline planner narrates the brief only and says why the narration is shorter than 15 s could hold.
    expect(r.body.coverage).toMatchObject({
      basis: 'brief',
      key_points: 1,
      key_points_used: 1,
      sources_used: 0,
      target_words: expect.any(Number),
      shortfall: expect.stringContaining('the offline planner says only the brief'),
    });
    for (const s of r.body.scenes) {
      expect(s.narration.length).toBeGreaterThan(10);
      expect(s.visual_description).toMatch(/illustration/);
    }
    plan = r.body;
    const bad = await post('/api/videonet/plan', alice.key, { topic: 'x', format: 'short', duration_seconds: 90 });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.parameter).toBe('duration_seconds');
    const std = await post('/api/videonet/plan', alice.key, { topic: 'x', format: 'standard', duration_seconds: 30 });
    expect(std.status).toBe(400);
    expect((await post('/api/videonet/plan', alice.key, { format: 'short' })).status).toBe(400);
  });

  it('GET /plan/{id}: the owner reads it, another user and unknown ids get 404', async () => {
    const r = await get(`/api/videonet/plan/${plan.plan_id}`, alice.key);
    expect(r.status).toBe(200);
    conforms('get', '/api/videonet/plan/{id}', r);
    expect(r.body.plan_id).toBe(plan.plan_id);
    expect(r.body.coverage).toEqual(plan.coverage);
    expect((await get(`/api/videonet/plan/${plan.plan_id}`, bob.key)).status).toBe(404);
    expect((await get(`/api/videonet/plan/${randomUUID()}`, alice.key)).status).toBe(404);
    expect((await get('/api/videonet/plan/not-a-uuid', alice.key)).status).toBe(400);
  });

  it('POST /scenes: built once (201), again returns them (200), rebuild makes new ids; other users 404', async () => {
    const r = await post('/api/videonet/scenes', alice.key, { plan_id: plan.plan_id });
    expect(r.status).toBe(201);
    conforms('post', '/api/videonet/scenes', r);
    expect(r.body).toMatchObject({ plan_id: plan.plan_id, created: true, total_duration_seconds: 15 });
    // Built scenes show a designed card on the image studio's offline still of their description, zooming in and out.
    expect(r.body.scenes[0].visual).toMatchObject({
      kind: 'image',
      motion: 'zoom_in',
      rendered_as: 'designed_card',
    });
    expect(r.body.scenes[1].visual).toMatchObject({ kind: 'image', motion: 'zoom_out' });
    const again = await post('/api/videonet/scenes', alice.key, { plan_id: plan.plan_id });
    expect(again.status).toBe(200);
    expect(again.body.scenes.map((s: { scene_id: string }) => s.scene_id)).toEqual(
      r.body.scenes.map((s: { scene_id: string }) => s.scene_id),
    );
    const rebuilt = await post('/api/videonet/scenes', alice.key, { plan_id: plan.plan_id, rebuild: true });
    expect(rebuilt.status).toBe(201);
    expect(rebuilt.body.scenes[0].scene_id).not.toBe(r.body.scenes[0].scene_id);
    expect((await get(`/api/videonet/scenes/${r.body.scenes[0].scene_id}`, alice.key)).status).toBe(404);
    scenes = rebuilt.body.scenes;
    expect((await post('/api/videonet/scenes', bob.key, { plan_id: plan.plan_id })).status).toBe(404);
    const p = await get(`/api/videonet/plan/${plan.plan_id}`, alice.key);
    expect(p.body).toMatchObject({ scenes_built: true, scene_ids: scenes.map((s) => s.scene_id) });
  });

  it('GET and update one scene: changes applied, format bounds kept, unknown voices refused, owner only', async () => {
    const id = scenes[1].scene_id;
    expect((await get(`/api/videonet/scenes/${id}`, alice.key)).body.scene_id).toBe(id);
    expect((await get(`/api/videonet/scenes/${id}`, bob.key)).status).toBe(404);
    const u = await post(`/api/videonet/scenes/${id}/update`, alice.key, {
      narration: 'A single clear sentence for the closing scene.',
      visual: { kind: 'solid', colors: ['#123456'], motion: 'none' },
      voice: { voice: 'en-us-f1', rate: 1.1 },
    });
    expect(u.status).toBe(200);
    conforms('post', '/api/videonet/scenes/{id}/update', u);
    expect(u.body).toMatchObject({
      narration: 'A single clear sentence for the closing scene.',
      visual: { kind: 'solid', colors: ['#123456'], motion: 'none', rendered_as: 'local_solid_colour' },
      voice: { voice: 'en-us-f1', rate: 1.1 },
    });
    expect((await get(`/api/videonet/scenes/${id}`, alice.key)).body.narration).toMatch(/closing scene/);
    const long = await post(`/api/videonet/scenes/${id}/update`, alice.key, { duration_seconds: 60 });
    expect(long.status).toBe(400);
    expect(long.body.error.details.parameter).toBe('duration_seconds');
    const voice = await post(`/api/videonet/scenes/${id}/update`, alice.key, { voice: { voice: 'alloy' } });
    expect(voice.status).toBe(400);
    expect(voice.body.error.message).toMatch(/not a local voice/);
    expect((await post(`/api/videonet/scenes/${id}/update`, alice.key, {})).status).toBe(400);
    expect((await post(`/api/videonet/scenes/${id}/update`, bob.key, { heading: 'x' })).status).toBe(404);
  });

  it('POST /render: unknown or foreign plans 404, an unconfigured speech vendor 503, a voice it cannot speak 400', async () => {
    expect((await post('/api/videonet/render', alice.key, { plan_id: randomUUID() })).status).toBe(404);
    expect((await post('/api/videonet/render', bob.key, { plan_id: plan.plan_id })).status).toBe(404);
    const vendor = await post('/api/videonet/render', alice.key, {
      plan_id: plan.plan_id,
      speech_provider: 'tts_vendor',
    });
    expect(vendor.status).toBe(503);
    expect(vendor.body.error.message).toMatch(/TTS_VENDOR_BASE_URL/);
    const voice = await post('/api/videonet/render', alice.key, { plan_id: plan.plan_id, voice: { voice: 'alloy' } });
    expect(voice.status).toBe(400);
    expect(voice.body.error.details.parameter).toBe('voice.voice');
    expect((await post('/api/videonet/render', alice.key, { plan_id: plan.plan_id, resolution: '4k' })).status).toBe(
      400,
    );
  });

  it('POST /render → GET /render/{task_id} until completed: H.264/AAC MP4 at 480p (9:16: 480x854), subtitles, percent 100, metered', async () => {
    const start = await post('/api/videonet/render', alice.key, { plan_id: plan.plan_id, resolution: '480p' });
    expect(start.status).toBe(202);
    expect(start.body).toMatchObject({ status: 'started', plan_id: plan.plan_id });
    expect(start.body.task_id).toMatch(/^video-render-[0-9a-f-]{36}$/);
    const path = `/api/videonet/render/${start.body.task_id}`;
    const first = conforms('get', '/api/videonet/render/{task_id}', await get(path, alice.key));
    expect(first.status).toBe(200);
    expect(['started', 'in_progress', 'completed']).toContain(first.body.status);
    let r = first;
    const percents: number[] = [];
    await waitFor(
      'the render to finish',
      async () => {
        if (['completed', 'failed', 'cancelled'].includes(r.body.status)) return true;
        r = conforms('get', '/api/videonet/render/{task_id}', await get(path, alice.key));
        percents.push(r.body.percent);
        return false;
      },
      300_000,
      250,
    ).catch(() => undefined);
    expect(r.body.status).toBe('completed');
    expect(r.body).toMatchObject({ percent: 100, current_scene: 2, total_scenes: 2, plan_id: plan.plan_id });
    for (let i = 1; i < percents.length; i++) expect(percents[i]).toBeGreaterThanOrEqual(percents[i - 1]);
    expect(r.body.progress_messages.map((m: { message: string }) => m.message)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^Rendering scene 1 of 2/), expect.stringMatching(/^Video ready/)]),
    );
    const res = r.body.result;
    expect(res).toMatchObject({
      width: 480,
      height: 854,
      video_codec: 'h264',
      audio_codec: 'aac',
      // Scene 1 is the image studio's offline still, scene 2 was changed to a solid colour: each says so.
      visuals: 'mixed',
      subtitles: { mode: 'mux', track: true },
      speech: { provider: 'local' },
    });
    expect(res.scenes.map((s: { visual: unknown }) => s.visual)).toEqual([
      { rendered_as: 'designed_card', motifs: expect.arrayContaining(['gradient']) },
      { rendered_as: 'local_solid_colour' },
    ]);
    // The documented result names every field the route returns (closed schema, validated above), each typed.
    const documented =
      doc.paths['/api/videonet/render/{task_id}'].get.responses['200'].content['application/json'].schema.properties
        .result;
    expect(documented.additionalProperties).toBe(false);
    expect(Object.keys(documented.properties).sort()).toEqual(Object.keys(res).sort());
    for (const [k, p] of Object.entries(documented.properties))
      expect([k, Object.keys(p as object).length > 0]).toEqual([k, true]);
    expect(res.video_url).toBe(`/api/videonet/videos/${res.filename}`);
    expect(res.files.map((f: { filename: string }) => f.filename).sort()).toEqual(
      [`${start.body.task_id}.mp4`, `${start.body.task_id}.srt`, `${start.body.task_id}.vtt`].sort(),
    );
    expect(Math.abs(res.duration_seconds - 15) / 15).toBeLessThan(0.02);
    const p = await probe(worker.engine.tools, `${worker.folders.storageDir}/videos/${res.filename}`);
    expect(p.streams.map((s) => s.codec_name)).toEqual(['h264', 'aac', 'mov_text']);
    rendered = { task_id: start.body.task_id, result: res };
    // One `render` call per started minute, recorded once.
    const usage = (await schema.db('es_events').where({ type: 'UsageRecorded' })).map((e) => e.data);
    expect(usage.filter((u) => u.provider === 'render' && u.user_id === alice.userId)).toEqual([
      expect.objectContaining({ calls: 1, model: 'ffmpeg-h264-480p', idempotency_key: `${start.body.task_id}/render` }),
    ]);
    expect((await get(path, bob.key)).status).toBe(404);
    expect(
      (await get('/api/videonet/render/video-render-00000000-0000-0000-0000-000000000000', alice.key)).status,
    ).toBe(404);
    const p2 = await get(`/api/videonet/plan/${plan.plan_id}`, alice.key);
    expect(p2.body.renders.map((x: { task_id: string }) => x.task_id)).toContain(start.body.task_id);
  });

  it('GET /videos/{filename}: whole file, ranges (206), ETag (304), 416 past the end, subtitles; owner only; traversal refused', async () => {
    const url = `${api.url}${rendered.result.video_url}`;
    const whole = await fetch(url, { headers: bearer(alice.key) });
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    const bytes = Buffer.from(await whole.arrayBuffer());
    expect(Number(whole.headers.get('content-length'))).toBe(bytes.length);
    const etag = whole.headers.get('etag')!;
    expect(etag).toMatch(/^"/);
    // faststart: the index (moov) comes before the media data (mdat).
    expect(bytes.indexOf('moov')).toBeLessThan(bytes.indexOf('mdat'));

    const part = await fetch(url, { headers: { ...bearer(alice.key), range: 'bytes=100-299' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-299/${bytes.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(100, 300))).toBe(true);
    const tail = await fetch(url, { headers: { ...bearer(alice.key), range: 'bytes=-50' } });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).equals(bytes.subarray(bytes.length - 50))).toBe(true);
    const stale = await fetch(url, { headers: { ...bearer(alice.key), range: 'bytes=0-9', 'if-range': '"other"' } });
    expect(stale.status).toBe(200);
    await stale.arrayBuffer();

    const same = await fetch(url, { headers: { ...bearer(alice.key), 'if-none-match': etag } });
    expect(same.status).toBe(304);
    const past = await get(rendered.result.video_url, alice.key, { range: `bytes=${bytes.length}-` });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${bytes.length}`);
    expect(past.body.error.code).toBe('RANGE_NOT_SATISFIABLE');

    const vtt = await fetch(`${api.url}/api/videonet/videos/${rendered.task_id}.vtt`, { headers: bearer(alice.key) });
    expect(vtt.headers.get('content-type')).toMatch(/^text\/vtt/);
    const text = await vtt.text();
    expect(text.startsWith('WEBVTT')).toBe(true);
    expect(text).toMatch(/closing scene/);
    const srt = await fetch(`${api.url}/api/videonet/videos/${rendered.task_id}.srt`, { headers: bearer(alice.key) });
    expect(srt.headers.get('content-type')).toMatch(/^application\/x-subrip/);
    expect(await srt.text()).toMatch(/^1\n00:00:00,\d{3} --> /);

    expect((await get(rendered.result.video_url, bob.key)).status).toBe(404);
    expect((await get('/api/videonet/videos/nothing.mp4', alice.key)).status).toBe(404);
    for (const name of ['..%2F..%2Fetc%2Fpasswd', '..%2Fx.mp4', '%2e%2e%2fx', 'a%5C..%5Cb', '..']) {
      const r = await get(`/api/videonet/videos/${name}`, alice.key);
      expect([400, 404]).toContain(r.status);
      if (name !== '..') expect(r.status).toBe(400);
    }
  });

  it('POST /api/story/task/{taskId}/cancel: a finished task is 409, another user 404', async () => {
    const r = await post(`/api/story/task/${rendered.task_id}/cancel`, alice.key, {});
    expect(r.status).toBe(409);
    expect((await post(`/api/story/task/${rendered.task_id}/cancel`, bob.key, {})).status).toBe(404);
    expect((await post(`/api/story/task/video-render-${randomUUID()}/cancel`, alice.key, {})).status).toBe(404);
  });

  it('every route of the area answers 401 without a credential', async () => {
    const routes = api.app.routes.filter((x) => x.path.startsWith('/api/videonet') || x.path.startsWith('/api/story'));
    expect(routes).toHaveLength(9);
    for (const route of routes) {
      const path = route.path
        .replace('{id}', randomUUID())
        .replace('{task_id}', 'x')
        .replace('{taskId}', 'x')
        .replace('{filename}', 'a.mp4');
      const r = await call(`${api.url}${path}`, {
        method: route.method.toUpperCase(),
        ...(route.method === 'post' ? { json: {} } : {}),
      });
      expect([route.path, r.status]).toEqual([route.path, 401]);
      expect(r.body.error.code).toBe('INVALID_API_KEY');
    }
  });
});
