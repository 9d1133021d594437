/**
 * fast-check arbitraries from the JSON Schemas the API validates with (the
 * subset the writers use: objects, arrays, strings with length, pattern and
 * format, numbers, booleans, enums), for property tests that feed the code
 * anything a client could send. Strings mix random Unicode with the awkward
 * cases (blank, punctuation only, emoji, hashtags).
 */
import fc from 'fast-check';

type Schema = Record<string, unknown>;

const AWKWARD = ['   ', '...', '!?', '🚀🚀🚀', '#tag #Other', 'a', 'Ünïcödé — “quotes”', 'x'.repeat(40)];

function stringArb(s: Schema): fc.Arbitrary<string> {
  const min = (s.minLength as number | undefined) ?? 0;
  const max = Math.min((s.maxLength as number | undefined) ?? 60, 120);
  if (s.format === 'date-time')
    return fc
      .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
      .map((d) => d.toISOString());
  if (s.format === 'uri') return fc.constantFrom('https://example.com/a', 'http://127.0.0.1:9/x?q=1');
  if (typeof s.pattern === 'string' && s.pattern.includes('_seconds'))
    return fc.integer({ min: 1, max: 9999 }).map((n) => `${n}_seconds`);
  if (typeof s.pattern === 'string' && s.pattern.includes(':')) return fc.constantFrom('1:1', '9:16', '16:9', '4:5');
  const words = fc
    .array(fc.stringMatching(/^[A-Za-z]{1,10}$/), { minLength: 1, maxLength: 12 })
    .map((w) => `${w.join(' ')}.`);
  return fc
    .oneof(fc.string({ unit: 'grapheme', minLength: min, maxLength: max }), fc.constantFrom(...AWKWARD), words)
    .filter((x) => [...x].length >= min && x.length <= ((s.maxLength as number | undefined) ?? 10000));
}

export function arbitraryOf(schema: Schema): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const type = Array.isArray(schema.type) ? (schema.type[0] as string) : (schema.type as string | undefined);
  switch (type) {
    case 'string':
      return stringArb(schema);
    case 'integer':
      return fc.integer({ min: (schema.minimum as number) ?? -1000, max: (schema.maximum as number) ?? 1000 });
    case 'number':
      return fc.double({
        min: (schema.minimum as number) ?? -1000,
        max: (schema.maximum as number) ?? 1000,
        noNaN: true,
      });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(arbitraryOf((schema.items as Schema) ?? { type: 'string' }), {
        minLength: (schema.minItems as number) ?? 0,
        maxLength: Math.min((schema.maxItems as number) ?? 6, 6),
      });
    case 'object': {
      const props = (schema.properties as Record<string, Schema>) ?? {};
      const record = fc.record(Object.fromEntries(Object.entries(props).map(([k, v]) => [k, arbitraryOf(v)])), {
        requiredKeys: (schema.required as string[]) ?? [],
      });
      const extra = schema.additionalProperties as Schema | undefined;
      if (extra && typeof extra === 'object')
        return fc
          .tuple(record, fc.dictionary(fc.stringMatching(/^[a-z]{1,8}$/), arbitraryOf(extra), { maxKeys: 3 }))
          .map(([a, b]) => ({ ...b, ...a }));
      return record;
    }
    default:
      return fc.constant(null);
  }
}
