/** The offline blog edits (domain/blog/revise.ts) and continuity metrics (domain/blog/continuity.ts): each rule changes only what it checks. */
import { enhanceSectionOffline, optimizeOutlineOffline, reviseSectionOffline } from '../../../domain/blog/revise';
import { citationCoverage, continuityMetrics } from '../../../domain/blog/continuity';

describe('offline blog edits', () => {
  it('enhance: drops duplicates, covers keywords, reacts to focus cues, names every change', () => {
    const r = enhanceSectionOffline(
      {
        id: 's',
        heading: 'Choosing a cadence',
        key_points: ['Match cadence to capacity', 'match  cadence to capacity'],
        keywords: ['content calendar'],
        references: [{ title: 'Cadence study', url: 'https://x.org', excerpt: 'e' }],
      },
      'examples and evidence',
    );
    expect(r.key_points).toEqual([
      'Match cadence to capacity',
      'How content calendar applies to choosing a cadence',
      'A concrete example of choosing a cadence',
      'Evidence from “Cadence study”',
    ]);
    expect(r.improvements_made).toHaveLength(5);
    expect(r.subheadings).toEqual([
      'Match Cadence to Capacity',
      'How Content Calendar Applies to Choosing a Cadence',
      'A Concrete Example of Choosing a Cadence',
    ]);
    const same = enhanceSectionOffline(
      { id: 's', heading: 'A', key_points: ['x one', 'y two', 'z three'], subheadings: ['X', 'Y'] },
      'general improvement',
    );
    expect(same.improvements_made[0]).toMatch(/^No rule-based change/);
  });

  it('optimize outline: numbers repeated headings and balances targets keeping the total', () => {
    const r = optimizeOutlineOffline(
      [
        { id: 'a', heading: 'Intro', target_words: 100 },
        { id: 'b', heading: 'intro', target_words: 1300 },
        { id: 'c', heading: 'End', target_words: 100 },
      ],
      'flow',
    );
    expect(r.outline.map((s) => s.heading)).toEqual(['Intro', 'intro (part 2)', 'End']);
    expect(r.outline.reduce((n, s) => n + (s.target_words ?? 0), 0)).toBe(1500);
    expect(r.outline.map((s) => s.target_words)).toEqual([300, 900, 300]);
  });

  it('revise text: removes fillers, splits a long sentence, keeps lists and citations', () => {
    const text =
      'Planning is really useful for every small team that publishes often, and it keeps the whole team focused on the topics that readers ask about most [1].\n\n- a very short item';
    const r = reviseSectionOffline(text);
    expect(r.content).toBe(
      'Planning is useful for every small team that publishes often. It keeps the whole team focused on the topics that readers ask about most [1].\n\n- a very short item',
    );
    expect(r.improvements_made).toEqual([
      'Removed 1 filler word',
      'Split 1 sentence over 25 words at a clause boundary',
    ]);
  });

  it('continuity: citation coverage over claims, zeros for empty text', () => {
    expect(citationCoverage('Teams publish 40% more [1]. Sales rose 12% in 2023.')).toBe(0.5);
    expect(citationCoverage('Plain words here describe a calm afternoon walk.')).toBe(1);
    expect(continuityMetrics('')).toEqual({
      word_count: 0,
      readability_score: 0,
      keyword_density: 0,
      citation_coverage: 1,
      flow_score: 0,
      coherence_score: 0,
      engagement_score: 0,
    });
  });
});
