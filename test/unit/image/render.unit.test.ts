import sharp from 'sharp';
import { hash32, overlayText, renderSvg, wrap } from '../../../domain/image/procedural';
import { cleanEnhanced, enrichPrompt } from '../../../domain/image/enrich';
import { signRequest } from '../../../infra/image/storage/sigv4';
import { encodeUnder, fitToFormat, focalBox, renderSvgToPng, safeZoneSvg } from '../../../infra/image/raster';
import { base64Bytes, inspectImage } from '../../../infra/image/decode';
import { findFormat } from '../../../domain/image/formats';
import { noise, pngHeaderClaiming, solid } from '../../support/images';

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
  test('fit to a format: exact size for every crop mode; focal box stays inside', async () => {
    const src = await solid(1000, 500);
    const f = findFormat('photonet', 'story')!;
    for (const crop of ['smart', 'center', 'fit'] as const) {
      const raw = await fitToFormat(src, { width: 1000, height: 500 }, f, {
        crop,
        showSafeZones: crop === 'fit',
        limitInputPixels: 4e7,
      });
      expect([raw.info.width, raw.info.height]).toEqual([1080, 1920]);
    }
    const focal = await fitToFormat(src, { width: 1000, height: 500 }, f, {
      crop: 'smart',
      focal: { x: 1, y: 0 },
      showSafeZones: false,
      limitInputPixels: 4e7,
    });
    expect([focal.info.width, focal.info.height]).toEqual([1080, 1920]);
    expect(focalBox(1000, 500, 1080, 1920, { x: 1, y: 0 })).toEqual({
      scaledW: 3840,
      scaledH: 1920,
      left: 2760,
      top: 0,
    });
    expect(safeZoneSvg(100, 200, { top: 0.1, bottom: 0.2, left: 0, right: 0 })).toContain(
      '<rect x="0" y="160" width="100" height="40"/>',
    );
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
