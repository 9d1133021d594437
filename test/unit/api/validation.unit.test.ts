/** Request validation refuses text the platform cannot store, wherever it is, naming the field. */
import { compileRequest } from '../../../api/kernel/validation';
import { PLATFORM_ROUTES } from '../../../api/routes';
import { ValidationError } from '../../../domain/errors';
import { DURATION_PATTERN, parseDuration } from '../../../domain/writers/durations';

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

describe('dates and times name an instant the platform can hold', () => {
  const dated = compileRequest({
    body: { type: 'object', properties: { at: { type: 'string', format: 'date-time' } } },
    query: { type: 'object', properties: { day: { type: 'string', format: 'date' } } },
  });
  const problem = (body: unknown, query: unknown = {}) => {
    try {
      dated({ body, query, params: {} });
      return undefined;
    } catch (e) {
      return (e as ValidationError).issues.map((i) => i.path).join(',');
    }
  };

  it('accepts RFC 3339 times with any offset, years 0001-9999 in UTC', () => {
    expect(problem({ at: '2026-11-23T10:00:00Z' })).toBeUndefined();
    expect(problem({ at: '0037-04-26T10:34:27.1334-21:36' })).toBeUndefined(); // an offset PostgreSQL would refuse as written
    expect(problem({ at: '9999-12-31T23:59:59.999Z' })).toBeUndefined();
    expect(problem({}, { day: '0001-01-01' })).toBeUndefined();
  });

  it('refuses year 0, years that leave 0001-9999 once read as UTC, and leap seconds', () => {
    expect(problem({ at: '0000-06-01T00:00:00Z' })).toBe('at');
    expect(problem({ at: '0001-01-01T00:00:00+01:00' })).toBe('at'); // 31 December of 1 BC in UTC
    expect(problem({ at: '9999-12-31T23:00:00-02:00' })).toBe('at');
    expect(problem({ at: '2016-12-31T23:59:60Z' })).toBe('at');
    expect(problem({}, { day: '0000-01-01' })).toBe('day');
    expect(problem({ at: 'yesterday' })).toBe('at');
  });
});

describe('a field of alternative forms', () => {
  const forms = compileRequest({
    body: {
      type: 'object',
      properties: {
        duration: {
          oneOf: [
            { type: 'string', pattern: DURATION_PATTERN },
            { type: 'integer', minimum: 1, maximum: 9999 },
          ],
          description: 'Seconds as <n>_seconds, a number, or "30", "30s", "30 seconds"',
        },
      },
    },
  });
  const check = (duration: unknown) => {
    try {
      forms({ body: { duration }, query: {}, params: {} });
      return 'ok';
    } catch (e) {
      return (e as ValidationError).issues[0].message;
    }
  };
  it('takes each form, and the seconds are read the same from all of them', () => {
    for (const d of ['30_seconds', 30, '30', '30s', '30 sec', '30 seconds']) {
      expect([d, check(d)]).toEqual([d, 'ok']);
      expect(parseDuration(d as string | number)).toBe(30);
    }
  });
  it('a value of none of the forms is told the forms, not one branch’s complaint ("must be integer")', () => {
    for (const d of ['one minute', '30 minutes', 0, 30.5])
      expect(check(d)).toBe(
        'duration fits none of its accepted forms: Seconds as <n>_seconds, a number, or "30", "30s", "30 seconds"',
      );
  });
});

describe("every route's request schemas", () => {
  // Routes compile their validators on first use (api/kernel/validation.ts); here all of them compile, so a schema
  // ajv refuses fails the suite instead of a client's first request.
  it('compile with the validators the API uses', () => {
    const refused: string[] = [];
    for (const route of PLATFORM_ROUTES) {
      try {
        compileRequest(route.request, { eager: true });
      } catch (err) {
        refused.push(`${route.method.toUpperCase()} ${route.path}: ${(err as Error).message}`);
      }
    }
    expect(PLATFORM_ROUTES.length).toBeGreaterThan(200);
    expect(refused).toEqual([]);
  });

  it('a schema ajv refuses is found by an eager compile, and by the first request of a lazy one', () => {
    const bad = { body: { type: 'object', properties: { n: { type: 'integer', minimum: 'one' } } } };
    expect(() => compileRequest(bad, { eager: true })).toThrow();
    const lazy = compileRequest(bad);
    expect(() => lazy({ body: { n: 1 }, query: {}, params: {} })).toThrow();
  });
});
