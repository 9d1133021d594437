/**
 * The media engine's adapters on the real tools (ffmpeg, ffprobe, espeak-ng;
 * no stack needed): speech with distinct voices and measured durations, the
 * OpenAI-compatible speech protocol against a scripted loopback vendor,
 * ffprobe input validation, two-pass loudness normalisation to MP3 and AAC,
 * cancellation that kills ffmpeg, and the local storage port.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createEspeakSynthesizer } from '../../../infra/tts/espeak';
import { createOpenAiSpeechSynthesizer } from '../../../infra/tts/openai-speech';
import { DEFAULT_TOOLS } from '../../../infra/media/tools';
import { measureLoudness, probe, validateInput } from '../../../infra/media/probe';
import { normaliseAudio, renderStill } from '../../../infra/media/ffmpeg';
import { runTool } from '../../../infra/media/process';
import { picture, speak, soundtrack } from '../../../infra/media/engine';
import { renderBackground, renderSceneStill } from '../../../infra/media/visuals';
import sharp from 'sharp';
import { createLocalDirStorage } from '../../../infra/storage/local-dir';
import { startFakeVendor, FakeVendor } from '../../support/fake-vendor';

jest.setTimeout(180000);

const tools = { ...DEFAULT_TOOLS, x264Preset: 'ultrafast' };
const local = createEspeakSynthesizer();
const engine = { tools, speech: { local } };
let dir: string;
const f = (name: string) => path.join(dir, name);
const streamText = async (s: NodeJS.ReadableStream) => {
  const chunks: Buffer[] = [];
  for await (const c of s) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
};

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'engine-test-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('speech', () => {
  it('espeak-ng: distinct voices give different audio; a faster rate gives shorter audio, measured by ffprobe', async () => {
    const text = 'Two speakers must never sound alike in a podcast.';
    for (const [name, voice] of [
      ['m.wav', { voice: 'en-us-m1' }],
      ['f.wav', { voice: 'en-us-f1' }],
      ['fast.wav', { voice: 'en-us-m1', rate: 1.8 }],
    ] as const)
      await local.synthesize({ text, voice, out: f(name) });
    expect(readFileSync(f('m.wav')).equals(readFileSync(f('f.wav')))).toBe(false);
    const [m, fast] = await Promise.all([probe(tools, f('m.wav')), probe(tools, f('fast.wav'))]);
    expect(m.streams[0].codec_type).toBe('audio');
    expect(m.duration).toBeGreaterThan(1.5);
    expect(fast.duration).toBeLessThan(m.duration * 0.75);
  });

  it('per-sentence timings: each sentence measured, cues placed on the soundtrack where the sentences are', async () => {
    const spoken = await speak(engine, {
      sentences: ['The first sentence is short.', 'The second one is a little bit longer than the first.'],
      voice: { voice: 'en-gb-f1' },
      provider: 'local',
      dir: f('speak'),
    });
    expect(spoken.sentences).toHaveLength(2);
    expect(spoken.sentences[1].seconds).toBeGreaterThan(spoken.sentences[0].seconds);
    const st = await soundtrack(engine, {
      sentences: spoken.sentences,
      plannedSeconds: 10,
      fps: 25,
      out: f('sound.wav'),
    });
    const p = await probe(tools, st.file);
    expect(p.duration).toBeCloseTo(10, 2); // exactly the scene's frames
    expect(st.cues).toHaveLength(2);
    expect(st.cues[0].end - st.cues[0].start).toBeCloseTo(spoken.sentences[0].seconds, 6);
    expect(st.cues[1].start).toBeGreaterThan(st.cues[0].end);
  });

  describe('OpenAI-compatible /audio/speech', () => {
    let vendor: FakeVendor;
    let wav: Buffer;
    beforeAll(async () => {
      wav = readFileSync(f('m.wav'));
      vendor = await startFakeVendor([
        { status: 503, body: { error: { message: 'overloaded' } } },
        { bytes: wav, headers: { 'content-type': 'audio/wav' } },
        { status: 401, body: { error: { message: 'bad key' } } },
        { status: 200, body: { not: 'audio' } },
      ]);
    });
    afterAll(() => vendor.close());
    const synth = () =>
      createOpenAiSpeechSynthesizer({
        baseUrl: vendor.baseUrl,
        apiKey: 'sk-test',
        model: 'tts-1',
        timeoutMs: 5000,
        maxRetries: 2,
        sleep: async () => {},
      });

    it('sends the protocol request, retries a 503, writes the audio; no pitch control is reported', async () => {
      const r = await synth().synthesize({
        text: 'Hello.',
        voice: { voice: 'nova', rate: 1.25, pitch: 60 },
        out: f('v.wav'),
        idempotencyKey: 'k1',
      });
      expect(vendor.requests).toHaveLength(2);
      const req = vendor.requests[1];
      expect(req.method).toBe('POST');
      expect(req.path).toBe('/v1/audio/speech');
      expect(req.headers.authorization).toBe('Bearer sk-test');
      expect(req.headers['idempotency-key']).toBe('k1');
      expect(req.body).toEqual({ model: 'tts-1', input: 'Hello.', voice: 'nova', response_format: 'wav', speed: 1.25 });
      expect(r).toMatchObject({ provider: 'tts_vendor', voice: 'nova', model: 'tts-1', pitch_applied: false });
      expect(readFileSync(f('v.wav')).equals(wav)).toBe(true);
    });

    it('a 401 is not retried (VENDOR_REQUEST_REJECTED); a JSON answer is VENDOR_BAD_RESPONSE', async () => {
      await expect(synth().synthesize({ text: 'x', voice: {}, out: f('x.wav') })).rejects.toMatchObject({
        code: 'VENDOR_REQUEST_REJECTED',
      });
      expect(vendor.requests).toHaveLength(3);
      await expect(synth().synthesize({ text: 'x', voice: {}, out: f('x.wav') })).rejects.toMatchObject({
        code: 'VENDOR_BAD_RESPONSE',
      });
    });
  });
});

describe('ffprobe validation', () => {
  it('refuses what is not media, too large, too long, or of the wrong codec, with INVALID_REQUEST', async () => {
    writeFileSync(f('fake.wav'), 'not audio at all');
    await expect(validateInput(tools, f('fake.wav'), { require: ['audio'] })).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
    });
    await expect(validateInput(tools, f('m.wav'), { require: ['audio'], maxBytes: 100 })).rejects.toThrow(
      /at most 100/,
    );
    await expect(validateInput(tools, f('m.wav'), { require: ['audio'], maxSeconds: 0.5 })).rejects.toThrow(
      /at most 0.5 s/,
    );
    await expect(validateInput(tools, f('m.wav'), { require: ['audio'], codecs: { audio: ['aac'] } })).rejects.toThrow(
      /pcm_s16le is not accepted/,
    );
    await expect(validateInput(tools, f('m.wav'), { require: ['video'] })).rejects.toThrow(/no video stream/);
    const ok = await validateInput(tools, f('m.wav'), {
      require: ['audio'],
      codecs: { audio: ['pcm_s16le'] },
      maxSeconds: 60,
    });
    expect(ok.duration).toBeGreaterThan(1);
  });
});

describe('loudness and encoding', () => {
  it('two-pass loudnorm to MP3 and AAC: −16 LUFS within 1 LU, true peak at most −1 dBTP', async () => {
    await speak(engine, {
      sentences: [
        'Loudness is measured first.',
        'Then it is corrected in a second pass.',
        'The result lands on target.',
      ],
      voice: {},
      provider: 'local',
      dir: f('loud'),
    }).then((s) => soundtrack(engine, { sentences: s.sentences, plannedSeconds: 12, fps: 25, out: f('loud.wav') }));
    for (const [out, codec] of [
      [f('episode.mp3'), 'mp3'],
      [f('episode.m4a'), 'aac'],
    ] as const) {
      await normaliseAudio(tools, f('loud.wav'), out, codec);
      const p = await probe(tools, out);
      expect(p.streams.find((s) => s.codec_type === 'audio')?.codec_name).toBe(codec);
      const l = await measureLoudness(tools, out);
      expect(Math.abs(l.integrated_lufs - -16)).toBeLessThanOrEqual(1);
      expect(l.true_peak_dbtp).toBeLessThanOrEqual(-1);
    }
  });
});

describe('subtitles burnt in', () => {
  it('the same scene with burnt-in subtitles differs in the picture where the cue is shown', async () => {
    const cues = [{ start: 0, end: 2, text: 'Burnt into the picture' }];
    mkdirSync(f('plain'));
    mkdirSync(f('burnt'));
    const plain = await picture(engine, {
      visual: { kind: 'solid', colors: ['#203040'], motion: 'none' },
      width: 480,
      height: 854,
      fps: 25,
      frames: 25,
      dir: f('plain'),
    });
    const burnt = await picture(engine, {
      visual: { kind: 'solid', colors: ['#203040'], motion: 'none' },
      width: 480,
      height: 854,
      fps: 25,
      frames: 25,
      dir: f('burnt'),
      burnCues: cues,
    });
    const frame = async (file: string, out: string) => {
      await runTool(tools.ffmpeg, [
        '-y',
        '-loglevel',
        'error',
        '-i',
        file,
        '-frames:v',
        '1',
        '-f',
        'rawvideo',
        '-pix_fmt',
        'gray',
        out,
      ]);
      return readFileSync(out);
    };
    const a = await frame(plain.file, f('plain.gray'));
    const b = await frame(burnt.file, f('burnt.gray'));
    expect(a.length).toBe(480 * 854);
    // The lower part (where the subtitle sits) differs; the top of the picture does not.
    const differing = (from: number, to: number) => {
      let n = 0;
      for (let i = from; i < to; i++) if (Math.abs(a[i] - b[i]) > 40) n++;
      return n;
    };
    expect(differing(480 * 600, a.length)).toBeGreaterThan(500);
    expect(differing(0, 480 * 300)).toBe(0);
  });
});

describe('scene stills and Ken Burns', () => {
  /** Frame `n` of a video as a PNG. */
  const frameAt = async (video: string, n: number, out: string) => {
    await runTool(tools.ffmpeg, [
      '-y',
      '-loglevel',
      'error',
      '-i',
      video,
      '-vf',
      `select=eq(n\\,${n})`,
      '-fps_mode',
      'passthrough',
      '-frames:v',
      '1',
      out,
    ]);
    return out;
  };
  /** Mean absolute difference (0–255, over the channels) of two images, from sharp's stats of their difference. */
  const meanDifference = async (a: string, b: string) => {
    const diff = await sharp(a)
      .removeAlpha()
      .composite([{ input: await sharp(b).removeAlpha().toBuffer(), blend: 'difference' }])
      .toBuffer();
    const st = await sharp(diff).stats();
    return st.channels.slice(0, 3).reduce((x, c) => x + c.mean, 0) / 3;
  };

  it("an image still comes from the image studio's offline renderer: seeded by the description, oversized for the zoom", async () => {
    const visual = { kind: 'image' as const, colors: ['#000000', '#ffffff'], motion: 'zoom_in' as const };
    const a = await renderSceneStill({
      visual,
      description: 'a golden sunset over ocean waves',
      width: 320,
      height: 180,
      out: f('still-a.png'),
    });
    await renderSceneStill({
      visual,
      description: 'a golden sunset over ocean waves',
      width: 320,
      height: 180,
      out: f('still-a2.png'),
    });
    const b = await renderSceneStill({
      visual,
      description: 'a city skyline at night with stars',
      width: 320,
      height: 180,
      out: f('still-b.png'),
    });
    expect(a).toEqual({ rendered_as: 'image_studio_local', motifs: expect.arrayContaining(['sun', 'waves']) });
    expect(b.motifs).toEqual(expect.arrayContaining(['stars', 'skyline']));
    expect(readFileSync(f('still-a.png')).equals(readFileSync(f('still-a2.png')))).toBe(true);
    expect(await meanDifference(f('still-a.png'), f('still-b.png'))).toBeGreaterThan(10);
    const meta = await sharp(f('still-a.png')).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 384, 216]);
    // A plain background says so.
    expect(
      await renderSceneStill({
        visual: { kind: 'solid', colors: ['#336699'], motion: 'none' },
        width: 320,
        height: 180,
        out: f('still-solid.png'),
      }),
    ).toEqual({ rendered_as: 'local_solid_colour' });
  });

  it('Ken Burns: the first and last frames of a zoomed segment differ; those of a static one do not', async () => {
    const segment = async (name: string, motion: 'zoom_in' | 'zoom_out' | 'none') => {
      mkdirSync(f(name));
      const r = await picture(engine, {
        visual: { kind: 'image', colors: ['#000000', '#ffffff'], motion },
        description: 'mountains and a forest under a golden sun',
        width: 320,
        height: 180,
        fps: 25,
        frames: 50,
        dir: f(name),
      });
      expect(r.still.rendered_as).toBe('image_studio_local');
      expect((await probe(tools, r.file)).streams[0]).toMatchObject({ codec_name: 'h264', width: 320, height: 180 });
      const first = await frameAt(r.file, 0, f(`${name}-first.png`));
      const last = await frameAt(r.file, 49, f(`${name}-last.png`));
      return meanDifference(first, last);
    };
    const zoomIn = await segment('kb-in', 'zoom_in');
    const zoomOut = await segment('kb-out', 'zoom_out');
    const still = await segment('kb-none', 'none');
    process.stdout.write(`first/last frame difference: zoom_in ${zoomIn}, zoom_out ${zoomOut}, none ${still}\n`);
    expect(zoomIn).toBeGreaterThan(3);
    expect(zoomOut).toBeGreaterThan(3);
    expect(still).toBeLessThan(1);
  });
});

