/**
 * The image studio with vendors configured, each replaced by a scripted HTTP
 * server on loopback speaking its public protocol: Stability AI v2beta
 * (vendor_c), Black Forest Labs FLUX (vendor_d), Replicate (vendor_e) and the
 * OpenAI Images API (vendor_a); the prompt rewrite goes through an
 * OpenAI-compatible chat vendor. Generation is metered per image (one
 * reservation per variation, so a plan limit fails only the variations over
 * it), failures of single variations are reported, and vendor answers are
 * resized to the requested size.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import sharp from 'sharp';
import { call } from '../../support/http';
import { bearer, startTestApi, TestApi } from '../../support/api';
import { testTemporal, uniq } from '../../support/env';
import { startImageWorker } from '../../support/image-worker';
import { completion, FakeVendor, RecordedRequest, startFakeVendor, Step } from '../../support/fake-vendor';
import { b64, discOnWhite, fromB64, solid } from '../../support/images';
import { imageAssetsProjection } from '../../../projections/image-assets';
import { createLocalImageStorage } from '../../../infra/image/storage';
import {
  createBflClient,
  createOpenAiImagesClient,
  createReplicateClient,
  createStabilityClient,
} from '../../../infra/image/vendors';
import { createOpenAiCompatibleClient } from '../../../infra/ai';
import { usageStream } from '../../../domain/events/usage';
import type { ImageStudioSettings } from '../../../infra/image';
import { clearOfMonthEnd } from '../../support/clock';

jest.setTimeout(180000);
const P = '/api/image-studio';

/** A form field's value in a multipart body (text fields only). */
const field = (r: RecordedRequest, name: string) =>
  new RegExp(`name="${name}"\\r\\n\\r\\n([^\\r]*)\\r\\n`).exec(r.rawBody?.toString('latin1') ?? '')?.[1];
const hasFile = (r: RecordedRequest, name: string) =>
  new RegExp(`name="${name}"; filename=`).test(r.rawBody?.toString('latin1') ?? '');
/** The bytes of a multipart file part (up to the next boundary). */
function fileOf(r: RecordedRequest, name: string): Buffer {
  const boundary = /boundary=("?)([^";]+)\1/.exec(String(r.headers['content-type']))![2];
  const raw = r.rawBody!;
  const head = raw.indexOf(`name="${name}"; filename=`);
  const start = raw.indexOf('\r\n\r\n', head) + 4;
  return raw.subarray(start, raw.indexOf(`\r\n--${boundary}`, start));
}

