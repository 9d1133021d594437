import { cost, priceOf, pricingTable, requestCost, PricingError, LOCAL_MODEL, PRICING } from '../../../domain/pricing';

describe('pricing table', () => {
  test('token-priced entries for vendor_a, vendor_b and local; request-priced for image vendors and web search', () => {
    const table = pricingTable();
    for (const p of ['vendor_a', 'vendor_b', 'local']) {
      const rows = table.filter((e) => e.provider === p);
      expect(rows.length).toBeGreaterThan(0);
      for (const r of rows)
        expect(r).toEqual({
          provider: p,
          model: expect.any(String),
          input_cost_per_1m: expect.any(Number),
          output_cost_per_1m: expect.any(Number),
        });
    }
    for (const p of ['vendor_c', 'vendor_d', 'vendor_e', 'web_search']) {
      expect(table.filter((e) => e.provider === p)).toEqual([{ provider: p, cost_per_request: expect.any(Number) }]);
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
    expect(cost('vendor_c', undefined, 999, 999)).toBe(0.04);
    expect(requestCost('vendor_d', 3)).toBeCloseTo(0.09, 9);
    expect(requestCost('web_search')).toBe(0.008);
    expect(() => cost('vendor_z', 'x', 1, 1)).toThrow(PricingError);
  });
});
