import sharp from 'sharp';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createImageActivities, ImageActivityDeps } from '../../../activities/image';
import { drawPlan, hash32, overlayText, renderSvg, wrap } from '../../../domain/image/procedural';
import { cleanEnhanced, enrichPrompt } from '../../../domain/image/enrich';
import { signRequest } from '../../../infra/image/storage/sigv4';
import {
  encodeUnder,
  fitToFormat,
  focalBox,
  renderFormat,
  renderSvgToPng,
  safeZoneSvg,
  sourceBox,
} from '../../../infra/image/raster';
import { base64Bytes, inspectImage } from '../../../infra/image/decode';
import { createOpenAiImagesClient, openAiMask } from '../../../infra/image/vendors/openai';
import { findFormat, PLATFORM_FORMATS, PLATFORMS } from '../../../domain/image/formats';
import { noise, pngHeaderClaiming, solid, stripes } from '../../support/images';

const req = {
  prompt: 'mountains at sunset by the sea',
  width: 640,
  height: 360,
  seed: 1,
  quality: 'standard' as const,
};

describe('offline renderer', () => {
  test('deterministic per prompt, style and seed; the seed changes the picture', () => {
    expect(renderSvg(req).svg).toBe(renderSvg(req).svg);
    expect(renderSvg({ ...req, seed: 2 }).svg).not.toBe(renderSvg(req).svg);
    expect(renderSvg(req).motifs).toEqual(expect.arrayContaining(['gradient', 'sun', 'mountains', 'waves']));
    expect(hash32('abc')).toBe(hash32('abc'));
  });
  test('overlay text is escaped, wrapped and quoted', async () => {
    const r = renderSvg({
      ...req,
      overlay: { kind: 'quote', text: 'Use <script> & "quotes" wisely in every long sentence' },
    });
    expect(r.svg).toContain('&lt;script&gt; &amp;');
    expect(r.svg).not.toContain('<script>');
    expect(wrap('one two three four', 9)).toEqual(['one two', 'three', 'four']);
    expect(overlayText('quote', 'A card with "Done is better than perfect" on it')).toBe('Done is better than perfect');
    const png = await renderSvgToPng(r.svg);
    expect([png.width, png.height]).toEqual([640, 360]);
  });
  test('offline enrichment adds style and quality words the prompt lacks, once', () => {
    const e = enrichPrompt({ prompt: 'A photographic portrait.', style_preset: 'photographic', quality: 'premium' });
    expect(e).toBe(
      'A photographic portrait, natural light, shallow depth of field, sharp focus, highly detailed, professional quality, balanced composition',
    );
    expect(cleanEnhanced('Prompt: "A red fox in snow"\nextra')).toBe('A red fox in snow');
  });
  test('for a vendor renderer the photographic style words stay', () => {
    const e = enrichPrompt({
      prompt: 'A portrait of a baker',
      style_preset: 'photographic',
      quality: 'standard',
      renderer: 'vendor',
    });
    expect(e).toBe(
      'A portrait of a baker, photographic, natural light, shallow depth of field, sharp focus, well composed, detailed',
    );
  });
  test('for the offline renderer the enhanced prompt describes what it draws, and promises no photograph', () => {
    const input = {
      prompt: 'A portrait of a baker at sunset by the sea',
      style_preset: 'photographic',
      quality: 'premium' as const,
      renderer: 'local' as const,
    };
    const e = enrichPrompt(input);
    expect(
      e.startsWith(
        'A portrait of a baker at sunset by the sea — drawn offline as a flat procedural illustration, not a photograph: ',
      ),
    ).toBe(true);
    // What renderSvg draws for the same prompt, style and quality, whatever the seed.
    const drawn = renderSvg({ ...input, width: 320, height: 200, seed: 3 }).motifs;
    expect(drawn).toEqual(['gradient', 'sun', 'bokeh', 'waves', 'vignette']);
    expect(e).toContain('two-colour gradient background (orange and blue)');
    expect(e).toContain('a glowing sun disc');
    expect(e).toContain('soft glowing circles for the photographic preset');
    expect(e).toContain('three layers of waves');
    expect(e).toContain('a dark vignette at the corners');
    expect(e).not.toMatch(/mountain|skyline|trees|stars/);
    // The photographic words appear only as a statement that they apply to vendors, never as a promise.
    const [description, note] = e.split('; ');
    expect(description).not.toMatch(/natural light|depth of field|sharp focus|highly detailed/);
    expect(note).toBe(
      "the photographic preset's style words (photographic, natural light, shallow depth of field, sharp focus) apply to vendor renderers only",
    );
  });
  test('the description follows the renderer: motifs, colours picked by the seed, the text overlay', () => {
    const night = enrichPrompt({ prompt: 'night city skyline', quality: 'draft', renderer: 'local' });
    expect(night).toBe(
      'night city skyline — drawn offline as a flat procedural illustration, not a photograph: a dark two-colour gradient background (navy and a second colour picked from the seed), small white dots as stars, translucent coloured circles and a skyline of flat building blocks',
    );
    expect(
      renderSvg({ prompt: 'night city skyline', quality: 'draft', width: 100, height: 100, seed: 1 }).motifs,
    ).toEqual(['gradient', 'stars', 'circles', 'skyline']);
    const quote = enrichPrompt({
      prompt: 'Forest path "Slow is smooth"',
      style_preset: 'line-art',
      quality: 'standard',
      renderer: 'local',
      overlay: { kind: 'quote', text: 'Slow is smooth' },
    });
    expect(quote).toContain('(green and a second colour picked from the seed)');
    expect(quote).toContain(
      'thin straight lines for the line-art preset, triangle trees and the quote "Slow is smooth"',
    );
    expect(drawPlan({ prompt: 'plain', quality: 'standard' })).toMatchObject({ colours: [], layer: 'circles' });
  });
  test.each([
    ['mountains at dawn over a golden forest', 'cinematic', 'standard'],
    ['stars above the alps at night, moon', 'digital-art', 'premium'],
    ['downtown buildings in the rain', undefined, 'draft'],
    ['a beach with waves, pastel pink', 'anime', 'standard'],
  ] as const)('every motif renderSvg draws for "%s" is described, and nothing else', (prompt, style, quality) => {
    const phrase: Record<string, string> = {
      gradient: 'gradient background',
      stars: 'stars',
      sun: 'sun disc',
      moon: 'moon disc',
      bokeh: 'soft glowing circles',
      polygons: 'polygons',
      lines: 'thin straight lines',
      circles: 'coloured circles',
      mountains: 'mountain silhouettes',
      skyline: 'skyline',
      waves: 'waves',
      trees: 'triangle trees',
      vignette: 'vignette',
    };
    const e = enrichPrompt({ prompt, style_preset: style, quality, renderer: 'local' }).split(' — ')[1].split('; ')[0];
    const drawn = new Set(renderSvg({ prompt, style_preset: style, quality, width: 200, height: 120, seed: 9 }).motifs);
    for (const [motif, words] of Object.entries(phrase))
      expect([motif, e.includes(words)]).toEqual([motif, drawn.has(motif)]);
  });
});

