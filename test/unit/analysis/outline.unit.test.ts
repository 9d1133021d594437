import { largestRemainder, rebalanceOutline, refineOutline, outlineQuality } from '../../../domain/analysis/outline';
import { AnalysisInputError } from '../../../domain/analysis/errors';
import { OutlineSection } from '../../../domain/analysis/types';

/** mulberry32-style 32-bit PRNG, seeded, so failures reproduce. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sec = (id: string, target_words?: number, extra: Partial<OutlineSection> = {}): OutlineSection => ({
  id,
  heading: `Heading ${id}`,
  ...(target_words !== undefined ? { target_words } : {}),
  ...extra,
});

describe('rebalance', () => {
  it('defaults to 1500 words split equally when no section has a target', () => {
    const r = rebalanceOutline([sec('a'), sec('b'), sec('c'), sec('d')]);
    expect(r.outline.map((s) => s.target_words)).toEqual([375, 375, 375, 375]);
    expect(r.rebalancing_summary).toMatchObject({
      total_target_words: 1500,
      original_total: 0,
      rebalanced_total: 1500,
    });
    expect(r.outline[0].word_adjustment).toBe(375);
  });

  it('keeps proportions and hands out the remainder to the largest fractions', () => {
    // weights 1:1:1 of 1000 -> 333.33 each; one extra word goes to the first (ties: earlier wins)
    expect(largestRemainder(1000, [1, 1, 1])).toEqual([334, 333, 333]);
    // weights 100:200:300 of 1000 -> 166.67, 333.33, 500 -> 167, 333, 500
    const r = rebalanceOutline([sec('a', 100), sec('b', 200), sec('c', 300)], 1000);
    expect(r.outline.map((s) => s.target_words)).toEqual([167, 333, 500]);
    expect(r.outline.map((s) => s.word_adjustment)).toEqual([67, 133, 200]);
    expect(r.rebalancing_summary.original_total).toBe(600);
    expect(r.rebalancing_summary.adjustments_made[0]).toEqual({
      section_id: 'a',
      heading: 'Heading a',
      original_target_words: 100,
      new_target_words: 167,
      word_adjustment: 67,
    });
  });

  it('sums exactly for 1,000 random outlines (property)', () => {
    const rnd = prng(20240501);
    for (let run = 0; run < 1000; run++) {
      const n = 1 + Math.floor(rnd() * 12);
      const outline = Array.from({ length: n }, (_, i) =>
        sec(`s${i}`, rnd() < 0.2 ? undefined : Math.floor(rnd() * 2000)),
      );
      const total = Math.floor(rnd() * 20000);
      const r = rebalanceOutline(outline, total);
      const got = r.outline.map((s) => s.target_words);
      expect(got.reduce((a, b) => a + b, 0)).toBe(total);
      expect(r.rebalancing_summary.rebalanced_total).toBe(total);
      expect(got.every((x) => Number.isInteger(x) && x >= 0)).toBe(true);
      r.outline.forEach((s, i) => expect(s.word_adjustment).toBe(s.target_words - (outline[i].target_words || 0)));
    }
  });

  it('rejects bad input with a typed error naming the field', () => {
    const err = (f: () => unknown): AnalysisInputError => {
      try {
        f();
      } catch (e) {
        return e as AnalysisInputError;
      }
      throw new Error('did not throw');
    };
    expect(err(() => rebalanceOutline([], 100)).field).toBe('outline');
    expect(err(() => rebalanceOutline([sec('a')], -5)).field).toBe('target_words');
    expect(err(() => rebalanceOutline([sec('a'), sec('a')], 5)).field).toBe('outline[1].id');
  });
});

describe('refine', () => {
  const outline: OutlineSection[] = [
    sec('a', 300, { key_points: ['k1', 'k2'], subheadings: ['x', 'y', 'z'], keywords: ['bread'] }),
    sec('b', 200, {
      key_points: ['k3'],
      keywords: ['bread', 'flour'],
      references: [{ title: 'T', url: 'https://t', excerpt: '' }],
    }),
    sec('c', 100, { key_points: ['k4'] }),
  ];
  const frozen = JSON.stringify(outline);
  const ids = (o: OutlineSection[]): string[] => o.map((s) => s.id);
  afterEach(() => expect(JSON.stringify(outline)).toBe(frozen)); // pure: input never mutated

  it('add appends, inserts after a section, or at a position, with a unique id', () => {
    expect(ids(refineOutline({ outline, operation: 'add', payload: { section: { heading: 'New' } } }).outline)).toEqual(
      ['a', 'b', 'c', 'section-4'],
    );
    expect(
      ids(
        refineOutline({ outline, operation: 'add', section_id: 'a', payload: { section: { id: 'b', heading: 'New' } } })
          .outline,
      ),
    ).toEqual(['a', 'b-2', 'b', 'c']);
    expect(
      ids(
        refineOutline({ outline, operation: 'add', payload: { position: 0, section: { id: 'n', heading: 'New' } } })
          .outline,
      ),
    ).toEqual(['n', 'a', 'b', 'c']);
  });

  it('remove, move, rename, reorder', () => {
    expect(ids(refineOutline({ outline, operation: 'remove', section_id: 'b' }).outline)).toEqual(['a', 'c']);
    expect(
      ids(refineOutline({ outline, operation: 'move', section_id: 'c', payload: { to_index: 0 } }).outline),
    ).toEqual(['c', 'a', 'b']);
    expect(
      ids(refineOutline({ outline, operation: 'move', section_id: 'a', payload: { after_section_id: 'b' } }).outline),
    ).toEqual(['b', 'a', 'c']);
    expect(
      refineOutline({ outline, operation: 'rename', section_id: 'b', payload: { heading: 'Flour' } }).outline[1]
        .heading,
    ).toBe('Flour');
    expect(ids(refineOutline({ outline, operation: 'reorder', payload: { order: ['c', 'a', 'b'] } }).outline)).toEqual([
      'c',
      'a',
      'b',
    ]);
  });

  it('merge combines content and word targets', () => {
    const r = refineOutline({ outline, operation: 'merge', section_id: 'a', payload: { with_section_id: 'b' } });
    expect(ids(r.outline)).toEqual(['a', 'c']);
    expect(r.outline[0]).toMatchObject({
      target_words: 500,
      key_points: ['k1', 'k2', 'k3'],
      keywords: ['bread', 'flour'],
      subheadings: ['x', 'y', 'z', 'Heading b'],
    });
    expect(r.outline[0].references).toHaveLength(1);
    expect(r.optimization_results.improvements_made[0]).toMatch(/Merged "Heading b" \(b\)/);
  });

  it('split divides subheadings, key points and words exactly', () => {
    const r = refineOutline({ outline, operation: 'split', section_id: 'a', payload: { parts: 2 } });
    expect(ids(r.outline)).toEqual(['a-1', 'a-2', 'b', 'c']);
    expect(r.outline.slice(0, 2).map((s) => [s.heading, s.subheadings, s.key_points, s.target_words])).toEqual([
      ['x', ['x', 'y'], ['k1'], 150],
      ['z', ['z'], ['k2'], 150],
    ]);
  });

  it('returns title options and optimization results', () => {
    const r = refineOutline({
      outline,
      operation: 'rename',
      section_id: 'a',
      payload: { heading: 'Bread basics', focus: 'clarity' },
    });
    expect(r.title_options.length).toBeGreaterThan(0);
    expect(r.title_options[0]).toMatch(/Bread/);
    expect(r.optimization_results.optimization_focus).toBe('clarity');
    expect(r.optimization_results.overall_quality_score).toBe(outlineQuality(r.outline));
  });

  it.each([
    [{ operation: 'explode' }, 'operation'],
    [{ operation: 'remove', section_id: 'zzz' }, 'section_id'],
    [{ operation: 'remove' }, 'section_id'],
    [{ operation: 'rename', section_id: 'a', payload: {} }, 'payload.heading'],
    [{ operation: 'reorder', payload: { order: ['a', 'b'] } }, 'payload.order'],
    [{ operation: 'move', section_id: 'a', payload: { to_index: 9 } }, 'payload.to_index'],
    [{ operation: 'merge', section_id: 'c' }, 'payload.with_section_id'],
    [{ operation: 'split', section_id: 'a', payload: { parts: 1 } }, 'payload.parts'],
  ])('%j throws AnalysisInputError on %s', (req, field) => {
    let caught: unknown;
    try {
      refineOutline({ outline, ...(req as { operation: string }) });
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(AnalysisInputError);
    expect((caught as AnalysisInputError).field).toBe(field);
  });
});
