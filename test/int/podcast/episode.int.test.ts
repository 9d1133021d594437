/**
 * The podcast maker's must-show, offline on the real stack: a 1-minute
 * two-speaker episode goes idea and outline → script → approved → audio → combined MP3 →
 * video with subtitles; ffprobe checks codecs and durations (audio within
 * 2 % of the sum of the scenes), loudness within 1 LU of −16 LUFS, two voices
 * of clearly different measured pitch; the project read back mid-way holds
 * everything needed to resume; dubbing produces Spanish audio offline
 * (Apertium + espeak-ng); cloning without a vendor gives the documented error.
 */
import path from 'node:path';
import { startTestApi, TestApi, bearer } from '../../support/api';
import { isolatedSchema, IsolatedSchema } from '../../support/schema';
import { testTemporal } from '../../support/env';
import { call } from '../../support/http';
import { startPodcastWorker } from '../../support/podcast-worker';
import { taskStatusProjection } from '../../../projections/task-status';
import { podcastProjection } from '../../../projections/podcast';
import { imageAssetsProjection } from '../../../projections/image-assets';
import { probe, measureLoudness } from '../../../infra/media/probe';
import { pitchOf } from '../../../infra/media/episode';
import { waitFor } from '../../support/wait';

jest.setTimeout(900000);

const RATES = { rate: { overrides: { '*': { general: { minute: 10000, day: 100000 }, status: { minute: 10000 } } } } };

