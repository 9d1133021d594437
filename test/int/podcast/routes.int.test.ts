/**
 * Every route of the podcast maker over HTTP on the real stack: 401 without a
 * credential (all 35), another user's project, file or task is 404 (each route
 * that names one), file routes refuse traversal and serve Range, uploads are
 * validated, avatars, analysis and research offline, the spec's cancel route
 * cancels a podcast task (a media render stops and leaves no file), every
 * route is in the OpenAPI document, and the answers of the routes validate
 * against their documented response schemas.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import sharp from 'sharp';
import { startTestApi, TestApi, bearer } from '../../support/api';
import { isolatedSchema, IsolatedSchema } from '../../support/schema';
import { testTemporal } from '../../support/env';
import { answerSchemas, Conforms } from '../../support/conformance';
import { call } from '../../support/http';
import { startPodcastWorker } from '../../support/podcast-worker';
import { taskStatusProjection } from '../../../projections/task-status';
import { podcastProjection } from '../../../projections/podcast';
import { imageAssetsProjection } from '../../../projections/image-assets';
import { probe } from '../../../infra/media/probe';
import { DEFAULT_TOOLS } from '../../../infra/media/tools';
import { podcastRoutes } from '../../../api/podcast/routes';
import { waitFor } from '../../support/wait';

jest.setTimeout(600000);

const RATES = { rate: { overrides: { '*': { general: { minute: 10000, day: 100000 }, status: { minute: 10000 } } } } };
type User = { userId: string; key: string };

/** ffmpeg processes whose command line mentions `needle` (a task id: its scratch folder is named after it). */
function ffmpegFor(needle: string): number[] {
  const out: number[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (cmd.startsWith('ffmpeg') && cmd.includes(needle)) out.push(Number(pid));
    } catch {
      /* gone */
    }
  }
  return out;
}

// The routes whose answers were free-form objects once: their documented schemas now name every field.
const TYPED = [
  ['post', '/api/podcast/idea/enhance'],
  ['post', '/api/podcast/analyze'],
  ['post', '/api/podcast/regenerate-queries'],
  ['post', '/api/podcast/research/exa'],
  ['post', '/api/podcast/combine-audio'],
  ['post', '/api/podcast/render/video'],
  ['post', '/api/podcast/render/combine-videos'],
  ['get', '/api/podcast/dub/{task_id}/result'],
  ['post', '/api/podcast/dub/estimate'],
  ['get', '/api/podcast/dub/voices'],
  ['get', '/api/podcast/dub/voices/{task_id}/result'],
];