describe('image studio with vendors (scripted vendors on loopback)', () => {
  let api: TestApi;
  let worker: Awaited<ReturnType<typeof startImageWorker>>;
  let temporal: Awaited<ReturnType<typeof testTemporal>>;
  let dir: string;
  let stability: FakeVendor;
  let bfl: FakeVendor;
  let replicate: FakeVendor;
  let openai: FakeVendor;
  let text: FakeVendor;
  let alice: { key: string; userId: string };
  let limited: { key: string; userId: string };
  let wide: Buffer;
  let square: Buffer;
  const polls: Record<string, number> = {};

  beforeAll(async () => {
    wide = await solid(1344, 768, '#224488');
    square = await solid(1024, 1024, '#884422');
    const stabilityStep = (r: RecordedRequest): Step => {
      if (r.path === '/v2beta/stable-image/generate/core') {
        if (field(r, 'seed') === '11') return { body: { image: null, finish_reason: 'CONTENT_FILTERED', seed: 11 } };
        return { body: { image: b64(wide), finish_reason: 'SUCCESS', seed: Number(field(r, 'seed')) } };
      }
      if (r.path === '/v2beta/stable-image/edit/search-and-replace')
        return { body: { image: b64(square), finish_reason: 'SUCCESS', seed: 5 } };
      if (r.path === '/v2beta/stable-image/upscale/creative') return { body: { id: 'up-1' } };
      if (r.path === '/v2beta/results/up-1') {
        polls.stability = (polls.stability ?? 0) + 1;
        return polls.stability < 2
          ? { status: 202, body: { id: 'up-1', status: 'in-progress' } }
          : { body: { image: b64(square), finish_reason: 'SUCCESS', seed: 1 } };
      }
      return { status: 404, body: { errors: ['not found'] } };
    };
    stability = await startFakeVendor([{ handler: stabilityStep }], '');
    const bflStep = (r: RecordedRequest): Step => {
      if (r.method === 'POST' && r.path === '/v1/flux-kontext-pro')
        return { body: { id: 'k1', polling_url: `${bfl.origin}/v1/get_result?id=k1` } };
      if (r.path === '/v1/get_result?id=k1') {
        polls.bfl = (polls.bfl ?? 0) + 1;
        return polls.bfl < 2
          ? { body: { id: 'k1', status: 'Pending' } }
          : { body: { id: 'k1', status: 'Ready', result: { sample: `${bfl.origin}/files/k1.png` } } };
      }
      if (r.path === '/files/k1.png') return { bytes: square };
      return { status: 404, body: {} };
    };
    bfl = await startFakeVendor([{ handler: bflStep }], '');
    const replicateStep = (r: RecordedRequest): Step => {
      if (r.method === 'POST' && r.path === '/v1/models/black-forest-labs/flux-canny-pro/predictions')
        return {
          status: 201,
          body: { id: 'p1', status: 'processing', urls: { get: `${replicate.origin}/v1/predictions/p1` } },
        };
      if (r.path === '/v1/predictions/p1')
        return { body: { id: 'p1', status: 'succeeded', output: `${replicate.origin}/files/p1.png` } };
      if (r.path === '/files/p1.png') return { bytes: wide };
      return { status: 404, body: {} };
    };
    replicate = await startFakeVendor([{ handler: replicateStep }], '/v1');
    const openaiStep = (r: RecordedRequest): Step => {
      if (r.path === '/v1/images/generations') return { body: { created: 1, data: [{ b64_json: b64(square) }] } };
      if (r.path === '/v1/images/edits') return { body: { created: 1, data: [{ b64_json: b64(square) }] } };
      return { status: 404, body: {} };
    };
    openai = await startFakeVendor([{ handler: openaiStep }], '/v1');
    text = await startFakeVendor([
      { body: completion('A cinematic photo of a lighthouse at dusk, volumetric light, 35mm') },
    ]);

    dir = mkdtempSync(path.join(tmpdir(), 'images-'));
    const storage = createLocalImageStorage(dir);
    temporal = await testTemporal();
    const taskQueue = uniq('image-vendors');
    const http = { apiKey: 'test-key', timeoutMs: 5000, maxRetries: 0, pollIntervalMs: 50, taskTimeoutMs: 10000 };
    const imageStudio: ImageStudioSettings = {
      storage,
      configured: { vendor_a: true, vendor_c: true, vendor_d: true, vendor_e: true },
      defaultModels: {
        vendor_c: 'stable-image-core',
        vendor_d: 'flux-pro-1.1',
        vendor_e: 'black-forest-labs/flux-schnell',
        vendor_a: 'gpt-image-1',
      },
      input: { maxBytes: 10 * 1024 * 1024, maxPixels: 40_000_000 },
      maxOutputPixels: 33_554_432,
    };
    api = await startTestApi({
      logger: pino({ level: 'silent' }),
      projections: [imageAssetsProjection],
      deps: { workflows: { client: async () => temporal.client, taskQueue }, imageStudio },
    });
    alice = await api.user('pro');
    limited = await api.user('pro');
    worker = await startImageWorker(api.schema.db, {
      storage,
      taskQueue,
      vendors: {
        vendor_c: createStabilityClient({ ...http, baseUrl: stability.origin }),
        vendor_d: createBflClient({ ...http, baseUrl: bfl.origin }),
        vendor_e: createReplicateClient({ ...http, baseUrl: replicate.baseUrl }),
        vendor_a: createOpenAiImagesClient({ ...http, baseUrl: openai.baseUrl }),
      },
      textVendor: createOpenAiCompatibleClient({
        provider: 'vendor_a',
        baseUrl: text.baseUrl,
        apiKey: 'k',
        model: 'gpt-4o-mini',
        timeoutMs: 5000,
        maxRetries: 0,
      }),
      limits: (u) => (u === limited.userId ? { vendor_c_calls: 2 } : {}),
    });
  });
  afterAll(async () => {
    await worker?.stop();
    await api?.stop();
    await temporal?.connection.close();
    await Promise.all([stability, bfl, replicate, openai, text].map((v) => v?.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  const post = (p: string, json: unknown, k = alice.key) =>
    call(`${api.url}${P}${p}`, { method: 'POST', headers: bearer(k), json });

  it('vendor_c generation: Stability multipart protocol, enhanced prompt from the text vendor, exact size, metered per image, a filtered variation reported', async () => {
    const r = await post('/create', {
      prompt: 'a lighthouse',
      provider: 'vendor_c',
      width: 1200,
      height: 675,
      num_variations: 3,
      seed: 10,
    });
    expect(r.status).toBe(200);
    expect(r.body.request).toMatchObject({
      provider: 'vendor_c',
      model: 'stable-image-core',
      dimensions: '1200x675',
      enhanced_prompt: 'A cinematic photo of a lighthouse at dusk, volumetric light, 35mm',
      prompt_enhancement: { provider: 'vendor_a', model: 'test-model', offline: false },
    });
    expect([r.body.total_generated, r.body.total_failed]).toEqual([2, 1]);
    expect(r.body.failures).toEqual([
      { variation: 2, code: 'VENDOR_REQUEST_REJECTED', message: expect.stringMatching(/CONTENT_FILTERED/) },
    ]);
    for (const x of r.body.results)
      expect(await sharp(fromB64(x.image_base64)).metadata()).toMatchObject({ width: 1200, height: 675 });
    expect(r.body.results.map((x: { seed: number }) => x.seed)).toEqual([10, 12]);
    const gen = stability.requests.filter((q) => q.path === '/v2beta/stable-image/generate/core');
    expect(gen).toHaveLength(3);
    expect(gen[0].headers.authorization).toBe('Bearer test-key');
    expect(gen[0].headers.accept).toBe('application/json');
    expect([field(gen[0], 'prompt'), field(gen[0], 'aspect_ratio'), field(gen[0], 'output_format')]).toEqual([
      'A cinematic photo of a lighthouse at dusk, volumetric light, 35mm',
      '16:9',
      'png',
    ]);
    // Two images charged at the table's price, the filtered one released.
    const usage = (await api.store.readStream(usageStream(alice.userId))).filter(
      (e) => e.type === 'UsageRecorded' && e.data.provider === 'vendor_c',
    );
    expect(usage.map((e) => e.type === 'UsageRecorded' && e.data.cost)).toEqual([0.03, 0.03]);
  });

  it('a plan limit fails only the variations over it; all over it is 429', async () => {
    await clearOfMonthEnd(); // the limit counts this billing period's calls: both requests in the same one
    const r = await post(
      '/create',
      { prompt: 'a lighthouse', provider: 'vendor_c', num_variations: 3, seed: 20, enhance_prompt: false },
      limited.key,
    );
    expect([r.status, r.body.total_generated, r.body.total_failed]).toEqual([200, 2, 1]);
    expect(r.body.failures[0].code).toBe('USAGE_LIMIT_EXCEEDED');
    const none = await post('/create', { prompt: 'again', provider: 'vendor_c', enhance_prompt: false }, limited.key);
    expect([none.status, none.body.error]).toEqual([429, 'UsageLimitExceededException']);
  });

  it('vendor_c edit and creative upscale (asynchronous task polled); vendor_a generation and inpaint with a converted mask', async () => {
    const src = await discOnWhite(300, 200);
    const sr = await post('/edit/process', {
      image_base64: b64(src),
      operation: 'search_replace',
      prompt: 'a blue square',
      search_prompt: 'red disc',
    });
    expect(sr.body).toMatchObject({
      provider: 'vendor_c',
      model: 'search-and-replace',
      width: 1024,
      height: 1024,
      metadata: { operation: 'search_replace', seed: 5 },
    });
    const q = stability.requests.find((x) => x.path === '/v2beta/stable-image/edit/search-and-replace')!;
    expect([field(q, 'search_prompt'), hasFile(q, 'image')]).toEqual(['red disc', true]);
    const other = await post('/edit/process', {
      image_base64: b64(src),
      operation: 'search_replace',
      prompt: 'a blue square',
      search_prompt: 'red disc',
      model: 'stable-image-ultra',
    });
    expect([other.status, other.body.detail]).toEqual([
      400,
      expect.stringMatching(/vendor_c does this operation with search-and-replace/),
    ]);
    // remove_background prefers the configured vendor over the local flood fill
    const ops = await call(`${api.url}${P}/edit/operations`, { headers: bearer(alice.key) });
    expect(ops.body.operations.remove_background.provider).toBe('vendor_c');
    const up = await post('/upscale', {
      image_base64: b64(src),
      mode: 'creative',
      prompt: 'a red disc',
      target_width: 600,
    });
    expect(up.body).toMatchObject({
      mode: 'creative',
      provider: 'vendor_c',
      model: 'creative',
      width: 600,
      height: 400,
      metadata: { upscale_factor: 2, original_width: 300 },
    });
    expect(polls.stability).toBeGreaterThanOrEqual(2);
    const gen = await post('/create', {
      prompt: 'a fox',
      provider: 'vendor_a',
      aspect_ratio: '1:1',
      quality: 'premium',
      enhance_prompt: false,
    });
    expect(gen.body.request).toMatchObject({ provider: 'vendor_a', model: 'gpt-image-1', dimensions: '1536x1536' });
    expect(gen.body.results[0].seed).toBeNull();
    const g = openai.requests.find((x) => x.path === '/v1/images/generations')!;
    expect(g.body).toMatchObject({ model: 'gpt-image-1', prompt: 'a fox', n: 1, size: '1024x1024', quality: 'high' });
    const mask = await solid(300, 200, '#ffffff');
    const inp = await post('/edit/process', {
      image_base64: b64(src),
      mask_base64: b64(mask),
      operation: 'inpaint',
      prompt: 'a cat',
      provider: 'vendor_a',
    });
    expect(inp.body).toMatchObject({ provider: 'vendor_a', operation: 'inpaint' });
    const e = openai.requests.find((x) => x.path === '/v1/images/edits')!;
    expect([hasFile(e, 'image'), hasFile(e, 'mask'), field(e, 'prompt')]).toEqual([true, true, 'a cat']);
    // OpenAI's mask: an RGBA PNG the image's size, transparent where the platform's mask is white.
    const sent = await sharp(fileOf(e, 'mask')).raw().toBuffer({ resolveWithObject: true });
    expect([sent.info.width, sent.info.height, sent.info.channels, sent.data[3]]).toEqual([300, 200, 4, 0]);
  });

  it('vendor_d general edit (FLUX task polled, result downloaded) and vendor_e control (Replicate prediction polled)', async () => {
    const src = await discOnWhite(300, 200);
    const ed = await post('/edit/process', {
      image_base64: b64(src),
      operation: 'general_edit',
      prompt: 'make it night',
      provider: 'vendor_d',
      output_format: 'jpg',
    });
    expect(ed.status).toBe(200);
    expect(ed.body).toMatchObject({ provider: 'vendor_d', model: 'flux-kontext-pro', width: 1024, height: 1024 });
    expect(ed.body.image_base64).toMatch(/^data:image\/jpeg;base64,/);
    const k = bfl.requests.find((x) => x.path === '/v1/flux-kontext-pro')!;
    expect(k.headers['x-key']).toBe('test-key');
    expect(k.body).toMatchObject({ prompt: 'make it night', input_image: b64(src), output_format: 'png' });
    expect(bfl.requests.find((x) => x.path === '/files/k1.png')!.headers['x-key']).toBeUndefined();
    const ctl = await post('/control/process', {
      control_image_base64: b64(src),
      operation: 'sketch',
      prompt: 'a castle',
      control_strength: 0.7,
      provider: 'vendor_e',
    });
    expect(ctl.body).toMatchObject({
      provider: 'vendor_e',
      model: 'black-forest-labs/flux-canny-pro',
      metadata: { operation: 'sketch', control_strength: 0.7 },
    });
    const p = replicate.requests.find((x) => x.method === 'POST')!;
    expect(p.headers.authorization).toBe('Bearer test-key');
    expect(p.body).toMatchObject({
      input: { prompt: 'a castle', control_image: expect.stringMatching(/^data:image\/png;base64,/) },
    });
    const usage = (await api.store.readStream(usageStream(alice.userId))).filter((e) => e.type === 'UsageRecorded');
    const by = (prov: string) =>
      usage
        .filter((e) => e.type === 'UsageRecorded' && e.data.provider === prov)
        .map((e) => e.type === 'UsageRecorded' && e.data.cost);
    expect(by('vendor_d')).toEqual([0.04]);
    expect(by('vendor_e')).toEqual([0.05]);
  });
});