describe('prompt enhancement activity', () => {
  // A text vendor is configured: it rewrites prompts for vendor renderers, never for the offline renderer.
  const asked: unknown[] = [];
  const gateway = {
    resolve: () => 'vendor_a',
    complete: async (req: unknown) => {
      asked.push(req);
      return { text: 'A cinematic photo of a lighthouse, volumetric light', provider: 'vendor_a', model: 'm' };
    },
  };
  const { enhanceImagePrompt } = createImageActivities({ gateway } as unknown as ImageActivityDeps);
  const input = { prompt: 'a lighthouse by the sea', style_preset: 'photographic', quality: 'standard' as const };

  test('offline renderer: the description of the drawing, no vendor rewrite', async () => {
    const e = await new MockActivityEnvironment().run(enhanceImagePrompt, {
      userId: 'u',
      input: { ...input, renderer: 'local' as const },
    });
    expect(e).toEqual({
      prompt: expect.stringMatching(/^a lighthouse by the sea — drawn offline as a flat procedural illustration/),
      provider: 'local',
      model: 'local-render-description-v1',
      offline: true,
    });
    expect(asked).toHaveLength(0);
  });
  test('vendor renderer: the text vendor rewrites the prompt, photographic words and all', async () => {
    const e = await new MockActivityEnvironment().run(enhanceImagePrompt, {
      userId: 'u',
      input: { ...input, renderer: 'vendor' as const },
    });
    expect(e).toEqual({
      prompt: 'A cinematic photo of a lighthouse, volumetric light',
      provider: 'vendor_a',
      model: 'm',
      offline: false,
    });
    expect(asked).toHaveLength(1);
  });
});

