/** The kernel's schema builders (api/kernel/schema.ts): `nullable` admits null and keeps everything else. */
import { compileRequest } from '../../../api/kernel/validation';
import { int, nullable, str, uuid } from '../../../api/kernel/schema';
import { ValidationError } from '../../../domain/errors';

const accepts = (schema: Record<string, unknown>, value: unknown) => {
  const validate = compileRequest({ body: { type: 'object', properties: { v: schema } } });
  try {
    validate({ body: { v: value }, query: {}, params: {} });
    return true;
  } catch (e) {
    expect(e).toBeInstanceOf(ValidationError);
    return false;
  }
};

describe('nullable', () => {
  it('adds null to the type and keeps the bounds', () => {
    expect(nullable(int)).toEqual({ type: ['integer', 'null'] });
    expect(nullable(str(5, { minLength: 2 }))).toEqual({ type: ['string', 'null'], maxLength: 5, minLength: 2 });
    expect(nullable(uuid)).toEqual({ ...uuid, type: ['string', 'null'] });
    const s = nullable(str(5, { minLength: 2 }));
    expect(accepts(s, null)).toBe(true);
    expect(accepts(s, 'abc')).toBe(true);
    expect(accepts(s, 'abcdef')).toBe(false);
    expect(accepts(s, 'a')).toBe(false);
    expect(accepts(s, 3)).toBe(false);
  });

  it('is idempotent, adds null to an enum, and refuses a schema without a type', () => {
    expect(nullable(nullable(int))).toEqual({ type: ['integer', 'null'] });
    const e = nullable({ type: 'string', enum: ['a', 'b'] });
    expect(e).toEqual({ type: ['string', 'null'], enum: ['a', 'b', null] });
    expect(accepts(e, null)).toBe(true);
    expect(accepts(e, 'c')).toBe(false);
    expect(() => nullable({ enum: ['a'] })).toThrow(/no type/);
  });
});
