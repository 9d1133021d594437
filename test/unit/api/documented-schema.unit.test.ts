/**
 * The OpenAPI document shows a kind-dependent body (ajv: allOf of if/then) as oneOf of its kinds; both forms must
 * accept and refuse the same bodies.
 */
import Ajv from 'ajv';
import { documentedSchema } from '../../../api/kernel/openapi';

const validated = {
  type: 'object',
  properties: { type: { enum: ['post', 'story'] } },
  required: ['type'],
  allOf: [
    {
      if: { properties: { type: { const: 'post' } } },
      then: { type: 'object', properties: { topic: { type: 'string', minLength: 1 } }, required: ['topic'] },
    },
    {
      if: { properties: { type: { const: 'story' } } },
      then: { type: 'object', properties: { frames: { type: 'integer', minimum: 1 } }, required: ['frames'] },
    },
  ],
};

describe('documentedSchema', () => {
  const shown = documentedSchema(validated) as Record<string, unknown>;

  it('turns allOf of if {type: const} then S into oneOf of S with the const, leaving the rest', () => {
    expect(shown.allOf).toBeUndefined();
    expect(shown.required).toEqual(['type']);
    expect(shown.oneOf).toEqual([
      {
        type: 'object',
        properties: { topic: { type: 'string', minLength: 1 }, type: { const: 'post' } },
        required: ['topic', 'type'],
      },
      {
        type: 'object',
        properties: { frames: { type: 'integer', minimum: 1 }, type: { const: 'story' } },
        required: ['frames', 'type'],
      },
    ]);
  });

  it('accepts and refuses the same bodies as the validated form', () => {
    const ajv = new Ajv({ strict: false });
    const a = ajv.compile(validated);
    const b = ajv.compile(shown);
    const bodies = [
      { type: 'post', topic: 'x' },
      { type: 'post', topic: '' },
      { type: 'post' },
      { type: 'story', frames: 3 },
      { type: 'story', frames: 0 },
      { type: 'story', topic: 'x' },
      { type: 'reel', topic: 'x' },
      {},
    ];
    expect(bodies.map((x) => b(x))).toEqual(bodies.map((x) => a(x)));
    expect(bodies.map((x) => a(x))).toEqual([true, false, false, true, false, false, false, false]);
  });

  it('leaves other schemas as they are', () => {
    const plain = { type: 'object', allOf: [{ required: ['a'] }], properties: { a: { type: 'string' } } };
    expect(documentedSchema(plain)).toEqual(plain);
  });
});
