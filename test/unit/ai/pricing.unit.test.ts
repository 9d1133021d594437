import {
  cost,
  imagePriceOf,
  priceOf,
  pricingTable,
  requestCost,
  PricingError,
  LOCAL_MODEL,
  PRICING,
} from '../../../domain/pricing';

describe('pricing table', () => {
  test('token-priced entries for vendor_a, vendor_b and local; request-priced for web search; image rows per model and operation', () => {
    const table = pricingTable();
    for (const p of ['vendor_a', 'vendor_b', 'local']) {
      const rows = table.filter((e) => e.provider === p && !('operation' in e));
      expect(rows.length).toBeGreaterThan(0);
      for (const r of rows)
        expect(r).toEqual({
          provider: p,
          model: expect.any(String),
          input_cost_per_1m: expect.any(Number),
          output_cost_per_1m: expect.any(Number),
        });
    }
    expect(table.filter((e) => e.provider === 'web_search')).toEqual([
      { provider: 'web_search', cost_per_request: expect.any(Number) },
    ]);
    for (const p of ['vendor_c', 'vendor_d', 'vendor_e', 'vendor_a']) {
      const rows = table.filter((e) => e.provider === p && 'operation' in e);
      expect(rows.length).toBeGreaterThan(0);
      for (const r of rows)
        expect(r).toEqual({
          provider: p,
          model: expect.any(String),
          operation: expect.stringMatching(/^(generate|edit|upscale|control)$/),
          cost_per_request: expect.any(Number),
        });
      // every operation a vendor has rows for has a `*` row, so a configured model is never unpriced
      const ops = new Set(rows.map((r) => (r as { operation: string }).operation));
      for (const op of ops)
        expect(
          rows.some((r) => (r as { model: string }).model === '*' && (r as { operation: string }).operation === op),
        ).toBe(true);
    }
    expect(
      table
        .filter((e) => e.provider === 'local')
        .every((e) => 'input_cost_per_1m' in e && e.input_cost_per_1m === 0 && e.output_cost_per_1m === 0),
    ).toBe(true);
  });

  test('the served table is a copy', () => {
    const t = pricingTable();
    (t[0] as { model: string }).model = 'changed';
    expect((PRICING[0] as { model: string }).model).not.toBe('changed');
  });

  test('cost = tokens x rate per million, input and output apart, rounded to micro-dollars', () => {
    expect(cost('vendor_a', 'gpt-4o-mini', 1_000_000, 0)).toBe(0.15);
    expect(cost('vendor_a', 'gpt-4o-mini', 0, 1_000_000)).toBe(0.6);
    expect(cost('vendor_a', 'gpt-4o', 1200, 800)).toBeCloseTo(0.003 + 0.008, 9);
    expect(cost('vendor_b', 'gemini-2.0-flash', 10_000, 2_000)).toBeCloseTo(0.0018, 9);
    expect(cost('vendor_a', 'gpt-4o-mini', 1, 1)).toBe(0.000001); // 0.00000075 rounds up to one micro-dollar
    expect(cost('local', LOCAL_MODEL, 123456, 654321)).toBe(0);
  });

  test('dated snapshots price as their family; unknown models as the vendor slot default', () => {
    expect(priceOf('vendor_a', 'gpt-4o-mini-2024-07-18')).toMatchObject({ model: 'gpt-4o-mini' });
    expect(priceOf('vendor_a', 'gpt-4o-2024-08-06')).toMatchObject({ model: 'gpt-4o' });
    expect(priceOf('vendor_a', 'llama3.1:8b')).toMatchObject({ model: '*' });
    expect(cost('vendor_b', 'some-new-model', 1_000_000, 0)).toBe(0.1);
  });

  test('request-priced providers ignore tokens; unknown providers throw instead of costing zero', () => {
    expect(cost('web_search', undefined, 999, 999)).toBe(0.008);
    expect(requestCost('web_search', 3)).toBeCloseTo(0.024, 9);
    expect(requestCost('web_search')).toBe(0.008);
    // image vendors are priced per model and operation only (imagePriceOf), never as a text call
    expect(() => cost('vendor_c', undefined, 1, 1)).toThrow(PricingError);
    expect(imagePriceOf('vendor_c', 'stable-image-core', 'generate').cost_per_request).toBe(0.03);
    expect(imagePriceOf('vendor_c', 'some-new-model', 'generate')).toMatchObject({ model: '*' });
    expect(imagePriceOf('vendor_a', 'gpt-image-1', 'edit').cost_per_request).toBe(0.042);
    expect(() => imagePriceOf('vendor_a', 'gpt-image-1', 'upscale')).toThrow(PricingError);
    // the text price of vendor_a is untouched by its image rows
    expect(priceOf('vendor_a', 'gpt-4o')).toMatchObject({ input_cost_per_1m: 2.5 });
    expect(() => cost('vendor_z', 'x', 1, 1)).toThrow(PricingError);
  });
});
