import { findFormat, PLATFORM_FORMATS, PLATFORMS, platformSpecs } from '../../../domain/image/formats';
import {
  listTemplates,
  recommendTemplates,
  relevance,
  searchTemplates,
  TEMPLATES,
} from '../../../domain/image/templates';
import { CONTROL_SPECS, EDIT_SPECS, missingInputs } from '../../../domain/image/operations';

describe('platform formats', () => {
  test('every platform has formats; each ratio matches its pixels (2 %), safe zones are fractions leaving a middle', () => {
    for (const p of PLATFORMS) {
      expect(PLATFORM_FORMATS[p].length).toBeGreaterThan(3);
      for (const f of PLATFORM_FORMATS[p]) {
        const [a, b] = f.ratio.split(':').map(Number);
        expect([p, f.name, Math.abs(f.width / f.height - a / b) / (a / b) < 0.02]).toEqual([p, f.name, true]);
        const z = f.safe_zone;
        for (const v of [z.top, z.bottom, z.left, z.right]) expect(v >= 0 && v < 0.5).toBe(true);
        expect(z.top + z.bottom).toBeLessThan(1);
        expect(z.left + z.right).toBeLessThan(1);
        expect(f.max_size_mb).toBeGreaterThan(0);
      }
      expect(new Set(PLATFORM_FORMATS[p].map((f) => f.name)).size).toBe(PLATFORM_FORMATS[p].length);
    }
  });
  test('specs list every format as WxH; the size limit names the exception', () => {
    expect(platformSpecs('microblog')).toEqual({
      name: 'microblog',
      formats: expect.arrayContaining([{ name: 'header', ratio: '3:1', size: '1500x500' }]),
      file_types: ['jpg', 'png', 'gif', 'webp'],
      max_file_size: '5MB (2MB for some formats)',
    });
    expect(platformSpecs('adnet_ads').max_file_size).toBe('5MB (150KB for some formats)');
    expect(findFormat('videonet', 'thumbnail')).toMatchObject({ width: 1280, height: 720, max_size_mb: 2 });
    expect(findFormat('videonet', 'nope')).toBeUndefined();
  });
});

describe('templates', () => {
  test('ids are unique and every template is complete', () => {
    expect(new Set(TEMPLATES.map((t) => t.id)).size).toBe(TEMPLATES.length);
    for (const t of TEMPLATES) {
      expect(t.use_cases.length).toBeGreaterThan(0);
      expect(t.aspect_ratio.width).toBeGreaterThan(0);
    }
  });
  test('filters: platform (any-platform templates included) and category', () => {
    const ids = listTemplates({ platform: 'videonet' }).map((t) => t.id);
    expect(ids).toEqual(
      expect.arrayContaining(['videonet_thumbnail', 'videonet_channel_banner', 'blog_featured_image']),
    );
    expect(ids).not.toContain('profnet_banner');
    expect(listTemplates({ category: 'QUOTE' }).every((t) => t.category === 'quote')).toBe(true);
  });
  test('search ranks name matches over use cases over descriptions; unrelated queries find nothing', () => {
    expect(searchTemplates('thumbnail')[0].id).toBe('videonet_thumbnail');
    const quote = searchTemplates('quote card');
    expect(quote[0].id).toBe('profnet_quote_card');
    expect(
      relevance(
        TEMPLATES.find((t) => t.id === 'profnet_quote_card')!,
        'quote card',
      ),
    ).toBeGreaterThan(
      relevance(
        TEMPLATES.find((t) => t.id === 'photonet_quote_square')!,
        'quote card',
      ),
    );
    expect(searchTemplates('zzzz qqqq')).toEqual([]);
  });
  test('recommend: by use case, restricted to the platform and any, platform templates first', () => {
    const r = recommendTemplates('product launch', 'socialnet');
    expect(r[0].id).toBe('socialnet_feed_square');
    expect(r.every((t) => t.platform === 'socialnet' || t.platform === 'any')).toBe(true);
    expect(recommendTemplates('placeholder')[0].id).toBe('placeholder_card');
  });
});

describe('operation table', () => {
  test('required inputs are named by their request field', () => {
    expect(missingInputs('inpaint', EDIT_SPECS.inpaint, {})).toEqual([
      ['prompt', 'prompt is required for inpaint'],
      ['mask_base64', 'mask_base64 is required for inpaint'],
    ]);
    expect(missingInputs('inpaint', EDIT_SPECS.inpaint, { prompt: '  ', mask: true })).toHaveLength(1);
    expect(missingInputs('outpaint', EDIT_SPECS.outpaint, { expansion: 0 })[0][1]).toMatch(/expand_left/);
    expect(missingInputs('outpaint', EDIT_SPECS.outpaint, { expansion: 10 })).toEqual([]);
    expect(missingInputs('search_recolor', EDIT_SPECS.search_recolor, { prompt: 'red' })).toEqual([
      ['select_prompt', 'select_prompt is required for search_recolor'],
    ]);
    expect(
      missingInputs('replace_background_and_relight', EDIT_SPECS.replace_background_and_relight, {
        background_image: true,
      }),
    ).toEqual([]);
    expect(missingInputs('style_transfer', CONTROL_SPECS.style_transfer, { prompt: 'x' })[0][0]).toBe(
      'style_image_base64',
    );
  });
  test('the local provider does exactly the operations the platform implements', () => {
    const local = Object.entries(EDIT_SPECS)
      .filter(([, s]) => s.providers.local)
      .map(([n]) => n);
    expect(local).toEqual(['remove_background', 'outpaint']);
    expect(Object.values(CONTROL_SPECS).some((s) => s.providers.local)).toBe(false);
  });
});
