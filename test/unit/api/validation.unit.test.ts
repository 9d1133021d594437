/** Request validation refuses text the platform cannot store, wherever it is, naming the field. */
import { compileRequest } from '../../../api/kernel/validation';
import { ValidationError } from '../../../domain/errors';

const validate = compileRequest({
  body: {
    type: 'object',
    properties: {
      title: { type: 'string' },
      sections: { type: 'array', items: { type: 'object', properties: { heading: { type: 'string' } } } },
    },
  },
  query: { type: 'object', properties: { q: { type: 'string' } } },
  params: { type: 'object', properties: { id: { type: 'string' } } },
});

const issuesOf = (raw: { body?: unknown; query?: unknown; params?: unknown }) => {
  try {
    validate({ body: raw.body ?? {}, query: raw.query ?? {}, params: raw.params ?? {} });
    return [];
  } catch (e) {
    expect(e).toBeInstanceOf(ValidationError);
    return (e as ValidationError).issues;
  }
};

describe('unstorable text at the edge', () => {
  it('refuses a NUL character in a nested body field, naming its path', () => {
    expect(issuesOf({ body: { sections: [{ heading: 'ok' }, { heading: 'bad\u0000' }] } })).toEqual([
      expect.objectContaining({
        location: 'body',
        path: 'sections.1.heading',
        kind: 'constraint',
        message: expect.stringContaining('NUL character'),
      }),
    ]);
  });

  it('refuses unpaired surrogates in query and path values, and in object keys', () => {
    expect(issuesOf({ query: { q: 'x\ud800' } })).toEqual([
      expect.objectContaining({ location: 'query', path: 'q', message: expect.stringContaining('unpaired surrogate') }),
    ]);
    expect(issuesOf({ params: { id: '\udc00' } })[0]).toMatchObject({ location: 'path', path: 'id' });
    expect(issuesOf({ body: { ['k\u0000']: 1 } })[0]).toMatchObject({ location: 'body', path: 'k\u0000' });
  });

  it('accepts well-formed text, emoji (a valid surrogate pair) included', () => {
    expect(
      issuesOf({ body: { title: 'Growth 🚀 tips', sections: [{ heading: 'ümlaut ✓' }] }, query: { q: '日本' } }),
    ).toEqual([]);
  });
});