describe('SigV4', () => {
  test("AWS's published example (GET Object with Range) gives its published signature", () => {
    const h = signRequest({
      method: 'GET',
      url: 'https://examplebucket.s3.amazonaws.com/test.txt',
      headers: { range: 'bytes=0-9' },
      payloadHash: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      region: 'us-east-1',
      accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
      secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      amzDate: '20130524T000000Z',
    });
    expect(h.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );
  });
});

describe('raster', () => {
  const lim = { maxBytes: 10 * 1024 * 1024, maxPixels: 40_000_000 };
  test('inputs: base64 and data URLs; bombs, truncation, other types refused by field', async () => {
    const png = await solid(40, 30);
    expect(base64Bytes(`data:image/png;base64,${png.toString('base64')}`, 'f', lim.maxBytes).equals(png)).toBe(true);
    expect((await inspectImage(png, 'f', lim)).width).toBe(40);
    await expect(inspectImage(pngHeaderClaiming(30000, 30000), 'image_base64', lim)).rejects.toMatchObject({
      issues: [{ path: 'image_base64', message: expect.stringMatching(/900000000 pixels/) }],
    });
    await expect(inspectImage(png.subarray(0, png.length - 30), 'f', lim)).rejects.toMatchObject({
      issues: [{ message: expect.stringMatching(/could not be decoded/) }],
    });
    expect(() => base64Bytes('%%%', 'f', 10)).toThrow();
    expect(() => base64Bytes('data:text/plain;base64,aGk=', 'f', 10)).toThrow();
  });
  test('fit to a format: exact size for every platform, format and crop mode; the boxes stay inside', async () => {
    const src = await solid(64, 48);
    const modes = [
      { crop: 'smart' as const },
      { crop: 'smart' as const, focal: { x: 0.9, y: 0.2 } },
      { crop: 'center' as const },
      { crop: 'fit' as const },
    ];
    const sizes: string[] = [];
    const want: string[] = [];
    for (const platform of PLATFORMS)
      for (const f of PLATFORM_FORMATS[platform])
        for (const m of modes) {
          const raw = await fitToFormat(src, { width: 64, height: 48 }, f, {
            ...m,
            showSafeZones: m.crop === 'fit',
            limitInputPixels: 4e7,
          });
          sizes.push(`${platform} ${f.name} ${m.crop}${m.focal ? '+focal' : ''} ${raw.info.width}x${raw.info.height}`);
          want.push(`${platform} ${f.name} ${m.crop}${m.focal ? '+focal' : ''} ${f.width}x${f.height}`);
        }
    expect(sizes).toEqual(want);
    expect(new Set(sizes.map((x) => x.split(' ')[0]))).toEqual(new Set(PLATFORMS));
    expect(focalBox(1000, 500, 1080, 1920, { x: 1, y: 0 })).toEqual({
      scaledW: 3840,
      scaledH: 1920,
      left: 2760,
      top: 0,
    });
    // The same crop in source pixels (2760 / 3.84 = 718.75), and the 1000x2 case: 4x2 pixels, not 313500x627.
    expect(sourceBox(1000, 500, 1080, 1920, { x: 1, y: 0 })).toEqual({ left: 719, top: 0, width: 281, height: 500 });
    expect(sourceBox(1000, 2, 1200, 627)).toEqual({ left: 498, top: 0, width: 4, height: 2 });
    expect(sourceBox(5000, 2, 1200, 1200, { x: 0, y: 1 })).toEqual({ left: 0, top: 0, width: 2, height: 2 });
    expect(safeZoneSvg(100, 200, { top: 0.1, bottom: 0.2, left: 0, right: 0 })).toContain(
      '<rect x="0" y="160" width="100" height="40"/>',
    );
  });
  test('extreme aspect ratios (a few hundred bytes asking for a x313 cover) crop before scaling, exact sizes', async () => {
    const opts = (crop: 'smart' | 'center' | 'fit', focal?: { x: number; y: number }) => ({
      crop,
      focal,
      showSafeZones: false,
      limitInputPixels: 4e7,
    });
    const cases: [number, number, string, string, ReturnType<typeof opts>][] = [
      [1000, 2, 'profnet', 'feed_landscape', opts('smart')],
      [1000, 2, 'profnet', 'feed_landscape', opts('center')],
      [2000, 2, 'profnet', 'feed_landscape', opts('smart', { x: 0.3, y: 0.7 })],
      [2000, 2, 'videonet', 'channel_banner', opts('smart', { x: 1, y: 1 })],
      [5000, 2, 'profnet', 'feed_square', opts('smart')],
      [5000, 2, 'profnet', 'feed_square', opts('fit')],
      [2, 5000, 'socialnet', 'cover', opts('smart')],
      [1, 1, 'videonet', 'channel_banner', opts('center')],
    ];
    for (const [w, h, platform, name, o] of cases) {
      const f = findFormat(platform as 'profnet', name)!;
      const input = await solid(w, h);
      expect(input.length).toBeLessThan(1000);
      const enc = await renderFormat(input, { width: w, height: h }, f, o, 'jpg', f.max_size_mb * 1e6);
      const meta = await sharp(enc.bytes).metadata();
      expect([w, h, name, o.crop, meta.width, meta.height]).toEqual([w, h, name, o.crop, f.width, f.height]);
    }
    // The crop is the right part of the source: blue | green | red stripes.
    const rgb = await stripes(900, 2, ['#0000ff', '#00ff00', '#ff0000']);
    const f = findFormat('profnet', 'feed_landscape')!;
    const centre = async (o: ReturnType<typeof opts>) => {
      const { data, info } = await fitToFormat(rgb, { width: 900, height: 2 }, f, o);
      const i = (Math.floor(info.height / 2) * info.width + Math.floor(info.width / 2)) * info.channels;
      return [data[i], data[i + 1], data[i + 2]];
    };
    expect(await centre(opts('smart', { x: 0, y: 0.5 }))).toEqual([0, 0, 255]);
    expect(await centre(opts('smart', { x: 1, y: 0.5 }))).toEqual([255, 0, 0]);
    expect(await centre(opts('center'))).toEqual([0, 255, 0]);
    // Downscaling (x0.64 to 320x320) keeps the one-pass pipeline: resize, then the focal crop of the scaled image.
    const wide = await stripes(1000, 500, ['#0000ff', '#00ff00', '#ff0000']);
    const small = findFormat('photonet', 'profile_photo')!;
    for (const [x, rgbAt] of [
      [0, [0, 0, 255]],
      [1, [255, 0, 0]],
    ] as const) {
      const { data, info } = await fitToFormat(wide, { width: 1000, height: 500 }, small, opts('smart', { x, y: 0.5 }));
      const i = (160 * info.width + 160) * info.channels;
      expect([x, info.width, info.height, data[i], data[i + 1], data[i + 2]]).toEqual([x, 320, 320, ...rgbAt]);
    }
  });
  test('smart without a focal point: attention finds the subject of an elongated input, at any analysis scale', async () => {
    // Flat grey with a saturated, high-contrast patch near the right end.
    const strip = (w: number, h: number, from: number, to: number) => {
      const data = Buffer.alloc(w * h * 3, 128);
      for (let y = 0; y < h; y++)
        for (let x = from; x < to; x++) {
          const i = (y * w + x) * 3;
          data[i] = 255;
          data[i + 1] = (x + y) % 2 ? 255 : 0;
          data[i + 2] = 0;
        }
      return sharp(data, { raw: { width: w, height: h, channels: 3 } })
        .png()
        .toBuffer();
    };
    const f = findFormat('photonet', 'profile_photo')!; // 320x320
    // 2000x20 (cover x16): analysed at source scale. 20000x400 (cover x0.8, 5 MP): too large to analyse whole
    // (attentionPixels, 4 MP here), analysed scaled down, offsets scaled back.
    for (const [w, h, from] of [
      [2000, 20, 1500],
      [20000, 400, 15000],
    ]) {
      const src = await strip(w, h, from, from + h);
      const { data, info } = await fitToFormat(src, { width: w, height: h }, f, {
        crop: 'smart',
        showSafeZones: false,
        limitInputPixels: 4e7,
      });
      expect([info.width, info.height]).toEqual([320, 320]);
      // libvips' attention centres on the patch's edge: a good part of the output is the patch, none of a centre crop.
      let patch = 0;
      for (let i = 0; i < data.length; i += info.channels) if (data[i] > 200 && data[i + 2] < 80) patch++;
      expect([w, patch / (320 * 320) > 0.25]).toEqual([w, true]);
    }
  });
  test('the OpenAI adapter decodes with a pixel limit (mask conversion and edit requests)', async () => {
    const img = await solid(100, 100);
    const mask = await solid(100, 100, '#ffffff');
    // White (change) becomes transparent, black (keep) opaque; the colour is the image's.
    const half = await stripes(100, 100, ['#ffffff', '#000000']);
    for (const m of [mask, half]) {
      const out = await sharp(await openAiMask(img, m))
        .raw()
        .toBuffer({ resolveWithObject: true });
      expect([out.info.width, out.info.height, out.info.channels]).toEqual([100, 100, 4]);
      expect([...out.data.subarray(0, 4)]).toEqual([0x33, 0x66, 0xcc, 0]);
      expect(out.data[(50 * 100 + 99) * 4 + 3]).toBe(m === mask ? 0 : 255);
    }
    await expect(openAiMask(img, mask, 5000)).rejects.toThrow(/pixel limit/);
    let called = false;
    const client = createOpenAiImagesClient({
      baseUrl: 'http://127.0.0.1:9',
      apiKey: 'k',
      timeoutMs: 1000,
      maxRetries: 0,
      limitInputPixels: 5000,
      fetch: (async () => {
        called = true;
        throw new Error('not reached');
      }) as unknown as typeof fetch,
    });
    await expect(
      client.process({ kind: 'edit', operation: 'general_edit', model: 'gpt-image-1', image: img, prompt: 'x' }),
    ).rejects.toThrow(/pixel limit/);
    expect(called).toBe(false);
  });
  test('encoding under a size limit lowers JPEG quality, quantises PNG, or gives up', async () => {
    const n = await sharp(await noise(300, 300))
      .raw()
      .toBuffer({ resolveWithObject: true });
    const j = await encodeUnder(n, 'jpg', 40_000);
    expect(j.bytes.length).toBeLessThanOrEqual(40_000);
    expect(j.quality).toBeLessThan(88);
    await expect(encodeUnder(n, 'jpg', 2_000)).rejects.toThrow(/cannot be encoded under/);
    const flat = await sharp(await solid(300, 300))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect((await encodeUnder(flat, 'png', 10_000)).quality).toBeUndefined();
  });
});