describe('podcast maker: a 1-minute two-speaker episode, offline', () => {
  let api: TestApi;
  let schema: IsolatedSchema;
  let worker: Awaited<ReturnType<typeof startPodcastWorker>>;
  let temporal: Awaited<ReturnType<typeof testTemporal>>;
  let alice: { userId: string; key: string };
  let projectId: string;
  let sceneIds: string[];
  const sceneSeconds: number[] = [];
  let estimatedSeconds = 0;

  beforeAll(async () => {
    temporal = await testTemporal();
    schema = await isolatedSchema();
    worker = await startPodcastWorker(schema.db);
    api = await startTestApi({
      schema,
      projections: [taskStatusProjection, podcastProjection, imageAssetsProjection],
      settings: { ...RATES, taskWaitMs: 240000 },
      deps: { workflows: { client: async () => temporal.client, taskQueue: worker.taskQueue }, ...worker.deps },
    });
    alice = await api.user('pro');
  });

  afterAll(async () => {
    await worker?.stop();
    await api?.stop();
    await temporal?.connection.close();
    await schema?.drop();
    worker?.remove();
  });

  const post = (p: string, json: unknown) =>
    call(`${api.url}${p}`, { method: 'POST', headers: bearer(alice.key), json });
  const get = (p: string, headers: Record<string, string> = {}) =>
    call(`${api.url}${p}`, { headers: { ...bearer(alice.key), ...headers } });
  const file = (folder: string, f: string) => path.join(worker.storageDir, 'podcast', folder, f);

  it('idea and outline → script: each segment said, two speakers, within the minute; a project is created', async () => {
    // The offline writer says what the brief gives and adds nothing to fill the minute, so the episode is given
    // an outline (as the analysis step would) to have something to say.
    const outline = [
      'Take a short walk before a hard task',
      'Leave the phone at home on the walk',
      'Walk at the same time every day',
    ];
    const r = await post('/api/podcast/script', {
      idea: 'Why short daily walks improve focus',
      duration_minutes: 1,
      speakers: [
        { name: 'Alice', role: 'host' },
        { name: 'Bob', role: 'guest' },
      ],
      analysis: JSON.stringify({ audience: 'office workers', segment_outline: outline.map((title) => ({ title })) }),
    });
    expect(r.status).toBe(200);
    projectId = r.body.project_id;
    const s = r.body.script;
    expect(s).toMatchObject({
      provider: 'local',
      offline: true,
      words_per_minute: 150,
      target_words: 150,
      duration_minutes: 1,
    });
    // Voices that match the speakers' names (no voice or gender declared): Alice a female voice, Bob a male one.
    expect(
      s.speakers.map((x: { id: string; gender: string; voice_basis: string; voice: { voice: string } }) => [
        x.id,
        x.gender,
        x.voice_basis,
        x.voice.voice,
      ]),
    ).toEqual([
      ['alice', 'female', 'name', 'en-us-f1'],
      ['bob', 'male', 'name', 'en-us-m1'],
    ]);
    // Within the budget, not padded to it: the opening, the three segments and the closing.
    expect(s.word_count).toBeGreaterThanOrEqual(40);
    expect(s.word_count).toBeLessThanOrEqual(150);
    estimatedSeconds = s.estimated_seconds;
    // About a scene a minute (two at least): the second scene holds the second and third segments.
    expect(s.scenes.map((x: { scene_id: string; title: string }) => [x.scene_id, x.title])).toEqual([
      ['scene-1', outline[0]],
      ['scene-2', `${outline[1]}; ${outline[2]}`],
    ]);
    const text = s.scenes.flatMap((x: { lines: { text: string }[] }) => x.lines.map((l) => l.text)).join('\n');
    for (const point of outline) expect(text).toContain(`${point}.`);
    const speakers = new Set(s.scenes.flatMap((x: { lines: { speaker: string }[] }) => x.lines.map((l) => l.speaker)));
    expect([...speakers].sort()).toEqual(['alice', 'bob']);
    sceneIds = s.scenes.map((x: { scene_id: string }) => x.scene_id);
  });

  it('audio is refused until the script is approved; a project saved mid-way reads back with everything to resume', async () => {
    const refused = await post('/api/podcast/audio', { project_id: projectId, scene_id: 'scene-1' });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/not approved/);
    expect(refused.body.error.details.reason).toBe('SCRIPT_NOT_APPROVED');
    const saved = await call(`${api.url}/api/podcast/projects/${projectId}`, {
      method: 'PUT',
      headers: bearer(alice.key),
      json: { state: { step: 'review', selected_scene: 'scene-2' } },
    });
    expect(saved.status).toBe(200);
    const back = await get(`/api/podcast/projects/${projectId}`);
    expect(back.body).toMatchObject({
      project_id: projectId,
      state: { step: 'review', selected_scene: 'scene-2' },
      script_version: 1,
      script_approved: false,
      next_step: 'approve_script',
    });
    expect(back.body.script.scenes).toHaveLength(2);
    const ok = await post('/api/podcast/script/approve', { project_id: projectId, version: 1 });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ script_approved: true, next_step: 'audio' });
  });

  it('audio per scene: each speaker in their own voice, lines measured; mid-way the project holds it all', async () => {
    for (const id of sceneIds) {
      const r = await post('/api/podcast/audio', { project_id: projectId, scene_id: id });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ scene_id: id, speech: { provider: 'local', model: 'espeak-ng' } });
      expect(r.body.url).toBe(`/api/podcast/audio/${r.body.filename}`);
      expect(r.body.speech.voices.sort()).toEqual(['en-us-f1', 'en-us-m1']);
      const p = await probe(worker.engine.tools, file('audio', r.body.filename));
      expect(p.streams[0]).toMatchObject({ codec_name: 'pcm_s16le', sample_rate: 48000, channels: 1 });
      expect(Math.abs(p.duration - r.body.duration_seconds)).toBeLessThan(0.01);
      sceneSeconds.push(p.duration);
      for (const l of r.body.lines) expect(l.end).toBeGreaterThan(l.start);
    }
    const mid = await get(`/api/podcast/projects/${projectId}`);
    expect(mid.body.next_step).toBe('combine_audio');
    const audios = mid.body.assets.filter((a: { kind: string }) => a.kind === 'scene_audio');
    expect(audios.map((a: { scene_id: string }) => a.scene_id)).toEqual(sceneIds);
    expect(audios[0].lines.length).toBeGreaterThan(1);
    expect(audios[0].url).toMatch(/^\/api\/podcast\/audio\//);
    expect(mid.body.state).toEqual({ step: 'review', selected_scene: 'scene-2' });
  });

  it('combined MP3: duration within 2 % of the scenes, −16 LUFS ± 1, two voices whose measured pitch matches their speakers’ names', async () => {
    const r = await post('/api/podcast/combine-audio', { project_id: projectId });
    expect(r.status).toBe(200);
    const f = file('audio', r.body.filename);
    const p = await probe(worker.engine.tools, f);
    expect(p.streams.map((s) => s.codec_name)).toEqual(['mp3']);
    const sum = sceneSeconds.reduce((a, b) => a + b, 0);
    // The speech engine's pace is near the script's 150 words a minute: at least half the script's estimate.
    expect(sum).toBeGreaterThan(estimatedSeconds / 2);
    expect(Math.abs(p.duration - sum) / sum).toBeLessThan(0.02);
    const loud = await measureLoudness(worker.engine.tools, f);
    expect(Math.abs(loud.integrated_lufs - -16)).toBeLessThanOrEqual(1);
    expect(r.body.loudness.target_lufs).toBe(-16);
    const pitches = Object.fromEntries(
      r.body.speakers.map((s: { speaker: string; measured_pitch_hz: number }) => [s.speaker, s.measured_pitch_hz]),
    );
    // The measured pitch agrees with the gender of each voice (typical speaking pitch: male about 85-155 Hz,
    // female about 165-255 Hz).
    expect(pitches.bob).toBeGreaterThan(60);
    expect(pitches.bob).toBeLessThan(160);
    expect(pitches.alice).toBeGreaterThan(170);
    // Measured again here, independently of the route's own report, on the first line of each speaker.
    const scene1 = (await get(`/api/podcast/projects/${projectId}`)).body.assets.find(
      (a: { kind: string }) => a.kind === 'scene_audio',
    );
    const line = (who: string) => scene1.lines.find((l: { speaker: string }) => l.speaker === who);
    const a = await pitchOf(worker.engine.tools, f, [line('alice')]);
    const b = await pitchOf(worker.engine.tools, f, [line('bob')]);
    expect(a! / b!).toBeGreaterThan(1.2);
    const range = await get(`/api/podcast/audio/${r.body.filename}`, { Range: 'bytes=0-99' });
    expect(range.status).toBe(206);
    expect(range.headers.get('content-range')).toMatch(/^bytes 0-99\//);
  });

  it('video with subtitles: scene videos (H.264/AAC/mov_text) joined into the episode, durations kept', async () => {
    const img = await post('/api/podcast/image', { project_id: projectId, scene_id: 'scene-1' });
    expect(img.status).toBe(200);
    expect(img.body).toMatchObject({ provider: 'local', url: `/api/podcast/images/${img.body.image_key}` });
    expect((await get(`/api/podcast/images/${img.body.image_key}`)).status).toBe(200);
    for (const id of sceneIds) {
      const r = await post('/api/podcast/render/video', { project_id: projectId, scene_id: id, resolution: '480p' });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({
        width: 854,
        height: 480,
        video_codec: 'h264',
        audio_codec: 'aac',
        subtitles: { track: true },
      });
      expect(r.body.picture.kind).toBe(id === 'scene-1' ? 'image' : 'gradient');
    }
    // Each scene render metered like the video studio's: one `render` call per started minute, recorded once.
    const renders = (await schema.db('es_events').where({ type: 'UsageRecorded' }))
      .map((e) => e.data)
      .filter((u) => u.provider === 'render' && u.user_id === alice.userId);
    expect(renders).toHaveLength(sceneIds.length);
    for (const u of renders) expect(u).toMatchObject({ calls: 1, model: 'ffmpeg-h264-480p' });
    expect(new Set(renders.map((u) => u.idempotency_key)).size).toBe(sceneIds.length);
    const fin = await post('/api/podcast/render/combine-videos', { project_id: projectId });
    expect(fin.status).toBe(200);
    const p = await probe(worker.engine.tools, file('final-videos', fin.body.filename));
    expect(p.streams.map((s) => s.codec_name)).toEqual(['h264', 'aac', 'mov_text']);
    // `mux` scenes: one track, nothing burnt into the picture.
    expect(fin.body.subtitles).toMatchObject({ track: true, burnt: false });
    const sum = sceneSeconds.reduce((a, b) => a + b, 0);
    expect(Math.abs(p.duration - sum) / sum).toBeLessThan(0.02);
    expect(fin.body.files.map((f: { filename: string }) => path.extname(f.filename)).sort()).toEqual([
      '.mp4',
      '.srt',
      '.vtt',
    ]);
    const vtt = await get(`/api/podcast/final-videos/${fin.body.filename.replace('.mp4', '.vtt')}`);
    expect(vtt.status).toBe(200);
    const list = await get('/api/podcast/videos');
    expect(list.body.videos.map((v: { filename: string }) => v.filename)).toContain(fin.body.filename);
    const done = await get(`/api/podcast/projects/${projectId}`);
    expect(done.body.next_step).toBe('done');

    // A scene asking for `both`: its captions burnt in and a track; the episode then carries the track it asked for.
    const both = await post('/api/podcast/render/video', {
      project_id: projectId,
      scene_id: sceneIds[0],
      resolution: '480p',
      subtitles: 'both',
    });
    expect(both.body.subtitles).toMatchObject({ mode: 'both', track: true });
    const fin2 = await post('/api/podcast/render/combine-videos', { project_id: projectId });
    expect(fin2.body.subtitles).toMatchObject({ track: true, burnt: true });
    const p2 = await probe(worker.engine.tools, file('final-videos', fin2.body.filename));
    expect(p2.streams.map((s) => s.codec_name)).toEqual(['h264', 'aac', 'mov_text']);
  });

  it('dubbing: Spanish audio made offline (Apertium translation, espeak-ng Spanish), re-timed to the original', async () => {
    const start = await post('/api/podcast/dub/audio', { project_id: projectId, target_language: 'es' });
    expect(start.status).toBe(202);
    let r = await get(start.body.status_url);
    await waitFor(
      'the dub to finish',
      async () => {
        r = await get(start.body.status_url);
        return ['completed', 'failed', 'cancelled'].includes(r.body.status);
      },
      180_000,
      300,
    ).catch(() => undefined);
    expect(r.body.status).toBe('completed');
    const res = r.body.result;
    expect(res.translation).toMatchObject({ provider: 'local', translated: true });
    expect(res.translation.method).toMatch(/^apertium eng-spa/);
    expect(res.speech).toMatchObject({ provider: 'local', voice: 'es', language: 'es' });
    expect(res.segments[0].text).not.toBe(res.segments[0].source_text);
    const p = await probe(worker.engine.tools, file('dub', res.filename));
    expect(p.streams[0].codec_name).toBe('mp3');
    const sum = sceneSeconds.reduce((a, b) => a + b, 0);
    expect(p.duration).toBeGreaterThan(sum * 0.9);
    for (let i = 1; i < res.segments.length; i++)
      expect(res.segments[i].start).toBeGreaterThanOrEqual(res.segments[i - 1].start);
    const dl = await get(res.audio_url.replace(/^https?:\/\/[^/]+/, ''), { Range: 'bytes=10-' });
    expect(dl.status).toBe(206);
  });

  it('voice cloning without a capable vendor: 503 saying no adapter exists (nothing to configure)', async () => {
    const r = await post('/api/podcast/dub/voices/clone', {
      name: 'Me',
      sample_base64: Buffer.from('not really audio').toString('base64'),
    });
    expect(r.status).toBe(503);
    expect(r.body.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(r.body.error.details).toMatchObject({
      reason: 'VOICE_CLONING_NOT_CONFIGURED',
      provider: 'voice_clone',
      adapter_available: false,
      configure: [],
    });
    // The message says there is no adapter (so nothing to configure), and why the configured speech cannot clone.
    expect(r.body.error.message).toMatch(/voice cloning needs a speech vendor that supports it/);
    expect(r.body.error.message).toMatch(/this build has no adapter for one, so no setting enables it/);
    expect(r.body.error.message).toMatch(/TTS_VENDOR_BASE_URL/);
  });
});