describe('podcast maker routes: auth, owners, files', () => {
  let api: TestApi;
  let schema: IsolatedSchema;
  let worker: Awaited<ReturnType<typeof startPodcastWorker>>;
  let temporal: Awaited<ReturnType<typeof testTemporal>>;
  let alice: User;
  let bob: User;
  let project: string;
  let audioFile: string;
  let videoFile: string;
  let finalFile: string;
  let imageKey: string;
  let dubTask: string;
  let projectDub: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let doc: any;
  let conforms: Conforms;

  beforeAll(async () => {
    temporal = await testTemporal();
    schema = await isolatedSchema();
    worker = await startPodcastWorker(schema.db);
    api = await startTestApi({
      schema,
      projections: [taskStatusProjection, podcastProjection, imageAssetsProjection],
      // A cancel answers once the task reads cancelled, waiting at most cancelWaitMs (10 s by default): on a loaded
      // machine the cancel's way through Temporal, the worker and the projection can take longer.
      settings: { ...RATES, taskWaitMs: 240000, cancelWaitMs: 60000 },
      deps: { workflows: { client: async () => temporal.client, taskQueue: worker.taskQueue }, ...worker.deps },
    });
    alice = await api.user('pro');
    bob = await api.user('pro');
    doc = (await call(`${api.url}/openapi.json`)).body;
    conforms = answerSchemas(doc);
  });

  afterAll(async () => {
    await worker?.stop();
    await api?.stop();
    await temporal?.connection.close();
    await schema?.drop();
    worker?.remove();
  });

  const req = (method: string, p: string, u: User | undefined, json?: unknown, headers: Record<string, string> = {}) =>
    call(`${api.url}${p}`, {
      method,
      headers: { ...(u ? bearer(u.key) : {}), ...headers },
      ...(json !== undefined ? { json } : {}),
    });
  const post = (p: string, u: User, json: unknown) => req('POST', p, u, json);
  /** A GET sent with its path exactly as written (fetch would resolve `..` segments before sending). */
  const rawGet = (p: string, u: User) =>
    new Promise<number>((resolve, reject) => {
      const { port, hostname } = new URL(api.url);
      http
        .get({ host: hostname, port, path: p, headers: bearer(u.key) }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
        .on('error', reject);
    });
  const get = (p: string, u: User, headers: Record<string, string> = {}) => req('GET', p, u, undefined, headers);

  it('has 35 routes, every one in OpenAPI, and every one answers 401 without a credential', async () => {
    expect(podcastRoutes).toHaveLength(35);
    const doc = (await call(`${api.url}/openapi.json`)).body;
    for (const r of podcastRoutes) {
      expect(doc.paths[r.path]?.[r.method]).toBeDefined();
      const p = r.path.replace(/\{[a-z_A-Z]+\}/g, (m) =>
        m === '{path}' ? `${'a'.repeat(64)}.png` : m === '{filename}' ? 'x.mp3' : randomUUID(),
      );
      const res = await req(r.method.toUpperCase(), p, undefined, r.method === 'get' ? undefined : {});
      expect([r.method, r.path, res.status]).toEqual([r.method, r.path, 401]);
    }
    // No answer is documented as a free-form object: every route of TYPED names its fields, each typed.
    for (const [method, route] of TYPED) {
      const answer = doc.paths[route][method].responses['200'].content['application/json'].schema;
      // A named shape (a task record) is read where the document keeps it.
      const schema = answer.$ref ? doc.components.schemas[answer.$ref.split('/').pop()] : answer;
      const props = Object.entries(schema.properties ?? {}).filter(([k]) => k !== 'task_id');
      expect([route, props.length >= 4]).toEqual([route, true]);
      for (const [k, p] of props) expect([route, k, Object.keys(p as object).length > 0]).toEqual([route, k, true]);
    }
    const project =
      doc.paths['/api/podcast/projects/{project_id}'].get.responses['200'].content['application/json'].schema;
    expect(Object.keys(project.properties.notes.properties)).toEqual([
      'enhanced_idea',
      'analysis',
      'queries',
      'research',
    ]);
    expect(project.properties.script.properties.scenes.items.properties.lines).toBeDefined();
    expect(project.properties.assets.items.oneOf).toHaveLength(7);
    const audio = doc.paths['/api/podcast/audio/{filename}'].get.responses['200'].content;
    // Generic clients may ask for the bytes as application/octet-stream (docs/api.md, "Generated clients").
    expect(Object.keys(audio).sort()).toEqual(['application/octet-stream', 'audio/mp4', 'audio/mpeg', 'audio/wav']);
  });

  it("projects: create, list, get, update, favourite, delete; another user's is 404", async () => {
    const c = await post('/api/podcast/projects', alice, {
      title: 'Jazz history',
      idea: 'the history of jazz',
      state: { step: 1 },
    });
    expect(c.status).toBe(201);
    const id = c.body.project_id;
    expect(c.body).toMatchObject({
      title: 'Jazz history',
      favorite: false,
      state: { step: 1 },
      next_step: 'script',
      assets: [],
    });
    expect((await get(`/api/podcast/projects/${id}`, bob)).status).toBe(404);
    expect((await req('PUT', `/api/podcast/projects/${id}`, bob, { title: 'x' })).status).toBe(404);
    expect((await post(`/api/podcast/projects/${id}/favorite`, bob, {})).status).toBe(404);
    expect((await req('DELETE', `/api/podcast/projects/${id}`, bob)).status).toBe(404);
    const fav = await post(`/api/podcast/projects/${id}/favorite`, alice, {});
    expect(fav.body.favorite).toBe(true);
    const up = await req('PUT', `/api/podcast/projects/${id}`, alice, { title: 'Jazz, a history' });
    expect(up.body).toMatchObject({ title: 'Jazz, a history', favorite: true, state: { step: 1 } });
    expect(
      (await get('/api/podcast/projects?favorite=true', alice)).body.projects.map(
        (p: { project_id: string }) => p.project_id,
      ),
    ).toEqual([id]);
    expect((await get('/api/podcast/projects', bob)).body).toMatchObject({ projects: [], total: 0 });
    expect((await req('DELETE', `/api/podcast/projects/${id}`, alice)).body).toEqual({ project_id: id, deleted: true });
    expect((await get(`/api/podcast/projects/${id}`, alice)).status).toBe(404);
  });

  it('an idea alone starts a project (its title derived and answered); a script takes a number of speakers', async () => {
    const idea = 'Better sleep for night workers. What shift workers can change tonight, and what can wait.';
    const c = await post('/api/podcast/projects', alice, { idea });
    expect([c.status, c.body.title, c.body.idea]).toEqual([201, 'Better sleep for night workers', idea]);
    conforms('post', '/api/podcast/projects', c);
    const none = await post('/api/podcast/projects', alice, { state: { step: 1 } });
    expect([none.status, none.body.error.details.parameter, none.body.error.message]).toEqual([
      400,
      'title',
      'title or idea is required',
    ]);
    const s = await post('/api/podcast/script', alice, {
      idea,
      duration_minutes: 0.5,
      speakers: 2,
      project_id: c.body.project_id,
    });
    expect(s.status).toBe(200);
    expect(s.body.script.speakers.map((x: { name: string; role?: string }) => [x.name, x.role])).toEqual([
      ['Host', 'host'],
      ['Guest', 'guest'],
    ]);
    conforms('post', '/api/podcast/script', s);
    const seven = await post('/api/podcast/script', alice, { idea, duration_minutes: 0.5, speakers: 7 });
    expect([seven.status, seven.body.error.details.parameter]).toEqual([400, 'speakers']);
    expect(seven.body.error.message).toContain('how many');
  });

  it('analysis and research offline, recorded on the project; other users get 404', async () => {
    const c = await post('/api/podcast/projects', alice, { title: 'Sleep', idea: 'better sleep for night workers' });
    project = c.body.project_id;
    for (const [p, body] of [
      ['/api/podcast/idea/enhance', { idea: 'better sleep for night workers' }],
      ['/api/podcast/analyze', { idea: 'better sleep for night workers', duration_minutes: 3 }],
      ['/api/podcast/regenerate-queries', { idea: 'better sleep for night workers', count: 3 }],
      ['/api/podcast/research/exa', { queries: ['sleep research', 'night shift health'], limit: 4 }],
    ] as const) {
      expect((await post(p, bob, { ...body, project_id: project })).status).toBe(404);
      const r = await post(p, alice, { ...body, project_id: project });
      expect([p, r.status]).toEqual([p, 200]);
      expect(r.body.task_id).toMatch(/^podcast-/);
      conforms('post', p, r);
      // An AI call through the gateway (the offline writer here) is metered once: one usage record for the task.
      const usage = await schema
        .db('es_events')
        .where({ type: 'UsageRecorded' })
        .whereRaw("data->>'idempotency_key' like ?", [`${r.body.task_id}/%`]);
      if (p === '/api/podcast/research/exa')
        expect(usage).toHaveLength(0); // the corpus is free and not metered
      else {
        expect([p, usage.length]).toEqual([p, 1]);
        expect(usage[0].data).toMatchObject({ user_id: alice.userId, provider: 'local', calls: 1, cost: 0 });
      }
    }
    const p = conforms(
      'get',
      '/api/podcast/projects/{project_id}',
      await get(`/api/podcast/projects/${project}`, alice),
    ).body;
    expect(p.notes.enhanced_idea.enhanced_idea).toMatch(/night workers/);
    expect(p.notes.enhanced_idea).toMatchObject({ title_suggestions: expect.any(Array) });
    expect(p.notes.analysis.segment_outline).toHaveLength(3);
    expect(p.notes.queries.queries).toHaveLength(3);
    expect(p.notes.research).toMatchObject({ source: 'corpus', offline: true, web_search_vendor: null });
    expect(p.notes.research.results).toHaveLength(2);
  });

  it("script and approval; audio, upload and combine on another user's project are 404", async () => {
    const s = {
      idea: 'better sleep for night workers',
      duration_minutes: 0.5,
      speakers: [{ name: 'Ann' }, { name: 'Raj' }],
      // Something to say in two scenes: the offline writer adds nothing to an idea alone (one scene of greetings).
      analysis: JSON.stringify({
        segment_outline: [
          { title: 'Keep the bedroom dark and cool' },
          { title: 'Sleep at the same time after every shift' },
        ],
      }),
    };
    expect((await post('/api/podcast/script', bob, { ...s, project_id: project })).status).toBe(404);
    const r = conforms(
      'post',
      '/api/podcast/script',
      await post('/api/podcast/script', alice, { ...s, project_id: project }),
    );
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ project_id: project, version: 1 });
    // The offline writer says the two segments and adds nothing to fill the half minute, and says so
    // (script.coverage, docs/providers.md); the answer above conforms to the documented script.
    expect(r.body.script.coverage).toMatchObject({
      basis: 'brief',
      key_points: 2,
      key_points_used: 2,
      target_words: 75,
      words: expect.any(Number),
      shortfall: expect.stringContaining('of 75 words'),
    });
    // Rendering needs the approved script too (409 naming why), like audio.
    for (const [p, scene] of [
      ['/api/podcast/render/video', { scene_id: 'scene-1' }],
      ['/api/podcast/render/combine-videos', {}],
    ] as const) {
      const refused = await post(p, alice, { project_id: project, ...scene });
      expect([p, refused.status, refused.body.error?.details?.reason]).toEqual([p, 409, 'SCRIPT_NOT_APPROVED']);
    }
    expect((await post('/api/podcast/script/approve', bob, { project_id: project })).status).toBe(404);
    expect((await post('/api/podcast/script/approve', alice, { project_id: project, version: 2 })).status).toBe(409);
    expect((await post('/api/podcast/script/approve', alice, { project_id: project })).status).toBe(200);
    expect((await post('/api/podcast/audio', bob, { project_id: project, scene_id: 'scene-1' })).status).toBe(404);
    expect((await post('/api/podcast/audio', alice, { project_id: project, scene_id: 'scene-9' })).status).toBe(404);
    const bad = await post('/api/podcast/audio', alice, {
      project_id: project,
      scene_id: 'scene-1',
      voices: { ann: { voice: 'alloy' } },
    });
    expect(bad.status).toBe(400);
    expect((await post('/api/podcast/combine-audio', alice, { project_id: project })).status).toBe(409);
    for (const id of ['scene-1', 'scene-2']) {
      const a = conforms(
        'post',
        '/api/podcast/audio',
        await post('/api/podcast/audio', alice, { project_id: project, scene_id: id }),
      );
      expect(a.status).toBe(200);
      audioFile = a.body.filename;
    }
    // The client's own words for a scene (the spec's "audio routes exchange ... text"): spoken, line by speaker.
    // Scene 2 (its audio is replaced by an upload below; scene 1 keeps its long audio for the cancel test).
    const retake = conforms(
      'post',
      '/api/podcast/audio',
      await post('/api/podcast/audio', alice, {
        project_id: project,
        scene_id: 'scene-2',
        text: 'Raj: Keep the bedroom dark.\nAnn: And cool, too.',
      }),
    );
    expect(retake.status).toBe(200);
    expect(retake.body.lines.map((l: { speaker: string; text: string }) => [l.speaker, l.text])).toEqual([
      ['raj', 'Keep the bedroom dark.'],
      ['ann', 'And cool, too.'],
    ]);
    // The task record read later carries the same result as the 200 answer, the file's URL included.
    let record = (await get(`/api/tasks/${retake.body.task_id}`, alice)).body.data;
    await waitFor(
      'the retake task to read completed',
      async () => {
        record = (await get(`/api/tasks/${retake.body.task_id}`, alice)).body.data;
        return record.status === 'completed';
      },
      240000,
      50,
    );
    expect([record.status, record.result.url, record.result.filename]).toEqual([
      'completed',
      retake.body.url,
      retake.body.filename,
    ]);
    expect(retake.body.url).toMatch(/\/api\/podcast\/audio\/.+\.wav$/);
    // A misspelt field is refused by name, not dropped.
    const misspelt = await post('/api/podcast/audio', alice, { project_id: project, scene_id: 'scene-1', txt: 'x' });
    expect([misspelt.status, misspelt.body.error.details.parameter]).toEqual([400, 'txt']);
    expect((await post('/api/podcast/combine-audio', bob, { project_id: project })).status).toBe(404);
    const m = await post('/api/podcast/combine-audio', alice, { project_id: project, format: 'm4a' });
    expect(m.status).toBe(200);
    conforms('post', '/api/podcast/combine-audio', m);
    expect(m.body).toMatchObject({ codec: 'aac', filename: expect.stringMatching(/\.m4a$/) });
  });

  it('audio upload: validated with ffprobe, size-limited, owner only', async () => {
    const wav = readFileSync(path.join(worker.storageDir, 'podcast', 'audio', audioFile));
    const small = wav.subarray(0, 44 + 48000 * 2); // one second of the scene's WAV (header sizes are wrong; ffprobe copes)
    const body = { project_id: project, scene_id: 'scene-2', audio_base64: small.toString('base64') };
    expect((await post('/api/podcast/audio/upload', bob, body)).status).toBe(404);
    const ok = await post('/api/podcast/audio/upload', alice, body);
    expect(ok.status).toBe(200);
    conforms('post', '/api/podcast/audio/upload', ok);
    expect(ok.body).toMatchObject({ scene_id: 'scene-2', original: { format: 'wav', codec: 'pcm_s16le' } });
    const junk = await post('/api/podcast/audio/upload', alice, {
      ...body,
      audio_base64: Buffer.from('hello, not audio at all').toString('base64'),
    });
    expect(junk.status).toBe(400);
    expect(junk.body.error.message).toMatch(/not a readable media file|no audio stream/);
    const big = await post('/api/podcast/audio/upload', alice, {
      ...body,
      audio_base64: Buffer.alloc(3 * 1024 * 1024, 1).toString('base64'),
    });
    expect(big.status).toBe(413);
  });

  it('audio files: owner only, Range, ETag, traversal refused', async () => {
    const p = `/api/podcast/audio/${audioFile}`;
    expect((await get(p, bob)).status).toBe(404);
    const whole = await get(p, alice);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toMatch(/audio\/wav/);
    const etag = whole.headers.get('etag')!;
    expect((await get(p, alice, { 'If-None-Match': etag })).status).toBe(304);
    const part = await get(p, alice, { Range: 'bytes=0-9' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-length')).toBe('10');
    expect((await get(p, alice, { Range: 'bytes=999999999-' })).status).toBe(416);
    for (const t of ['..%2F..%2Fetc%2Fpasswd', '%2e%2e', 'a%5Cb.wav', '.hidden'])
      expect([400, 404]).toContain((await get(`/api/podcast/audio/${t}`, alice)).status);
    expect((await get('/api/podcast/audio/..%2Fsecret.wav', alice)).status).toBe(400);
  });

  it('images, scene video, episode video: owner only, listed, served with Range', async () => {
    expect((await post('/api/podcast/image', bob, { project_id: project })).status).toBe(404);
    const img = await post('/api/podcast/image', alice, {
      project_id: project,
      scene_id: 'scene-1',
      prompt: 'a calm bedroom at night',
    });
    expect(img.status).toBe(200);
    imageKey = img.body.image_key;
    expect((await get(`/api/podcast/images/${imageKey}`, bob)).status).toBe(404);
    expect((await get(`/api/podcast/images/${imageKey}`, alice, { Range: 'bytes=0-3' })).status).toBe(206);
    expect((await post('/api/podcast/render/video', bob, { project_id: project, scene_id: 'scene-1' })).status).toBe(
      404,
    );
    expect((await post('/api/podcast/render/combine-videos', alice, { project_id: project })).status).toBe(409);
    const v = await post('/api/podcast/render/video', alice, {
      project_id: project,
      scene_id: 'scene-1',
      image_key: imageKey,
      subtitles: 'burn',
    });
    expect(v.status).toBe(200);
    conforms('post', '/api/podcast/render/video', v);
    expect(v.body).toMatchObject({ picture: { kind: 'image' }, subtitles: { mode: 'burn', track: false } });
    videoFile = v.body.filename;
    expect((await post('/api/podcast/render/combine-videos', bob, { project_id: project })).status).toBe(404);
    const f = await post('/api/podcast/render/combine-videos', alice, { project_id: project });
    expect(f.status).toBe(200);
    conforms('post', '/api/podcast/render/combine-videos', f);
    finalFile = f.body.filename;
    // One caption mode: the scene burns its captions, so the episode has no track (players would show them twice).
    const streams = async (folder: string, name: string) =>
      (await probe(DEFAULT_TOOLS, path.join(worker.storageDir, 'podcast', folder, name))).streams;
    expect(f.body.subtitles).toMatchObject({ track: false, burnt: true });
    expect((await streams('videos', videoFile)).map((s) => s.codec_type)).toEqual(['video', 'audio']);
    expect((await streams('final-videos', finalFile)).map((s) => s.codec_type)).toEqual(['video', 'audio']);
    expect((await get(`/api/podcast/videos/${videoFile}`, bob)).status).toBe(404);
    expect((await get(`/api/podcast/final-videos/${finalFile}`, bob)).status).toBe(404);
    expect((await get(`/api/podcast/videos/${videoFile}`, alice, { Range: 'bytes=0-' })).status).toBe(206);
    expect((await get(`/api/podcast/final-videos/${finalFile}`, alice)).headers.get('content-type')).toBe('video/mp4');
    expect((await get(`/api/podcast/final-videos/${videoFile}`, alice)).status).toBe(404);
    const mine = (await get('/api/podcast/videos', alice)).body.videos
      .map((x: { filename: string }) => x.filename)
      .sort();
    expect(mine).toEqual([finalFile, videoFile].sort());
    conforms('get', '/api/podcast/videos', await get('/api/podcast/videos', alice));
    expect((await get('/api/podcast/videos', bob)).body).toEqual({ videos: [], total: 0, limit: 50, offset: 0 });
  });

  it('video files: Range serves the right bytes; traversal (.., percent-encoded) is refused', async () => {
    const onDisk = (folder: string, f: string) => readFileSync(path.join(worker.storageDir, 'podcast', folder, f));
    const bytes = async (p: string, headers: Record<string, string>) => {
      const r = await fetch(`${api.url}${p}`, { headers: { ...bearer(alice.key), ...headers } });
      return { status: r.status, headers: r.headers, body: Buffer.from(await r.arrayBuffer()) };
    };
    for (const [route, folder, f] of [
      ['videos', 'videos', videoFile],
      ['final-videos', 'final-videos', finalFile],
      ['final-videos', 'final-videos', finalFile.replace('.mp4', '.vtt')],
    ]) {
      const whole = onDisk(folder, f);
      const part = await bytes(`/api/podcast/${route}/${f}`, { Range: 'bytes=100-1123' });
      expect([route, f, part.status]).toEqual([route, f, 206]);
      expect(part.headers.get('content-range')).toBe(`bytes 100-${Math.min(1123, whole.length - 1)}/${whole.length}`);
      expect(part.body.equals(whole.subarray(100, 1124))).toBe(true);
      const tail = await bytes(`/api/podcast/${route}/${f}`, { Range: 'bytes=-16' });
      expect(tail.status).toBe(206);
      expect(tail.body.equals(whole.subarray(whole.length - 16))).toBe(true);
    }
    // Each sibling folder holds a real file of alice's: a route never reaches outside its own folder. Every path
    // is sent exactly as written (fetch would resolve `%2e%2e` as a dot segment before the server saw it).
    for (const route of ['videos', 'final-videos']) {
      for (const t of [
        `..%2Faudio%2F${audioFile}`,
        `%2e%2e%2Faudio%2F${audioFile}`,
        `%2E%2E%2Ffinal-videos%2F${finalFile}`,
        `..%5Cvideos%5C${videoFile}`,
        `%252e%252e%252Faudio%252F${audioFile}`,
        '%2e%2e',
        '.%2e',
        `${audioFile}%00.mp4`,
      ]) {
        const status = await rawGet(`/api/podcast/${route}/${t}`, alice);
        expect([route, t, [400, 404].includes(status)]).toEqual([route, t, true]);
      }
      expect((await get(`/api/podcast/${route}/..%2Faudio%2F${audioFile}`, alice)).status).toBe(400);
      // Literal `..` segments, sent as written: never a file of another folder.
      for (const t of [`../audio/${audioFile}`, '..', `../../podcast/audio/${audioFile}`]) {
        const status = await rawGet(`/api/podcast/${route}/${t}`, alice);
        expect([route, t, [400, 404].includes(status)]).toEqual([route, t, true]);
      }
    }
    // A file of the other folder is not served under this one.
    expect((await get(`/api/podcast/videos/${finalFile}`, alice)).status).toBe(404);
    expect((await get(`/api/podcast/videos/${audioFile}`, alice)).status).toBe(404);
  });

  it('scenes of different sizes are not joined (400); GET /videos pages with limit and offset', async () => {
    const v = await post('/api/podcast/render/video', alice, {
      project_id: project,
      scene_id: 'scene-2',
      resolution: '720p',
    });
    expect(v.status).toBe(200);
    expect(v.body).toMatchObject({ width: 1280, height: 720 });
    const r = await post('/api/podcast/render/combine-videos', alice, { project_id: project });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toMatch(/scene-2 is 1280x720@25, the first is 854x480@25/);
    const all = conforms('get', '/api/podcast/videos', await get('/api/podcast/videos', alice)).body;
    expect(all.total).toBe(3);
    expect(all.videos[0].filename).toBe(v.body.filename); // newest first
    const page = (await get('/api/podcast/videos?limit=1&offset=1', alice)).body;
    expect(page).toMatchObject({ total: 3, limit: 1, offset: 1 });
    expect(page.videos.map((x: { filename: string }) => x.filename)).toEqual([all.videos[1].filename]);
    expect((await get('/api/podcast/videos?limit=0', alice)).status).toBe(400);
    expect((await get('/api/podcast/videos?limit=101', alice)).status).toBe(400);
  });

  it('cancelling a scene render stops ffmpeg: the task reads cancelled, no file is left, the render is not charged', async () => {
    const start = await req(
      'POST',
      '/api/podcast/render/video',
      alice,
      { project_id: project, scene_id: 'scene-1', resolution: '1080p', subtitles: 'burn' },
      { Prefer: 'respond-async' },
    );
    expect(start.status).toBe(202);
    const taskId: string = start.body.task_id;
    await waitFor('ffmpeg rendering the scene', () => ffmpegFor(taskId).length > 0, 240000, 50);
    const cancel = await post(`/api/story/task/${taskId}/cancel`, alice, {});
    expect(cancel.status).toBe(200);
    // GET /api/tasks/{task_id}: the general family's envelope ({success, data}).
    await waitFor(
      'the task to read cancelled',
      async () => (await get(start.body.status_url, alice)).body.data?.status === 'cancelled',
      60000,
      50,
    );
    const status = (await get(start.body.status_url, alice)).body.data;
    expect(status).toMatchObject({ status: 'cancelled', task_type: 'podcast_video' });
    expect(status.result).toBeUndefined();
    expect(ffmpegFor(taskId)).toEqual([]);
    expect(existsSync(path.join(worker.workDir, taskId))).toBe(false);
    for (const f of [`videos/${taskId}.mp4`, `parts/${taskId}.picture.mp4`])
      expect([f, existsSync(path.join(worker.storageDir, 'podcast', f))]).toEqual([f, false]);
    const p = (await get(`/api/podcast/projects/${project}`, alice)).body;
    expect(p.assets.filter((a: { task_id?: string }) => a.task_id === taskId)).toEqual([]);
    const reservations = await schema.db('quota_reservations').where('reservation_id', 'like', `${taskId}/%`);
    expect(reservations.map((x: { status: string }) => x.status)).toEqual(['released']);
    expect((await get(`/api/podcast/videos/${taskId}.mp4`, alice)).status).toBe(404);
  });

  it('avatars: upload (validated), make-presentable (square attention crop), generate; owner only', async () => {
    const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#ffffff' } })
      .composite([
        {
          input: await sharp({ create: { width: 80, height: 120, channels: 3, background: '#c08060' } })
            .png()
            .toBuffer(),
          left: 200,
          top: 40,
        },
      ])
      .png()
      .toBuffer();
    const body = { image_base64: png.toString('base64'), project_id: project, speaker: 'ann' };
    expect((await post('/api/podcast/avatar/upload', bob, body)).status).toBe(404);
    const up = await post('/api/podcast/avatar/upload', alice, body);
    expect(up.status).toBe(201);
    expect((await post('/api/podcast/avatar/upload', alice, { image_base64: 'bm90IGFuIGltYWdl' })).status).toBe(400);
    expect((await post('/api/podcast/avatar/make-presentable', bob, { image_key: up.body.image_key })).status).toBe(
      404,
    );
    const mp = await post('/api/podcast/avatar/make-presentable', alice, {
      image_key: up.body.image_key,
      size: 128,
      project_id: project,
    });
    expect(mp.status).toBe(201);
    expect(mp.body).toMatchObject({
      width: 128,
      height: 128,
      details: { crop: 'sharp attention strategy', background_replaced: true },
    });
    // A photo (an edge of no one colour) is cropped and kept as it is, not refused.
    const photo = await sharp(Buffer.from(Array.from({ length: 160 * 160 * 3 }, (_, i) => (i * 7919) % 251)), {
      raw: { width: 160, height: 160, channels: 3 },
    })
      .png()
      .toBuffer();
    const kept = await post('/api/podcast/avatar/make-presentable', alice, {
      image_base64: photo.toString('base64'),
      size: 96,
    });
    expect(kept.status).toBe(201);
    expect(kept.body.details).toMatchObject({
      background_replaced: false,
      background_found: null,
      removed_fraction: 0,
    });
    const bytes = (await call(`${api.url}${mp.body.url}`, { headers: bearer(alice.key) })) as unknown as {
      status: number;
    };
    expect(bytes.status).toBe(200);
    expect((await post('/api/podcast/avatar/generate', bob, { name: 'Ann', project_id: project })).status).toBe(404);
    const g = await post('/api/podcast/avatar/generate', alice, { name: 'Ann' });
    expect(g.status).toBe(201);
    expect(g.body).toMatchObject({ width: 1024, height: 1024, provider: 'local', project_id: null });
    const p = (await get(`/api/podcast/projects/${project}`, alice)).body;
    expect(
      p.assets.filter((a: { kind: string }) => a.kind === 'avatar').map((a: { operation: string }) => a.operation),
    ).toEqual(['upload', 'make_presentable']);
  });

  it('dubbing routes: languages and voices from espeak-ng, estimate, task and file owner only, cancel', async () => {
    const langs = conforms('get', '/api/podcast/dub/languages', await get('/api/podcast/dub/languages', bob)).body;
    expect(langs.total).toBeGreaterThan(50);
    expect(langs.languages.find((l: { code: string }) => l.code === 'es')).toMatchObject({
      translation_from_en: { offline: true },
    });
    expect(langs.offline_translation_pairs).toContain('en-es');
    conforms('get', '/api/podcast/dub/voices', await get('/api/podcast/dub/voices', bob));
    const voices = conforms(
      'get',
      '/api/podcast/dub/voices',
      await get('/api/podcast/dub/voices?language=es', bob),
    ).body;
    expect(voices.voices[0]).toMatchObject({ voice: 'es', language: 'es' });
    expect(voices.voices.map((v: { voice: string }) => v.voice)).toContain('es+f3');
    expect((await get('/api/podcast/dub/voices?language=zz', bob)).status).toBe(400);
    expect((await post('/api/podcast/dub/estimate', bob, { project_id: project, target_language: 'es' })).status).toBe(
      404,
    );
    const est = conforms(
      'post',
      '/api/podcast/dub/estimate',
      await post('/api/podcast/dub/estimate', alice, { project_id: project, target_language: 'es' }),
    );
    expect(est.body).toMatchObject({
      translation: { method: 'apertium', cost_usd: 0 },
      speech: { provider: 'local', cost_usd: 0, available: true },
      total_cost_usd: 0,
    });
    expect(est.body.words).toBeGreaterThan(40);
    // Text alone is estimated too; neither is refused naming both forms.
    const byText = await post('/api/podcast/dub/estimate', alice, {
      text: 'Good night. Today we talk about sleep.',
      target_language: 'es',
    });
    expect([byText.status, byText.body.words]).toEqual([200, 7]);
    const neither = await post('/api/podcast/dub/estimate', alice, { target_language: 'es' });
    expect([neither.status, neither.body.error.message]).toEqual([400, 'project_id or text is required']);
    expect((await post('/api/podcast/dub/audio', bob, { project_id: project, target_language: 'es' })).status).toBe(
      404,
    );
    expect((await post('/api/podcast/dub/audio', alice, { project_id: project, target_language: 'de' })).status).toBe(
      503,
    );
    expect((await post('/api/podcast/dub/audio', alice, { project_id: project, target_language: 'xx' })).status).toBe(
      400,
    );
    const start = await post('/api/podcast/dub/audio', alice, {
      segments: [{ text: 'Buenas noches. Hoy hablamos del sueño.', start: 0, end: 3 }],
      target_language: 'es',
      voice: 'es+f3',
      translate: false,
    });
    expect(start.status).toBe(202);
    dubTask = start.body.task_id;
    let r = await get(start.body.status_url, alice);
    expect((await get(start.body.status_url, bob)).status).toBe(404);
    await waitFor(
      'the dub to finish',
      async () => {
        r = await get(start.body.status_url, alice);
        return r.body.status === 'completed' || r.body.status === 'failed';
      },
      100_000,
      250,
    ).catch(() => undefined);
    expect(r.body.status).toBe('completed');
    conforms('get', '/api/podcast/dub/{task_id}/result', r);
    expect(r.body.result).toMatchObject({
      translation: { provider: 'none', translated: false },
      speech: { voice: 'es+f3' },
    });
    const f = `/api/podcast/dub/audio/${r.body.result.filename}`;
    expect((await get(f, bob)).status).toBe(404);
    expect((await get(f, alice)).status).toBe(200);
    // Cloning tasks and files: none exist without a cloning vendor; a dub task is not a cloning task.
    expect((await get(`/api/podcast/dub/voices/${dubTask}/result`, alice)).status).toBe(404);
    expect((await get(`/api/podcast/dub/voices/${dubTask}/result`, bob)).status).toBe(404);
    expect((await get(`/api/podcast/dub/voices/audio/${r.body.result.filename}`, alice)).status).toBe(404);
    // The spec's cancel route: another user's task is 404; a finished one is 409; a running one is cancelled.
    expect((await post(`/api/story/task/${dubTask}/cancel`, bob, {})).status).toBe(404);
    expect((await post(`/api/story/task/${dubTask}/cancel`, alice, {})).status).toBe(409);
    const long = await post('/api/podcast/dub/audio', alice, { project_id: project, target_language: 'es' });
    const cancelled = await post(`/api/story/task/${long.body.task_id}/cancel`, alice, {});
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', task_type: 'podcast_dub' });
  });

  it('dub files: Range serves the right bytes, traversal refused; cloning previews: traversal refused', async () => {
    const start = await post('/api/podcast/dub/audio', alice, {
      project_id: project,
      segments: [{ text: 'Buenas noches a todos.', start: 0, end: 2 }],
      target_language: 'es',
      translate: false,
    });
    expect(start.status).toBe(202);
    let r = await get(start.body.status_url, alice);
    await waitFor(
      'the dub to finish',
      async () => {
        r = await get(start.body.status_url, alice);
        return ['completed', 'failed', 'cancelled'].includes(r.body.status);
      },
      240000,
      50,
    );
    expect(r.body.status).toBe('completed');
    conforms('get', '/api/podcast/dub/{task_id}/result', r);
    expect(r.body.result.project_id).toBe(project);
    projectDub = r.body.result.filename;
    const whole = readFileSync(path.join(worker.storageDir, 'podcast', 'dub', projectDub));
    const part = await fetch(`${api.url}/api/podcast/dub/audio/${projectDub}`, {
      headers: { ...bearer(alice.key), Range: 'bytes=10-209' },
    });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 10-209/${whole.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(whole.subarray(10, 210))).toBe(true);
    for (const route of ['dub/audio', 'dub/voices/audio'])
      for (const t of [
        `..%2F..%2Faudio%2F${audioFile}`,
        `%2e%2e%2Fdub%2F${projectDub}`,
        `..%5Cdub%5C${projectDub}`,
        `%252e%252e%252Fdub%252F${projectDub}`,
        '%2e%2e',
      ]) {
        const status = await rawGet(`/api/podcast/${route}/${t}`, alice);
        expect([route, t, [400, 404].includes(status)]).toEqual([route, t, true]);
      }
    for (const t of [
      '/api/podcast/dub/audio/..',
      `/api/podcast/dub/audio/../../audio/${audioFile}`,
      '/api/podcast/dub/voices/audio/..',
      `/api/podcast/dub/voices/audio/../../dub/audio/${projectDub}`,
    ])
      expect([t, [400, 404].includes(await rawGet(t, alice))]).toEqual([t, true]);
    // No cloning vendor adapter: there is no preview to serve, whatever the name.
    expect((await get(`/api/podcast/dub/voices/audio/${projectDub}`, alice)).status).toBe(404);
  });

  it("the project's answer validates with every kind of asset; a deleted project's files are no longer served", async () => {
    const p = conforms(
      'get',
      '/api/podcast/projects/{project_id}',
      await get(`/api/podcast/projects/${project}`, alice),
    ).body;
    expect(new Set(p.assets.map((a: { kind: string }) => a.kind))).toEqual(
      new Set(['scene_audio', 'combined_audio', 'image', 'scene_video', 'final_video', 'avatar', 'dub']),
    );
    const files = [
      `/api/podcast/audio/${audioFile}`,
      `/api/podcast/videos/${videoFile}`,
      `/api/podcast/final-videos/${finalFile}`,
      `/api/podcast/final-videos/${finalFile.replace('.mp4', '.srt')}`,
      `/api/podcast/dub/audio/${projectDub}`,
    ];
    for (const f of files) expect([f, (await get(f, alice)).status]).toEqual([f, 200]);
    expect((await req('DELETE', `/api/podcast/projects/${project}`, alice)).status).toBe(200);
    for (const f of files) expect([f, (await get(f, alice)).status]).toEqual([f, 404]);
    expect((await get(`/api/podcast/videos?project_id=${project}`, alice)).body).toMatchObject({
      videos: [],
      total: 0,
    });
  });
});
