/**
 * The medium blog start body: the spec's camelCase sections, or the sections exactly as the outline result
 * returns them (snake_case); one spelling per request; unknown fields refused by name, never silently dropped.
 */
import { compileRequest } from '../../../api/kernel/validation';
import { mediumStartBody } from '../../../api/blog/schemas';
import {
  mediumRequestedWords,
  mediumSectionBudgets,
  normalizeMediumRequest,
  refuseCamelSpelling,
} from '../../../domain/blog/types';
import type { MediumRequestWire } from '../../../domain/blog/types';
import { ValidationError } from '../../../domain/errors';

const validate = compileRequest({ body: mediumStartBody });
const source = {
  title: 'Content calendars',
  url: 'http://127.0.0.1:8000/api/research/corpus/content-calendar',
  excerpt: 'A calendar keeps publishing steady.',
  credibility_score: null,
  published_at: '2024-03-01',
  index: 1,
  source_type: 'sample',
  sample_of: 'industry',
};
// An outline section as GET /api/blog/outline/status/{id} answers it.
const outlined = {
  id: 's2',
  heading: 'Choosing a cadence',
  subheadings: ['Capacity'],
  key_points: ['Match the cadence to your capacity', 'Review it every quarter'],
  keywords: ['content calendar'],
  target_words: 250,
  references: [source],
};

const issues = (body: unknown) => {
  try {
    normalizeMediumRequest(validate({ body, query: {}, params: {} }).body as MediumRequestWire);
    return [];
  } catch (e) {
    expect(e).toBeInstanceOf(ValidationError);
    return (e as ValidationError).issues;
  }
};
const prepared = (body: unknown) =>
  normalizeMediumRequest(validate({ body, query: {}, params: {} }).body as MediumRequestWire);

describe('medium start body', () => {
  test("the outline's sections as returned: key points, word targets and references are read", () => {
    const r = prepared({ title: 'Calendars', sections: [outlined, { ...outlined, id: 's3', target_words: 150 }] });
    expect(r.sections[0]).toEqual({
      id: 's2',
      heading: 'Choosing a cadence',
      subheadings: ['Capacity'],
      keyPoints: ['Match the cadence to your capacity', 'Review it every quarter'],
      keywords: ['content calendar'],
      targetWords: 250,
      references: [source],
    });
    expect(mediumRequestedWords(r)).toBe(400);
    expect(mediumSectionBudgets({ ...r, globalTargetWords: 800 })).toEqual([500, 300]);
  });

  test("the spec's camelCase keeps working, unchanged", () => {
    const body = {
      title: 'T',
      globalTargetWords: 400,
      researchKeywords: ['seo'],
      sections: [{ id: 'a', heading: 'A', keyPoints: ['reach'], targetWords: 200, references: [source] }],
    };
    expect(prepared(body)).toEqual(body);
  });

  test('annotations of enhance-section and rebalance answers are accepted and not passed on', () => {
    const r = prepared({
      title: 'T',
      sections: [
        { ...outlined, enhancement_focus: 'examples', improvements_made: ['Added an example'], word_adjustment: -50 },
      ],
    });
    expect(Object.keys(r.sections[0]).sort()).toEqual([
      'heading',
      'id',
      'keyPoints',
      'keywords',
      'references',
      'subheadings',
      'targetWords',
    ]);
  });

  test('a body mixing the spellings is refused naming the field, within a section or across sections', () => {
    expect(issues({ title: 'T', sections: [{ id: 'a', heading: 'A', keyPoints: ['x'], target_words: 100 }] })).toEqual([
      expect.objectContaining({
        path: 'sections.0.target_words',
        message: expect.stringMatching(/use one spelling in a request/),
      }),
    ]);
    expect(
      issues({ title: 'T', sections: [{ id: 'a', heading: 'A', targetWords: 100 }, outlined] }).map((i) => i.path),
    ).toEqual(['sections.1.key_points']);
    expect(issues({ title: 'T', sections: [{ ...outlined, keyPoints: ['y'] }] }).map((i) => i.path)).toEqual([
      'sections.0.key_points',
    ]);
  });

  test('unknown fields are refused by name, in a section and at the top', () => {
    const found = issues({
      title: 'T',
      global_target_words: 500,
      sections: [{ id: 'a', heading: 'A', keypoints: ['lost?'], targetwords: 90 }],
    });
    expect(found.map((i) => i.path).sort()).toEqual([
      'global_target_words',
      'sections.0.keypoints',
      'sections.0.targetwords',
    ]);
    expect(found.find((i) => i.path === 'sections.0.keypoints')!.message).toBe(
      'sections.0.keypoints is not a field of sections.0: unknown fields are refused, not ignored',
    );
  });

  test('the outline bounds hold for both spellings', () => {
    expect(issues({ title: 'T', sections: [{ ...outlined, target_words: 5 }] }).map((i) => i.path)).toEqual([
      'sections.0.target_words',
    ]);
    expect(issues({ title: 'T', sections: [{ id: 'a', heading: 'A', key_points: ['x'.repeat(501)] }] })[0].path).toBe(
      'sections.0.key_points.0',
    );
  });
});

describe('outline-section routes', () => {
  test('the outline spelling passes; the medium spelling is refused by name, not ignored', () => {
    expect(() => refuseCamelSpelling([outlined], () => 'section')).not.toThrow();
    let err: ValidationError | undefined;
    try {
      refuseCamelSpelling(
        [outlined, { id: 'b', heading: 'B', keyPoints: ['x'], targetWords: 90 }],
        (i) => `outline.${i}`,
      );
    } catch (e) {
      err = e as ValidationError;
    }
    expect(err?.issues.map((i) => [i.path, i.message])).toEqual([
      [
        'outline.1.keyPoints',
        "outline.1.keyPoints is the medium route's spelling: an outline section spells it key_points",
      ],
      [
        'outline.1.targetWords',
        "outline.1.targetWords is the medium route's spelling: an outline section spells it target_words",
      ],
    ]);
  });
});