describe('cancellation', () => {
  it('an aborted ffmpeg is killed at once and the call rejects with the abort reason', async () => {
    await renderBackground(
      { kind: 'gradient', colors: ['#000000', '#ffffff'], motion: 'zoom_in' },
      1920,
      1080,
      f('bg.png'),
    );
    const controller = new AbortController();
    let abortedAt = 0;
    const render = renderStill(tools, {
      image: f('bg.png'),
      out: f('long.mp4'),
      width: 1920,
      height: 1080,
      fps: 25,
      frames: 25 * 600,
      motion: 'zoom_in',
      signal: controller.signal,
      onProgress: (p) => {
        if (p > 0 && !abortedAt) {
          abortedAt = Date.now();
          controller.abort(new Error('stop'));
        }
      },
    });
    await expect(render).rejects.toThrow('stop');
    // "At once" is what is observable: the call rejects when ffmpeg has exited (SIGKILL), and no ffmpeg of this
    // render is left. The time from the abort is bounded generously (a kill takes milliseconds; the render itself
    // would take minutes), so a loaded machine does not fail it, while an abort that waited for the render would.
    expect(Date.now() - abortedAt).toBeLessThan(30000);
    await expect(runTool('pgrep', ['-f', f('long.mp4')])).rejects.toThrow();
  });
});

