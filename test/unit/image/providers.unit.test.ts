import {
  capabilities,
  chooseGenerationProvider,
  chooseModel,
  chooseOperationProvider,
  chooseUpscaleProvider,
  costRange,
  creditsPerImage,
  ProviderChoiceError,
} from '../../../domain/image/providers';
import { DimensionError, nearestRatio, parseAspectRatio, resolveDimensions } from '../../../domain/image/dimensions';

const none = { vendor_a: false, vendor_c: false, vendor_d: false, vendor_e: false };
const only = (v: keyof typeof none) => ({ ...none, [v]: true });

describe('provider choice', () => {
  test('generation: explicit must be configured; auto prefers the template recommendation, else vendor order, else local', () => {
    expect(() => chooseGenerationProvider('vendor_d', none)).toThrow(
      /vendor_d is not configured: set IMAGE_VENDOR_D_API_KEY/,
    );
    expect(chooseGenerationProvider('auto', none)).toBe('local');
    expect(chooseGenerationProvider(undefined, { ...none, vendor_e: true, vendor_a: true })).toBe('vendor_e');
    expect(chooseGenerationProvider('auto', { ...none, vendor_e: true, vendor_a: true }, 'vendor_a')).toBe('vendor_a');
    expect(chooseGenerationProvider('auto', only('vendor_e'), 'vendor_c')).toBe('vendor_e');
    expect(chooseGenerationProvider('local', only('vendor_c'))).toBe('local');
    expect(chooseModel('vendor_c', undefined, 'sd3.5-large')).toBe('sd3.5-large');
    expect(() => chooseModel('local', 'dall-e-3')).toThrow(ProviderChoiceError);
  });
  test('operations: a configured vendor first, else local when the platform can, else an error naming who can', () => {
    expect(chooseOperationProvider('edit', 'remove_background', 'auto', none)).toEqual({
      provider: 'local',
      model: 'flood-fill-v1',
    });
    expect(chooseOperationProvider('edit', 'remove_background', 'auto', only('vendor_c'))).toEqual({
      provider: 'vendor_c',
      model: 'remove-background',
    });
    expect(chooseOperationProvider('edit', 'inpaint', 'auto', only('vendor_a'))).toEqual({
      provider: 'vendor_a',
      model: 'gpt-image-1',
    });
    expect(() => chooseOperationProvider('edit', 'inpaint', 'auto', none)).toThrow(
      /no configured provider can do inpaint; providers that can: vendor_c \(set IMAGE_VENDOR_C_API_KEY\), vendor_d .*vendor_a/,
    );
    expect(() => chooseOperationProvider('edit', 'search_replace', 'vendor_a', only('vendor_a'))).toThrow(
      /vendor_a cannot do search_replace; providers that can: vendor_c/,
    );
    expect(() => chooseOperationProvider('control', 'sketch', 'vendor_d', none)).toThrow(/vendor_d is not configured/);
    expect(chooseOperationProvider('edit', 'outpaint', 'local', only('vendor_c')).provider).toBe('local');
  });
  test('upscale: fast and conservative are local; creative needs vendor_c or vendor_e', () => {
    expect(chooseUpscaleProvider('fast', only('vendor_c'))).toEqual({ provider: 'local', model: 'lanczos3' });
    expect(chooseUpscaleProvider('creative', only('vendor_e'))).toEqual({
      provider: 'vendor_e',
      model: 'recraft-ai/recraft-creative-upscale',
    });
    expect(() => chooseUpscaleProvider('creative', only('vendor_a'))).toThrow(/creative upscaling needs a vendor/);
  });
  test('capabilities, credit prices and ranges come from the operation and pricing tables', () => {
    expect(capabilities('vendor_a')).toEqual(['generation', 'editing']);
    expect(capabilities('local')).toEqual(['generation', 'editing', 'upscaling']);
    expect(creditsPerImage('vendor_c', 'stable-image-ultra', 'generate')).toBe(8);
    expect(creditsPerImage('vendor_e', 'black-forest-labs/flux-schnell', 'generate')).toBe(0.3);
    expect(creditsPerImage('local', 'local-procedural-v1', 'generate')).toBe(0);
    expect(costRange('vendor_d')).toBe('2.5-6 credits per image');
  });
});

describe('dimensions', () => {
  const lim = { maxWidth: 1536, maxHeight: 1536, multiple: 1 };
  test('aspect ratio text', () => {
    expect(parseAspectRatio('16:9')).toBeCloseTo(16 / 9);
    expect(parseAspectRatio('1.91:1')).toBeCloseTo(1.91);
    for (const bad of ['16x9', '0:1', '11:1', ':3']) expect(() => parseAspectRatio(bad)).toThrow(DimensionError);
  });
  test('explicit sizes, one side with a ratio, the quality long edge, template size, scaled into the box', () => {
    expect(resolveDimensions({ width: 800, height: 600, quality: 'standard' }, lim)).toEqual({
      width: 800,
      height: 600,
    });
    expect(resolveDimensions({ width: 1200, aspect_ratio: '3:2', quality: 'standard' }, lim)).toEqual({
      width: 1200,
      height: 800,
    });
    expect(resolveDimensions({ aspect_ratio: '9:16', quality: 'premium' }, lim)).toEqual({ width: 864, height: 1536 });
    expect(resolveDimensions({ quality: 'draft', template: { width: 1200, height: 627 } }, lim)).toEqual({
      width: 1200,
      height: 627,
    });
    expect(resolveDimensions({ width: 3000, height: 1500, quality: 'standard' }, lim)).toEqual({
      width: 1536,
      height: 768,
    });
    expect(resolveDimensions({ quality: 'draft' }, { maxWidth: 4096, maxHeight: 4096, multiple: 32 })).toEqual({
      width: 768,
      height: 768,
    });
    expect(() =>
      resolveDimensions({ width: 1000, height: 1000, aspect_ratio: '16:9', quality: 'standard' }, lim),
    ).toThrow(/contradicts/);
  });
  test('nearest supported ratio', () => {
    expect(nearestRatio(1200, 675, ['1:1', '16:9', '21:9'])).toBe('16:9');
    expect(nearestRatio(1080, 1350, ['1:1', '4:5', '9:16'])).toBe('4:5');
  });
});