describe('local directory storage', () => {
  it('put, stat with a strong ETag and content type, byte ranges, prefix removal', async () => {
    const s = createLocalDirStorage(f('store'));
    writeFileSync(f('a.mp4'), Buffer.from('0123456789'));
    const o = await s.put('videos/a.mp4', f('a.mp4'));
    expect(existsSync(f('a.mp4'))).toBe(false); // moved in
    expect(o).toMatchObject({ key: 'videos/a.mp4', size: 10, contentType: 'video/mp4' });
    expect(o.etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect((await streamText(s.read('videos/a.mp4', { start: 2, end: 5 }))).toString()).toBe('2345');
    expect((await streamText(s.read('videos/a.mp4'))).toString()).toBe('0123456789');
    expect(await s.stat('videos/none.mp4')).toBeUndefined();
    writeFileSync(f('a.srt'), '1');
    await s.put('videos/a.srt', f('a.srt'));
    expect(await s.list('videos/a.')).toEqual(['videos/a.mp4', 'videos/a.srt']);
    expect(await s.removePrefix('videos/a.')).toBe(2);
    expect(await s.list('videos/')).toEqual([]);
  });

  it('path traversal and odd keys are refused before touching the file system', async () => {
    const s = createLocalDirStorage(f('store'));
    for (const key of [
      '../secret',
      'videos/../../etc/passwd',
      '/etc/passwd',
      'videos/..',
      'a\\b',
      '',
      'videos//x',
      '.hidden',
    ])
      await expect(s.stat(key)).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    expect(() => s.read('../x')).toThrow(/invalid storage key/);
    expect(await readFile(f('m.wav'))).toBeDefined();
  });
});
